/**
 * Broker usernames. Tenant names hold no dash, so `<tenant>-` is a prefix no other tenant's
 * accounts share (`acme-` never matches `acme2-x`): tenant delete can list by it.
 */
export function brokerUsername(tenant: string, account: string): string {
  return `${tenant}-${account}`;
}

export function tenantUsernamePrefix(tenant: string): string {
  return `${tenant}-`;
}
