/**
 * The tenant's state-store user (design §7: the tenant name). MinIO refuses access keys shorter than
 * three characters (accessKeyMinLen), and the spec's name pattern allows one or two, so a short
 * name is prefixed: `tenant-<name>`. Every other name is its own access key.
 */
export const MINIO_ACCESS_KEY_MIN = 3;

export function stateAccessKey(tenant: string): string {
  return tenant.length >= MINIO_ACCESS_KEY_MIN ? tenant : `tenant-${tenant}`;
}
