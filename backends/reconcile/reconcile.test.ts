import { describe, expect, it } from 'vitest';
import { converge, ensure, once, plan, planned, type Observation, type ObjectKind } from './reconcile.js';

/** A tiny in-memory backend: named objects of two fields, one of them a secret. */
interface Thing {
  size: number;
  secret: string;
}
interface Want extends Thing {
  name: string;
}

function store(initial: Record<string, Thing> = {}) {
  const held = new Map(Object.entries(initial).map(([k, v]) => [k, { ...v }]));
  const calls: string[] = [];
  /** Someone else creates the object between our observe and our create (a 409). */
  let raceWith: Thing | undefined;
  const drift = (have: Thing, want: Want) => [...(have.size === want.size ? [] : ['size']), ...(have.secret === want.secret ? [] : ['secret'])];
  const observeOne = (want: Want): Observation => {
    const have = held.get(want.name);
    return { exists: !!have, drift: have ? drift(have, want) : [] };
  };
  const kind: ObjectKind<Want> = {
    object: (want) => `thing ${want.name}`,
    async observe(want) {
      calls.push(`GET ${want.name}`);
      return observeOne(want);
    },
    async apply(want, seen) {
      if (!seen.exists) {
        calls.push(`POST ${want.name}`);
        if (raceWith) {
          held.set(want.name, raceWith);
          raceWith = undefined;
          calls.push(`GET ${want.name}`);
          const adopted = observeOne(want);
          if (adopted.drift.length) held.set(want.name, { size: want.size, secret: want.secret });
          return { adopted };
        }
        held.set(want.name, { size: want.size, secret: want.secret });
        return;
      }
      calls.push(`PUT ${want.name} ${seen.drift.join(',')}`);
      held.set(want.name, { size: want.size, secret: want.secret });
    },
  };
  return {
    held,
    calls,
    kind,
    race: (t: Thing) => {
      raceWith = t;
    },
  };
}

const want: Want = { name: 'a', size: 2, secret: 's3cret' };

describe('the reconciler', () => {
  const cases: Array<{ what: string; initial: Record<string, Thing>; result: string; fields?: string[]; writes: string[] }> = [
    { what: 'absent: created', initial: {}, result: 'created', writes: ['POST a'] },
    { what: 'as desired: in place, no write', initial: { a: { size: 2, secret: 's3cret' } }, result: 'in-place', writes: [] },
    { what: 'one field differs', initial: { a: { size: 1, secret: 's3cret' } }, result: 'corrected', fields: ['size'], writes: ['PUT a size'] },
    {
      what: 'two fields differ, named without the secret',
      initial: { a: { size: 1, secret: 'old' } },
      result: 'corrected',
      fields: ['size', 'secret'],
      writes: ['PUT a size,secret'],
    },
  ];

  it.each(cases)('$what: plan says what ensure then does and reports', async ({ initial, result, fields, writes }) => {
    const s = store(initial);
    const planned = await plan(s.kind, want);
    expect(s.calls).toEqual(['GET a']);
    expect(s.held.get('a')).toEqual(initial.a);
    s.calls.length = 0;
    const ensured = await ensure(s.kind, want);
    expect(ensured).toEqual(planned);
    expect(ensured).toEqual({ object: 'thing a', result, ...(fields ? { fields } : {}) });
    expect(s.calls).toEqual(['GET a', ...writes]);
    expect(JSON.stringify(ensured)).not.toContain('s3cret');
    // Converged: the next plan and ensure find nothing to do.
    expect(await plan(s.kind, want)).toEqual({ object: 'thing a', result: 'in-place' });
    expect(await ensure(s.kind, want)).toEqual({ object: 'thing a', result: 'in-place' });
  });

  it('a create that finds the object made meanwhile adopts it and reports it as found', async () => {
    const s = store();
    s.race({ size: 1, secret: 's3cret' });
    const { outcome, held } = await converge(s.kind, want);
    expect(outcome).toEqual({ object: 'thing a', result: 'corrected', fields: ['size'] });
    expect(held).toEqual({ exists: true, drift: ['size'] });
    expect(s.held.get('a')).toEqual({ size: 2, secret: 's3cret' });
  });

  it('upkeep runs only on an object found as desired, and apply never does there', async () => {
    const s = store({ a: { size: 2, secret: 's3cret' } });
    const kept: string[] = [];
    const kind: ObjectKind<Want> = { ...s.kind, upkeep: async (w) => void kept.push(w.name) };
    expect(await ensure(kind, want)).toEqual({ object: 'thing a', result: 'in-place' });
    expect(kept).toEqual(['a']);
    await plan(kind, want);
    expect(kept).toEqual(['a']);
    expect(await ensure(kind, { ...want, size: 3 })).toMatchObject({ result: 'corrected' });
    expect(kept).toEqual(['a']);
  });

  it('what an apply learnt (held) is handed on, while the outcome stays what observe saw', async () => {
    const s = store();
    type Numbered = Observation & { id?: number };
    const kind: ObjectKind<Want, Numbered> = { ...s.kind, apply: async () => ({ held: { exists: true, drift: [], id: 7 } }) };
    const { outcome, held } = await converge(kind, want);
    expect(outcome).toEqual({ object: 'thing a', result: 'created' });
    expect(held.id).toBe(7);
    expect((await planned(kind, want)).held).toEqual({ exists: false, drift: [] });
  });

  it('fields only the apply could find are reported with the observed ones', async () => {
    const s = store({ a: { size: 1, secret: 's3cret' } });
    const kind: ObjectKind<Want> = { ...s.kind, apply: async () => ({ found: ['password'] }) };
    expect(await ensure(kind, want)).toEqual({ object: 'thing a', result: 'corrected', fields: ['size', 'password'] });
  });

  it('once reads a shared list once, on first use', async () => {
    let reads = 0;
    const read = once(async () => ++reads);
    expect(reads).toBe(0);
    expect([await read(), await read()]).toEqual([1, 1]);
  });
});
