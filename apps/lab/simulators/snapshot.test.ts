import { describe, expect, it } from 'vitest';
import { assignFields, decodeSnapshot, encodeSnapshot } from './snapshot.js';

describe('assignFields: a snapshot loaded into a live simulator state', () => {
  const rows = [
    { what: 'a Map', live: () => new Map([[1, 'old']]), saved: new Map([[2, 'org two']]), read: (m: Map<number, string>) => [...m] },
    { what: 'a Set', live: () => new Set(['old']), saved: new Set(['a', 'b']), read: (s: Set<string>) => [...s] },
    { what: 'an array', live: () => ['old'], saved: ['x', 'y'], read: (a: string[]) => [...a] },
  ] as const;
  for (const row of rows) {
    it(`refills ${row.what} in place, so a route holding it sees the saved entries`, () => {
      const collection = row.live();
      const state = { items: collection as unknown };
      // Through the file, as a restart reads it.
      assignFields(state, decodeSnapshot(encodeSnapshot({ items: row.saved })));
      expect(state.items).toBe(collection);
      expect((row.read as (x: unknown) => unknown)(collection)).toEqual((row.read as (x: unknown) => unknown)(row.saved));
    });
  }

  it('refills an array longer than a call takes arguments', () => {
    const held: number[] = [];
    const saved = Array.from({ length: 300_000 }, (_, i) => i);
    const state = { lines: held };
    assignFields(state, { lines: saved });
    expect(state.lines).toBe(held);
    expect(held.length).toBe(300_000);
    expect(held[299_999]).toBe(299_999);
  });

  it('replaces plain values, and leaves the fields named in except', () => {
    const state = { nextId: 1, apiKey: 'k1', calls: [1, 2] };
    assignFields(state, { nextId: 7, apiKey: 'k2', calls: [] }, ['calls']);
    expect(state).toEqual({ nextId: 7, apiKey: 'k2', calls: [1, 2] });
  });
});
