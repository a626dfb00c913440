/** The object a Wi-Fi key's step failure names. */
export const ofKey = (tenant: string, name: string) => ({ object: `Wi-Fi key ${name} of tenant ${tenant}` });
