/**
 * The Proxmox VE major release the simulator serves, and what of the SDN API comes with it
 * (pve-network's debian/changelog): PVE 8 is libpve-network-perl 0.9.x, whose `PUT /cluster/sdn`
 * takes no parameter and which has no global SDN lock, no rollback and no fabrics; PVE 9 is 1.1.x,
 * which added the lock (`POST/DELETE /cluster/sdn/lock`, `lock-token` on every write, 1.1.3), the
 * rollback of pending edits (`POST /cluster/sdn/rollback`) and fabrics. `/version` names the
 * release whose features are served, so a check that reads the version meets what it will use.
 */
export type PveRelease = 8 | 9;

export interface ReleaseFeatures {
  /** `GET /version`'s answer. */
  version: string;
  release: string;
  /** The global SDN lock, `lock-token` on writes, and the rollback endpoint. */
  sdnLock: boolean;
  /** `/cluster/sdn/fabrics`. */
  fabrics: boolean;
}

export const RELEASES: Record<PveRelease, ReleaseFeatures> = {
  8: { version: '8.4.1', release: '8.4', sdnLock: false, fabrics: false },
  9: { version: '9.0.11', release: '9.0', sdnLock: true, fabrics: true },
};

/** Parameters PVE 8's SDN methods do not define: its schemas refuse them as any unknown one. */
export const PVE9_ONLY_PARAMS = ['lock-token', 'release-lock'] as const;
