/**
 * A minimal DER reader that hands out exact byte slices. Signatures cover the bytes as sent, so
 * the signed part of a request and the key inside it are taken verbatim rather than re-encoded.
 * Only what X.509 and PKCS#10 use: low tag numbers, definite lengths.
 */

export interface Tlv {
  tag: number;
  /** Offset of the tag byte. */
  start: number;
  /** Offset of the first content byte. */
  contentStart: number;
  /** Offset just past the content. */
  end: number;
}

export class DerError extends Error {
  override readonly name = 'DerError';
}

export function readTlv(buf: Uint8Array, offset: number, limit = buf.length): Tlv {
  if (offset + 2 > limit) throw new DerError('truncated element');
  const tag = buf[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError('high tag numbers are not used here');
  const first = buf[offset + 1]!;
  let length: number;
  let contentStart: number;
  if (first < 0x80) {
    length = first;
    contentStart = offset + 2;
  } else {
    const n = first & 0x7f;
    if (n === 0) throw new DerError('indefinite length is not DER');
    if (n > 4) throw new DerError('length too large');
    if (offset + 2 + n > limit) throw new DerError('truncated length');
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + buf[offset + 2 + i]!;
    if (length < 0x80 || buf[offset + 2] === 0) throw new DerError('length not minimally encoded');
    contentStart = offset + 2 + n;
  }
  const end = contentStart + length;
  if (end > limit) throw new DerError('element runs past its container');
  return { tag, start: offset, contentStart, end };
}

/** The elements inside a constructed element, which must fill it exactly. */
export function children(buf: Uint8Array, parent: Tlv): Tlv[] {
  if ((parent.tag & 0x20) === 0) throw new DerError('not a constructed element');
  const out: Tlv[] = [];
  let at = parent.contentStart;
  while (at < parent.end) {
    const t = readTlv(buf, at, parent.end);
    out.push(t);
    at = t.end;
  }
  return out;
}

/** Parse a whole buffer as exactly one element. */
export function readRoot(buf: Uint8Array): Tlv {
  const t = readTlv(buf, 0);
  if (t.end !== buf.length) throw new DerError('trailing bytes after the element');
  return t;
}

export const rawOf = (buf: Buffer, t: Tlv): Buffer => buf.subarray(t.start, t.end);
export const contentOf = (buf: Buffer, t: Tlv): Buffer => buf.subarray(t.contentStart, t.end);

export function decodeOid(content: Uint8Array): string {
  if (content.length === 0) throw new DerError('empty OID');
  const parts: number[] = [];
  let value = 0;
  for (const byte of content) {
    value = value * 128 + (byte & 0x7f);
    if (value > Number.MAX_SAFE_INTEGER / 128) throw new DerError('OID arc too large');
    if ((byte & 0x80) === 0) {
      parts.push(value);
      value = 0;
    }
  }
  if ((content[content.length - 1]! & 0x80) !== 0) throw new DerError('truncated OID');
  const first = parts.shift()!;
  const head = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80];
  return [...head, ...parts].join('.');
}

export const TAG = {
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  OID: 0x06,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

// ---- writing ----

function encodeLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, ...content: Uint8Array[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), encodeLength(body.length), body]);
}

export const seq = (...items: Uint8Array[]) => tlv(TAG.SEQUENCE, ...items);
export const set = (...items: Uint8Array[]) => tlv(TAG.SET, ...items);
export const octets = (b: Uint8Array) => tlv(TAG.OCTET_STRING, b);
export const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
export const nullValue = () => tlv(0x05);
export const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
export const ia5Implicit = (tagNumber: number, s: string) => tlv(0x80 | tagNumber, Buffer.from(s, 'ascii'));
/** [n] EXPLICIT, around one element. */
export const explicit = (tagNumber: number, inner: Uint8Array) => tlv(0xa0 | tagNumber, inner);
export const bitString = (bytes: Uint8Array, unusedBits = 0) => tlv(TAG.BIT_STRING, Buffer.from([unusedBits]), bytes);

/** A non-negative INTEGER from big-endian magnitude bytes. */
export function unsignedInteger(magnitude: Uint8Array): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = Buffer.from(magnitude.subarray(start));
  return tlv(TAG.INTEGER, trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

export function smallInteger(n: number): Buffer {
  const bytes: number[] = [];
  let v = n;
  do {
    bytes.unshift(v & 0xff);
    v = Math.floor(v / 256);
  } while (v > 0);
  return unsignedInteger(Buffer.from(bytes.length ? bytes : [0]));
}

export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  if (arcs.length < 2 || arcs.some((a) => !Number.isSafeInteger(a) || a < 0)) throw new DerError(`bad OID ${dotted}`);
  const out: number[] = [];
  const push = (v: number) => {
    const chunk: number[] = [v & 0x7f];
    for (let x = Math.floor(v / 128); x > 0; x = Math.floor(x / 128)) chunk.unshift(0x80 | (x & 0x7f));
    out.push(...chunk);
  };
  push(arcs[0]! * 40 + arcs[1]!);
  for (const a of arcs.slice(2)) push(a);
  return tlv(TAG.OID, Buffer.from(out));
}

/** RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050; seconds, Zulu. */
export function time(d: Date): Buffer {
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '');
  const year = d.getUTCFullYear();
  return year < 2050 ? tlv(0x17, Buffer.from(digits.slice(2) + 'Z')) : tlv(0x18, Buffer.from(digits + 'Z'));
}
