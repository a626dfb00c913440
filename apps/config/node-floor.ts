/**
 * The oldest Node the service runs on: 24.7 brought `node:crypto`'s argon2, which seals MinIO's
 * admin bodies (backends/minio/madmin-crypto.ts). package.json's `engines` says the same
 * (node-floor.test.ts holds the two together).
 */
export const NODE_FLOOR = '24.7.0';

const parts = (v: string) =>
  v
    .replace(/^v/, '')
    .split('.')
    .map((n) => Number.parseInt(n, 10) || 0);

/** Why `version` cannot run the service, or undefined when it can. */
export function belowNodeFloor(version: string): string | undefined {
  const [have, floor] = [parts(version), parts(NODE_FLOOR)];
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) > (floor[i] ?? 0)) return undefined;
    if ((have[i] ?? 0) < (floor[i] ?? 0))
      return `Node ${NODE_FLOOR} or newer is needed (node:crypto argon2 seals MinIO's admin bodies); this is Node ${version.replace(/^v/, '')}`;
  }
  return undefined;
}
