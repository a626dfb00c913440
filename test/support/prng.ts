/**
 * A small seeded PRNG (mulberry32) for reliability tests: the seed is printed, so a run that found
 * something can be repeated exactly with `RELIABILITY_SEED=<seed>`.
 */
export interface Prng {
  seed: number;
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  shuffle<T>(items: T[]): T[];
}

export function seededPrng(label: string): Prng {
  const fromEnv = Number(process.env.RELIABILITY_SEED);
  const seed = Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : Math.floor(Math.random() * 2 ** 31) + 1;
  console.log(`${label}: seed ${seed} (repeat with RELIABILITY_SEED=${seed})`);
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    seed,
    next,
    int,
    shuffle(items) {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    },
  };
}
