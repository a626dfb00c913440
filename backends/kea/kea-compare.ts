import { createHash } from 'node:crypto';

/**
 * Kea's configuration is written whole (`config-set`) with no condition, and others write it too:
 * an operator, Stork, an HA partner. A round of the service reads it, edits its reservations and
 * sets it; what someone else set in between would be lost. So before each `config-set` the round
 * asks whether the configuration is still the one it read: by `config-hash-get` where Kea has it
 * (2.4 and later, whose `config-get` answers carry the same `hash`), else (Kea 2.2) by reading it
 * again and comparing a digest of it. A changed one ends the round before it writes (`ForeignWrite`);
 * the adapter then starts over from a fresh read, so both sides' reservations stand.
 * The compare is one call before the set, not a condition of it: a write landing in that gap is
 * still lost (docs/decisions.md, "Kea written by others").
 */
export interface Baseline {
  /** Kea's own hash of what was read (2.4 and later). */
  hash?: string;
  /** A digest of the Dhcp4 configuration read, keys sorted. */
  digest: string;
}

type Answer = { result: number; arguments?: Record<string, unknown> };

/** Someone else set Kea's configuration since the round read it. */
export class ForeignWrite extends Error {
  constructor() {
    super("Kea's configuration changed since it was read");
  }
}

export function baselineOf(args: Record<string, unknown>): Baseline {
  return { ...(typeof args.hash === 'string' ? { hash: args.hash } : {}), digest: digestOf(args.Dhcp4) };
}

/** Whether Kea still runs the configuration `b` was read from; `ask` runs one command and answers it. */
export async function unchangedSince(b: Baseline, ask: (command: 'config-hash-get' | 'config-get') => Promise<Answer>): Promise<boolean> {
  if (b.hash !== undefined) {
    const now = await ask('config-hash-get');
    if (now.result === 0 && typeof now.arguments?.hash === 'string') return now.arguments.hash === b.hash;
  }
  const read = await ask('config-get');
  return read.result === 0 && digestOf(read.arguments?.Dhcp4) === b.digest;
}

function digestOf(config: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(sorted(config)))
    .digest('hex');
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}
