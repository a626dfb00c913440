import type { BackendCalls } from '../http/calls.js';
import { BackendError } from '../../core/backend-outcome.js';
import { BackendHttp } from '../http/client.js';

/**
 * A Proxmox VE API client for the adapters: API-token auth, form-encoded parameters, the
 * `{"data": ...}` envelope, failures as BackendError with PVE's `message` and `errors` kept for
 * the log, and worker tasks (UPIDs) polled to completion within a bound.
 * Shared by the network (SDN) and hypervisor (QEMU) adapters.
 */
export interface PveApiOptions {
  /** `https://host:8006` or the same with `/api2/json`. */
  apiUrl: string;
  /** `USER@REALM!TOKENID`. */
  tokenId: string;
  tokenSecret: string;
  /** Bound on one task, from start to `stopped`. */
  taskTimeoutMs: number;
  /** Bound on one HTTP call. */
  timeoutMs?: number;
  /** The worker's pacing and telemetry of its backend calls (backends/http/calls.ts); neither when absent. */
  calls?: BackendCalls;
  /** PEM certificates to trust for this backend's HTTPS (its private CA); public roots when absent. */
  ca?: string;
  product?: string;
}

export type PveParams = Record<string, string | number | boolean | undefined>;

export interface Upid {
  node: string;
  pid: number;
  pstart: number;
  starttime: number;
  type: string;
  id: string;
  user: string;
}

const UPID_RE = /^UPID:([^:]+):([0-9A-Fa-f]{8}):([0-9A-Fa-f]{8,9}):([0-9A-Fa-f]{8}):([^:]+):([^:]*):([^:]+):$/;

export function parseUpid(upid: string): Upid | undefined {
  const m = UPID_RE.exec(upid);
  if (!m) return undefined;
  return {
    node: m[1]!,
    pid: parseInt(m[2]!, 16),
    pstart: parseInt(m[3]!, 16),
    starttime: parseInt(m[4]!, 16),
    type: m[5]!,
    id: m[6]!,
    user: m[7]!,
  };
}

/**
 * Perl's uri_escape (what PVE's `urlencoded` format expects, e.g. for `sshkeys`): everything but
 * `A-Za-z0-9-._~` percent-encoded.
 */
export function pveUrlEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A task ended with an error, or outlived its bound. */
export class PveTaskError extends BackendError {}

const ERROR_STATUSES = Array.from({ length: 200 }, (_, i) => 400 + i);

function encodeForm(params: PveParams): string {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    form.set(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  }
  return form.toString();
}

export class PveApi {
  readonly product: string;
  private readonly http: BackendHttp;

  constructor(private readonly opts: PveApiOptions) {
    this.product = opts.product ?? 'proxmox';
    const base = opts.apiUrl.replace(/\/+$/, '');
    const root = /\/api2\/json$/.test(base) ? base : `${base}/api2/json`;
    this.http = new BackendHttp(this.product, root, { authorization: `PVEAPIToken=${opts.tokenId}=${opts.tokenSecret}` }, this.callTimeoutMs, {
      ca: opts.ca,
      calls: opts.calls,
    });
  }

  /** One call's bound: a call unanswered by then is abandoned. */
  get callTimeoutMs(): number {
    return this.opts.timeoutMs ?? 10_000;
  }

  /** One call; a non-2xx answer becomes a BackendError (4xx: the product refused, not retryable). */
  async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, params: PveParams = {}): Promise<T> {
    const withBody = method === 'POST' || method === 'PUT';
    const query = withBody
      ? undefined
      : (Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'boolean' ? (v ? 1 : 0) : v])) as Record<
          string,
          string | number | undefined
        >);
    const res = await this.http.call({
      method,
      path,
      query,
      headers: withBody ? { 'content-type': 'application/x-www-form-urlencoded' } : undefined,
      body: withBody ? encodeForm(params) : undefined,
      accept: ERROR_STATUSES,
    });
    let body: { data?: T; message?: string; errors?: Record<string, string> } | undefined;
    try {
      body = res.json();
    } catch {
      body = undefined;
    }
    if (res.status >= 200 && res.status < 300) return (body?.data ?? null) as T;
    // PVE puts the die text in `message` and the first line of it in the reason phrase; older
    // releases (and every 401) send it in the reason phrase only.
    const reason = body?.message?.trim() || res.reason.trim() || (res.status === 401 ? 'authentication refused' : res.text.slice(0, 200));
    const errors = body?.errors ? ` ${JSON.stringify(body.errors)}` : '';
    const retryable = res.status >= 500 || res.status === 408 || res.status === 429;
    throw new BackendError(this.product, `${method} ${path} -> ${res.status} ${reason}${errors}`, retryable, res.status);
  }

  get<T>(path: string, query?: PveParams): Promise<T> {
    return this.call<T>('GET', path, query);
  }

  /** A task's `WARN: ...` lines (what it warned of and went on), without the prefix. */
  async taskWarnings(upid: string): Promise<string[]> {
    const u = parseUpid(upid);
    if (!u) return [];
    const log = await this.get<Array<{ n: number; t: string }>>(`/nodes/${encodeURIComponent(u.node)}/tasks/${encodeURIComponent(upid)}/log`, { limit: 1000 });
    return log.map((l) => /^WARN: (.*)$/.exec(l.t)?.[1]?.trim()).filter((t): t is string => !!t);
  }

  /**
   * Wait for a worker task to stop, polling `GET /nodes/{node}/tasks/{upid}/status` with a
   * growing interval; its exit status must be OK (or WARNINGS, unless `warningsFail`: a task that
   * only warns when part of its work failed, as `reloadnetworkall` does for a node).
   */
  async waitTask(upid: unknown, what: string, opts: { warningsFail?: boolean; timeoutMs?: number } = {}): Promise<string | undefined> {
    if (typeof upid !== 'string') return undefined; // a synchronous answer (older PVE): nothing to wait for
    const u = parseUpid(upid);
    if (!u) throw new BackendError(this.product, `${what}: unexpected task id ${upid}`);
    const timeoutMs = opts.timeoutMs ?? this.opts.taskTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    let delay = 5;
    for (;;) {
      const s = await this.get<{ status: string; exitstatus?: string }>(`/nodes/${encodeURIComponent(u.node)}/tasks/${encodeURIComponent(upid)}/status`);
      if (s.status === 'stopped') {
        const exit = s.exitstatus ?? '';
        if (exit === 'OK' || (!opts.warningsFail && /^WARNINGS: \d+$/.test(exit))) return exit;
        throw new PveTaskError(this.product, `${what}: task ${u.type} ${u.id} on ${u.node} failed: ${exit}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new PveTaskError(this.product, `${what}: task ${u.type} ${u.id} on ${u.node} still running after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, Math.min(delay, left)));
      delay = Math.min(delay * 2, 1000);
    }
  }
}
