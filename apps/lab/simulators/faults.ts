import { Hono } from 'hono';

/**
 * Fault injection shared by every simulator, so tests can drive 502-and-resume paths:
 *   POST /__lab/faults {"fail_next": N, "status": 500, "latency_ms": 0, "match": "substring of path"}
 *   DELETE /__lab/faults   clears all faults
 * A matching request fails with `status` (default 500) N times; latency applies to every request
 * while set. The control routes live under /__lab, which no real product serves.
 */
export interface FaultPlan {
  failNext: number;
  status: number;
  latencyMs: number;
  match?: string;
  method?: string;
}

/** A request held until released: the barrier a test holds one call at, to reach a window between two others. */
export interface Hold {
  /** Resolves with the held request's path once one arrived. */
  reached: Promise<string>;
  release(): void;
}

interface ArmedHold {
  match?: string;
  method?: string;
  taken?: boolean;
  reach: (path: string) => void;
  released: Promise<void>;
  release: () => void;
}

export class Faults {
  private plans: FaultPlan[] = [];
  private holds: ArmedHold[] = [];
  private readonly requests: Array<{ method: string; path: string }> = [];
  latencyMs = 0;

  /** Holds the next request matching `match` (a path substring) and `method` until `release()`. */
  hold(plan: { match?: string; method?: string }): Hold {
    let reach!: (path: string) => void;
    let release!: () => void;
    const reached = new Promise<string>((r) => (reach = r));
    const released = new Promise<void>((r) => (release = r));
    this.holds.push({ ...plan, reach, released, release });
    return { reached, release };
  }

  /** Waits while this request is the one a hold was set for. */
  async held(method: string, path: string): Promise<void> {
    const h = this.holds.find((x) => !x.taken && (!x.match || path.includes(x.match)) && (!x.method || x.method === method));
    if (!h) return;
    h.taken = true;
    h.reach(path);
    await h.released;
  }

  /** How many requests (outside /__lab) this simulator has seen whose path contains `match`, of `method` when given. */
  seen(match = '', method?: string): number {
    return this.requests.filter((r) => r.path.includes(match) && (!method || r.method === method)).length;
  }

  add(plan: Partial<FaultPlan>): void {
    if (plan.latencyMs !== undefined) this.latencyMs = plan.latencyMs;
    if ((plan.failNext ?? 0) > 0) {
      this.plans.push({ failNext: plan.failNext ?? 0, status: plan.status ?? 500, latencyMs: 0, match: plan.match, method: plan.method });
    }
  }

  clear(): void {
    this.plans = [];
    this.latencyMs = 0;
    for (const h of this.holds.splice(0)) h.release();
  }

  /** Consumes one failure for this request if a plan matches; returns its status. */
  take(method: string, path: string): number | undefined {
    this.requests.push({ method, path });
    const plan = this.plans.find((p) => p.failNext > 0 && (!p.match || path.includes(p.match)) && (!p.method || p.method === method));
    if (!plan) return undefined;
    plan.failNext -= 1;
    this.plans = this.plans.filter((p) => p.failNext > 0);
    return plan.status;
  }
}

/** Mount the fault control routes and the injecting middleware on a simulator's app. */
export function withFaults(app: Hono, faults = new Faults()): Faults {
  app.use('*', async function injectFaults(c, next) {
    if (c.req.path.startsWith('/__lab/')) return next();
    if (faults.latencyMs > 0) await new Promise((r) => setTimeout(r, faults.latencyMs));
    await faults.held(c.req.method, c.req.path);
    const status = faults.take(c.req.method, c.req.path);
    if (status !== undefined) return c.json({ error: 'injected fault' }, status as 500);
    return next();
  });
  app.post('/__lab/faults', async (c) => {
    const b = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    faults.add({
      failNext: Number(b.fail_next ?? 0),
      status: Number(b.status ?? 500),
      latencyMs: b.latency_ms === undefined ? undefined : Number(b.latency_ms),
      match: typeof b.match === 'string' ? b.match : undefined,
      method: typeof b.method === 'string' ? b.method : undefined,
    });
    return c.json({ ok: true });
  });
  app.delete('/__lab/faults', (c) => {
    faults.clear();
    return c.json({ ok: true });
  });
  return faults;
}
