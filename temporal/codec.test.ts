import type { Payload } from '@temporalio/common';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AesGcmCodec } from './codec.js';

const text = (s: string) => new TextEncoder().encode(s);
const payload = (encoding: string, data?: string): Payload => ({ metadata: { encoding: text(encoding) }, ...(data === undefined ? {} : { data: text(data) }) });
const shown = (ps: Payload[]) =>
  ps.map((p) => ({
    metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString()])),
    // Protobuf has no absent bytes: a payload without data comes back with empty data.
    data: Buffer.from(p.data ?? new Uint8Array()).toString(),
  }));

/**
 * What a run's history and a codec request hold: several payloads at once, of mixed encodings (a
 * workflow's arguments, an activity's results, a failure's details), some encrypted and some not
 * (a search attribute, a payload written before the codec). Each is coded at its own position.
 */
const MIXED = [
  payload('json/plain', '{"name":"acme","cores":2}'),
  payload('binary/null'),
  payload('json/plain', '"second"'),
  payload('binary/plain', '\u0000\u00ff raw bytes'),
  payload('json/protobuf', '{"seconds":"5"}'),
];

describe('the payload codec', () => {
  const codec = new AesGcmCodec(randomBytes(32));

  it('encrypts every payload of a request, each on its own, and decodes each back at its place', async () => {
    const encoded = await codec.encode(MIXED);
    expect(encoded).toHaveLength(MIXED.length);
    for (const p of encoded) expect(Buffer.from(p.metadata!.encoding!).toString()).toBe('binary/encrypted');
    // Equal payloads are not equal ciphertexts (one IV each): nothing of them shows across a history.
    const twice = await codec.encode([MIXED[2]!, MIXED[2]!]);
    expect(Buffer.from(twice[0]!.data!).equals(Buffer.from(twice[1]!.data!))).toBe(false);
    expect(shown(await codec.decode(encoded))).toEqual(shown(MIXED));
  });

  it('decodes a mix of encrypted payloads and payloads it did not encode, in order, passing the latter as they are', async () => {
    const [a, b, c] = await codec.encode([MIXED[0]!, MIXED[2]!, MIXED[4]!]);
    const mixed = [MIXED[1]!, a!, MIXED[3]!, b!, c!, MIXED[0]!];
    expect(shown(await codec.decode(mixed))).toEqual(shown([MIXED[1]!, MIXED[0]!, MIXED[3]!, MIXED[2]!, MIXED[4]!, MIXED[0]!]));
  });

  it('answers an empty request with no payloads, and refuses a payload another key encrypted', async () => {
    expect(await codec.decode([])).toEqual([]);
    expect(await codec.encode([])).toEqual([]);
    const [foreign] = await new AesGcmCodec(randomBytes(32)).encode([MIXED[0]!]);
    await expect(codec.decode([MIXED[0]!, foreign!])).rejects.toThrow();
  });
});
