/**
 * A bound on the calls each worker sends one backend per second (SITE_BACKEND_CALLS_PER_SECOND),
 * so a sweep of a full site, or a burst of creates, never floods a real Proxmox, controller or
 * Grafana. A token bucket per backend: up to a second's worth of calls at once, then the rate;
 * a call over it waits its turn (in arrival order) rather than failing. Per worker (its own
 * `BackendCalls`, calls.ts, made where it binds its ports): N workers send at most N times the
 * rate, whether they run in one process or in N. Off (no bound) when the rate is 0.
 * Hand-written: ten lines of arithmetic on an injected clock, for which a throttle library would
 * be a dependency and timers of its own (docs/decisions.md, "SigV4 through aws4, and the rest of
 * issue 46's item 5").
 */
export class Pacer {
  private tokens: number;
  private at: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = perSecond;
    this.at = now();
  }

  /** Takes a call's slot: how many milliseconds the call must wait for it (0: go now). */
  reserve(): number {
    const t = this.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((t - this.at) / 1000) * this.perSecond);
    this.at = t;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.perSecond) * 1000;
  }
}
