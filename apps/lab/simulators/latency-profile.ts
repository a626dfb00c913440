import type { Faults } from './faults.js';
import type { ProxmoxSimState } from './proxmox/index.js';

/**
 * How long the simulated products take, per call kind (`LAB_LATENCY`): `zero` (the default, what the
 * tests run) or `real-site`, the typical times of a small production site, so a fill or a bench
 * shows where a real site's time goes. The real servers (PowerDNS, Recursor, Kea, Mosquitto, Caddy)
 * answer as they do; only the simulated products take these times.
 *
 * Each figure says where it comes from. Where no published figure exists it is an estimate, said
 * so, from how the product does the call (a fork, a disk write, a push to access points).
 */
export interface LatencyProfile {
  /** Added to every API request (pveproxy over HTTPS: a worker forks per request, ~10–50 ms). */
  proxmoxRequestMs: number;
  /** How long each task type runs on the node, ms. */
  proxmoxTasks: Record<string, number>;
  /** Added to every MinIO admin and S3 request. */
  minioRequestMs: number;
  /** Added to every Grafana HTTP API request. */
  grafanaRequestMs: number;
  /** Added to every UniFi Network controller request (a WLAN write is pushed to the access points). */
  unifiRequestMs: number;
}

export const LATENCY_PROFILES: Record<'zero' | 'real-site', LatencyProfile> = {
  zero: { proxmoxRequestMs: 0, proxmoxTasks: {}, minioRequestMs: 0, grafanaRequestMs: 0, unifiRequestMs: 0 },
  'real-site': {
    // Estimate: pveproxy answers an authenticated API GET in tens of ms (each request goes through
    // its Perl worker pool and, for writes, pmxcfs, the cluster file system).
    proxmoxRequestMs: 30,
    proxmoxTasks: {
      // Issue 32's figure for one SDN apply: `PUT /cluster/sdn` starts `ifreload -a` on every node
      // (pve-network API2/Network/SDN.pm reload); each node's reload of a few dozen bridges and its
      // FRR reconfiguration take seconds. The simulator starts the nodes' reloads together, as
      // `reloadnetworkall` does, so one apply is this long.
      srvreload: 5_000,
      // Estimate: a linked clone is a thin snapshot of the template's disk (seconds); a full clone
      // copies the disk (minutes: test/e2e/workload-slow-clone.test.ts runs 75 s), not used here.
      qmclone: 3_000,
      // Estimate: `qm start` of a small VM returns once QEMU is launched (1–3 s).
      qmstart: 2_000,
      qmshutdown: 3_000,
      qmstop: 1_000,
      qmdestroy: 1_500,
      // A config change of a running VM (`qmconfig` as a task: disk resize, hotplug).
      qmconfig: 500,
    },
    // Estimate: a MinIO admin call (add user, set policy) writes IAM state to its backend drive.
    minioRequestMs: 20,
    // Estimate: Grafana's API writes to its SQLite database on each org, user or data source change.
    grafanaRequestMs: 30,
    // Estimate: a UniFi Network controller answers a WLAN `PUT` after saving it to MongoDB and
    // queueing its provisioning to the access points (hundreds of ms).
    unifiRequestMs: 300,
  },
};

export type LatencyProfileName = keyof typeof LATENCY_PROFILES;

/** The profile `LAB_LATENCY` names (or `zero`); an unknown name stops the lab, naming the choices. */
export function latencyProfile(name: string | undefined = process.env.LAB_LATENCY): LatencyProfile {
  const key = (name ?? 'zero') || 'zero';
  if (!(key in LATENCY_PROFILES)) throw new Error(`LAB_LATENCY: "${key}" is not a latency profile (zero, real-site)`);
  return LATENCY_PROFILES[key as LatencyProfileName];
}

/** Applies a profile to the simulators: their requests' added time and Proxmox's task times. */
export function applyLatencyProfile(
  profile: LatencyProfile,
  sims: { proxmox: { state: ProxmoxSimState; faults: Faults }; minio: { faults: Faults }; grafana?: { faults: Faults }; unifi?: { faults: Faults } },
): void {
  for (const [type, ms] of Object.entries(profile.proxmoxTasks)) sims.proxmox.state.taskTiming.durations.set(type, ms);
  const add = (faults: Faults | undefined, ms: number) => ms > 0 && faults?.add({ latencyMs: ms });
  add(sims.proxmox.faults, profile.proxmoxRequestMs);
  add(sims.minio.faults, profile.minioRequestMs);
  add(sims.grafana?.faults, profile.grafanaRequestMs);
  add(sims.unifi?.faults, profile.unifiRequestMs);
}
