import { BackendError, type ChangeResult } from '../core/backend-outcome.js';
import { whileLocked, type Tx } from '../db/queries/locks.js';
import { onBehalfOfMany } from '../backends/http/calls.js';

/**
 * Writes a batch of changes to one whole object (Kea's configuration, one WLAN) in as few writes as
 * the backend allows: one, or more when it refuses the whole write and the offender is looked for.
 * One result per change, in order. A failure of the batch as such (the backend unreachable)
 * throws, and fails every change it carried.
 */
export type BatchWrite<C, R> = (changes: C[]) => Promise<Array<ChangeResult<R>>>;

/** What a caller's change came to, and how many changes (its own included) the write carried. */
export interface Carried<R> {
  value: R;
  objects: number;
}

/** A staged change: `wait` ends once a write carried it and the backend's answer confirmed it. */
export interface Ticket<R> {
  wait(tx: Tx): Promise<Carried<R>>;
}

interface Entry<C, R> {
  change: C;
  /** The caller's transaction once it waits (idle until the write ends): a round may run on it. */
  tx?: Tx;
  settle: (r: ChangeResult<Carried<R>>) => void;
  done: Promise<ChangeResult<Carried<R>>>;
}

/**
 * Group commit of a backend whose write is one whole object (issue 32): while one write of the
 * object runs, callers stage their changes; the next write carries every change staged by then.
 *
 * Rounds run one at a time in this process, and across workers under a registry advisory lock
 * (`space`, `key`), held as a session lock on the transaction of one of the waiting callers (the
 * round's leader), not on a connection of its own: with one more connection per round, the
 * waiters could hold every connection of the pool while the round waited for one. Changes are
 * staged in this process: a worker's round carries its own callers' changes.
 */
export class GroupCommit<C, R> {
  private staged: Array<Entry<C, R>> = [];
  private running = false;

  constructor(
    private readonly lock: { space: number; key: string; waitMs: number; what: string },
    private readonly write: BatchWrite<C, R>,
  ) {}

  /** Stages a change for the next write; nothing runs until a caller waits. */
  stage(change: C): Ticket<R> {
    let settle!: (r: ChangeResult<Carried<R>>) => void;
    const done = new Promise<ChangeResult<Carried<R>>>((resolve) => (settle = resolve));
    const entry: Entry<C, R> = { change, settle, done };
    this.staged.push(entry);
    return {
      wait: async (tx) => {
        entry.tx = tx;
        this.kick();
        const r = await entry.done;
        if (!r.ok) throw r.error;
        return r.value;
      },
    };
  }

  /** Stages `change` and waits for the write that carries it. */
  submit(tx: Tx, change: C): Promise<Carried<R>> {
    return this.stage(change).wait(tx);
  }

  private kick(): void {
    if (this.running) return;
    // The round runs on a waiting caller's transaction: one still staging may be using its own.
    const leader = this.staged.find((e) => e.tx);
    if (!leader) return;
    this.running = true;
    // On behalf of every change staged: the leader's attempt given up on does not fail the others'.
    void onBehalfOfMany(() => this.round(leader.tx!)).finally(() => {
      this.running = false;
      this.kick();
    });
  }

  private async round(tx: Tx): Promise<void> {
    let batch: Array<Entry<C, R>> = [];
    let results: Array<ChangeResult<Carried<R>>> = [];
    try {
      const r = await whileLocked(tx, this.lock.space, this.lock.key, this.lock.waitMs, async () => {
        // Every change staged by now, also those staged while this round waited for the lock.
        batch = this.staged.splice(0);
        const written = await this.write(batch.map((e) => e.change));
        results = written.map((w) => (w.ok ? { ok: true as const, value: { value: w.value, objects: batch.length } } : w));
      });
      if (!r.ran) throw new BackendError(this.lock.what, `other writes held it for ${this.lock.waitMs / 1000} s`);
    } catch (error) {
      if (batch.length === 0) batch = this.staged.splice(0);
      results = batch.map(() => ({ ok: false as const, error }));
    }
    // Settled after the round's lock is released: a caller may use its transaction again at once.
    batch.forEach((e, i) => e.settle(results[i] ?? { ok: false, error: new Error('the write answered no result for the change') }));
  }
}

/** One committer per key (the backend object) and adapter, for this process. */
export function committers<A extends object, C, R>(make: (adapter: A, key: string) => GroupCommit<C, R>): (adapter: A, key: string) => GroupCommit<C, R> {
  const byAdapter = new WeakMap<A, Map<string, GroupCommit<C, R>>>();
  return (adapter, key) => {
    let byKey = byAdapter.get(adapter);
    if (!byKey) byAdapter.set(adapter, (byKey = new Map()));
    let c = byKey.get(key);
    if (!c) byKey.set(key, (c = make(adapter, key)));
    return c;
  };
}
