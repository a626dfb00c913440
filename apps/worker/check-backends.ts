import type { Site } from '../../activities/site.js';
import { BackendError } from '../../core/backend-outcome.js';
import { backendProbes } from '../../activities/backend-areas.js';

/**
 * `worker --check-backends`: before the first tenant, call each configured backend's read-only
 * endpoint with the site's URL, credential and CA bundle, exactly as the adapters will, and say
 * what answers, and whether the settings the service depends on are set (each area's `probes`).
 * No tenant's object is written. Where a right shows only in a write, the check makes one the
 * product takes as a no-op: Kea's `config-write` of its running configuration to its own file
 * (what every reservation ends with), the Recursor's forward zone of its own, added and removed.
 */
export interface BackendCheck {
  backend: string;
  /** The URL checked (no credential is ever part of it). */
  url: string;
  ok: boolean;
  /** What answered (a version, a count), or why it did not. */
  detail: string;
}

/** Runs every configured backend's check at once; never throws. */
export async function checkBackends(site: Site, opts: { timeoutMs?: number } = {}): Promise<BackendCheck[]> {
  const timeoutMs = opts.timeoutMs ?? site.backendTimeoutMs;
  return Promise.all(
    backendProbes(site, timeoutMs).map(async (p): Promise<BackendCheck> => {
      try {
        return { backend: p.backend, url: p.url, ok: true, detail: await p.run() };
      } catch (err) {
        return { backend: p.backend, url: p.url, ok: false, detail: err instanceof BackendError ? err.detail : (err as Error).message };
      }
    }),
  );
}

/** One line per backend, for the operator's terminal. */
export function formatChecks(checks: BackendCheck[]): string {
  const width = Math.max(...checks.map((c) => c.backend.length));
  return checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.backend.padEnd(width)}  ${c.url}  ${c.detail}`).join('\n');
}
