import type { Context } from 'hono';
import { died, paramError, sdnLockError } from '../envelope.js';
import { readParams, type Raw } from '../params.js';
import { PVE9_ONLY_PARAMS, type ReleaseFeatures } from '../release.js';
import { pendingView, subnetUpdateHook, vnetUpdateHook, zoneUpdateHook, type View } from '../sdn-model.js';
import { cloneSdnSet, sdnDigest, type ProxmoxSimState, type SdnSection } from '../state.js';
import type { TaskRunner } from '../tasks.js';

export type Kind = 'zones' | 'vnets' | 'subnets';

/** What pve-network runs after a section of each kind is written. */
const UPDATE_HOOKS: Record<Kind, (state: ProxmoxSimState, id: string) => void> = { zones: zoneUpdateHook, vnets: vnetUpdateHook, subnets: subnetUpdateHook };

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
  /** A create of a zone, a VNet or a subnet: under the lock, refused when its id is defined already, then the kind's update hook. */
  create(kind: Kind, id: string, token: unknown, section: SdnSection): void;
  params(c: Context, extra?: Raw): Promise<Raw>;
  vnetMustExist(vnet: string): void;
}

export type SdnHandler = (c: Context, sdn: Sdn) => Response | Promise<Response>;

export function sdnContext(state: ProxmoxSimState, tasks: TaskRunner, user: string, features: ReleaseFeatures): Sdn {
  const cfg = () => state.sdn.config;
  const sdn: Sdn = {
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
    create(kind, id, token, section) {
      const what = kind.slice(0, -1);
      sdn.locked(`create sdn ${what} object failed`, token, () => {
        if (cfg()[kind].has(id)) throw died(`sdn ${what} object ID '${id}' already defined`);
        cfg()[kind].set(id, section);
        UPDATE_HOOKS[kind](state, id);
      });
    },
    vnetMustExist(vnet) {
      if (!cfg().vnets.get(vnet)) throw died(`sdn vnet '${vnet}' does not exist`);
    },
  };
  return sdn;
}
