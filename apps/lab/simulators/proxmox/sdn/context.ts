import type { Context } from 'hono';
import { died, paramError, sdnLockError } from '../envelope.js';
import { readParams, type Raw } from '../params.js';
import { PVE9_ONLY_PARAMS, type ReleaseFeatures } from '../release.js';
import { pendingView, type View } from '../sdn-model.js';
import { cloneSdnSet, sdnDigest, type ProxmoxSimState } from '../state.js';
import type { TaskRunner } from '../tasks.js';

export type Kind = 'zones' | 'vnets' | 'subnets';

/** What every `/cluster/sdn` handler works with: the cluster's SDN configuration and pve-network's checks. */
export interface Sdn {
  state: ProxmoxSimState;
  tasks: TaskRunner;
  user: string;
  /** What the simulated release serves (PVE 8: no lock, no fabrics). */
  features: ReleaseFeatures;
  /** The edited configuration. */
  cfg(): ProxmoxSimState['sdn']['config'];
  /** A kind's sections as a read asks for them: edited, `running=1` or `pending=1`. */
  view(kind: Kind, q: Record<string, unknown>): Map<string, View>;
  digestOf(kind: Kind, q: Record<string, unknown>): string;
  /**
   * `lock_sdn_config`: while a global lock is held (POST /cluster/sdn/lock), only a call carrying
   * its token may write ("invalid lock token provided!"); run the write, keep nothing of it if it
   * dies, and prefix the reason.
   */
  locked(context: string, token: unknown, fn: () => void): void;
  params(c: Context, extra?: Raw): Promise<Raw>;
  vnetMustExist(vnet: string): void;
}

export type SdnHandler = (c: Context, sdn: Sdn) => Response | Promise<Response>;

export function sdnContext(state: ProxmoxSimState, tasks: TaskRunner, user: string, features: ReleaseFeatures): Sdn {
  const cfg = () => state.sdn.config;
  return {
    state,
    tasks,
    user,
    features,
    cfg,
    view(kind, q) {
      if (q.pending) return pendingView(state.sdn.running?.[kind], cfg()[kind]);
      const m = q.running ? state.sdn.running?.[kind] : cfg()[kind];
      return new Map([...(m ?? [])].map(([k, v]) => [k, { ...v }]));
    },
    digestOf: (kind, q) => sdnDigest((q.running ? state.sdn.running?.[kind] : cfg()[kind]) ?? new Map()),
    locked(context, token, fn) {
      const before = cloneSdnSet(cfg());
      try {
        if (state.sdn.lockToken !== undefined && token !== state.sdn.lockToken) throw died('invalid lock token provided!');
        fn();
      } catch (e) {
        state.sdn.config = before;
        throw sdnLockError(context, e);
      }
    },
    async params(c, extra = {}) {
      const raw = { ...(await readParams(c)), ...extra };
      // PVE 8's schemas do not define the lock's parameters: refused as any unknown one.
      const unknown = features.sdnLock ? [] : PVE9_ONLY_PARAMS.filter((k) => k in raw);
      if (unknown.length)
        throw paramError(Object.fromEntries(unknown.map((k) => [k, 'property is not defined in schema and the schema does not allow additional properties'])));
      return raw;
    },
    vnetMustExist(vnet) {
      if (!cfg().vnets.get(vnet)) throw died(`sdn vnet '${vnet}' does not exist`);
    },
  };
}
