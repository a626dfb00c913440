import { createPublicKey } from 'node:crypto';

/**
 * What a workload's SSH public key may be: one OpenSSH `authorized_keys` line, `<type> <base64 key
 * data> [comment]`, whose key data is a key of that type as OpenSSH reads it (RFC 4253 §6.6, RFC
 * 5656 §3.1, RFC 8709 §4, OpenSSH's PROTOCOL.u2f). Proxmox VE checks each key of a VM's `sshkeys`
 * with `ssh-keygen -l` (pve-common `validate_ssh_public_keys`) and refuses the whole config write
 * otherwise; as the keys are written at first boot only, a key PVE refuses would fail the workload's
 * hypervisor step on every repeat, so the API refuses it first. `core/names/ssh-key.test.ts` holds
 * each verdict against `ssh-keygen -l` itself. Hand-written (no SSH key library is a dependency): the
 * format is a few length-prefixed fields per key type, and what matters is agreeing with `ssh-keygen`
 * row by row (the RSA minimum, the point on its curve, no trailing bytes), which the test holds.
 */
export function sshKeyProblem(line: string): string | undefined {
  const m = /^(\S+) ([A-Za-z0-9+/]+={0,2})(?: [^\r\n]*)?$/.exec(line);
  if (!m) return 'must be an OpenSSH public key on one line: <type> <base64 key data> [comment]';
  const [, type, data] = m as unknown as [string, string, string];
  const read = READERS[type];
  if (!read) return `key type ${JSON.stringify(type.slice(0, 40))} is not one OpenSSH reads (${Object.keys(READERS).join(', ')})`;
  if (data.length % 4 === 1) return 'key data is not base64';
  const blob = new Blob(Buffer.from(data, 'base64'));
  try {
    const inner = blob.text();
    if (inner !== type) return `key data is a key of type ${JSON.stringify(inner.slice(0, 40))}, not ${type}`;
    const problem = read(blob);
    if (problem) return problem;
    if (blob.left() > 0) return `key data has ${blob.left()} bytes after the key`;
    return undefined;
  } catch (err) {
    if (err instanceof Truncated) return `key data ends inside the ${type} key`;
    throw err;
  }
}

/** What each key type's data holds after its name; a problem, or undefined. */
const READERS: Record<string, (b: Blob) => string | undefined> = {
  'ssh-ed25519': (b) => ed25519(b),
  'ssh-rsa': (b) => rsa(b),
  'ssh-dss': (b) => {
    const [p] = [b.mpint(), b.mpint(), b.mpint(), b.mpint()];
    return bits(p) > 10_000 ? `a DSA key of ${bits(p)} bits; OpenSSH reads at most 10000` : undefined;
  },
  'ecdsa-sha2-nistp256': (b) => ecdsa(b, 'nistp256'),
  'ecdsa-sha2-nistp384': (b) => ecdsa(b, 'nistp384'),
  'ecdsa-sha2-nistp521': (b) => ecdsa(b, 'nistp521'),
  'sk-ssh-ed25519@openssh.com': (b) => ed25519(b) ?? application(b),
  'sk-ecdsa-sha2-nistp256@openssh.com': (b) => ecdsa(b, 'nistp256') ?? application(b),
};

function ed25519(b: Blob): string | undefined {
  const key = b.bytes();
  return key.length === 32 ? undefined : `an Ed25519 key is 32 bytes, not ${key.length}`;
}

/** OpenSSH refuses RSA moduli under 1024 bits (SSH_RSA_MINIMUM_MODULUS_SIZE) and over 16384 (SSHBUF_MAX_BIGNUM). */
function rsa(b: Blob): string | undefined {
  b.mpint();
  const n = b.mpint();
  if (bits(n) < 1024) return `an RSA key of ${bits(n)} bits; at least 1024`;
  if (bits(n) > 16_384) return `an RSA key of ${bits(n)} bits; at most 16384`;
  return undefined;
}

const CURVES = { nistp256: ['P-256', 32], nistp384: ['P-384', 48], nistp521: ['P-521', 66] } as const;

function ecdsa(b: Blob, curve: keyof typeof CURVES): string | undefined {
  const named = b.text();
  if (named !== curve) return `an ECDSA key on ${JSON.stringify(named.slice(0, 40))}, not ${curve}`;
  const q = b.bytes();
  const [crv, size] = CURVES[curve];
  if (q.length !== 1 + 2 * size || q[0] !== 4) return `an ECDSA ${curve} key's point is ${1 + 2 * size} bytes, uncompressed (0x04 first)`;
  const coordinate = (from: number) => Buffer.from(q.subarray(from, from + size)).toString('base64url');
  try {
    // OpenSSL sets the point only if it lies on the curve, as OpenSSH's sshkey_ec_validate_public asks.
    createPublicKey({ key: { kty: 'EC', crv, x: coordinate(1), y: coordinate(1 + size) }, format: 'jwk' });
  } catch {
    return `an ECDSA ${curve} key whose point is not on the curve`;
  }
  return undefined;
}

/** A security key's application string (PROTOCOL.u2f): any bytes, but present. */
function application(b: Blob): string | undefined {
  b.bytes();
  return undefined;
}

/** Significant bits of an unsigned big-endian integer. */
function bits(n: Uint8Array): number {
  let i = 0;
  while (i < n.length && n[i] === 0) i++;
  if (i === n.length) return 0;
  return (n.length - i - 1) * 8 + (32 - Math.clz32(n[i]!));
}

class Truncated extends Error {}

/** SSH wire-format reader (RFC 4251 §5): uint32-length-prefixed strings and mpints. */
class Blob {
  private at = 0;
  constructor(private readonly buf: Buffer) {}
  left(): number {
    return this.buf.length - this.at;
  }
  bytes(): Uint8Array {
    if (this.left() < 4) throw new Truncated();
    const length = this.buf.readUInt32BE(this.at);
    if (this.left() - 4 < length) throw new Truncated();
    const out = this.buf.subarray(this.at + 4, this.at + 4 + length);
    this.at += 4 + length;
    return out;
  }
  text(): string {
    return Buffer.from(this.bytes()).toString('latin1');
  }
  /** An mpint as its magnitude; a negative one (its top bit set) reads as zero bits of key. */
  mpint(): Uint8Array {
    const v = this.bytes();
    return v.length > 0 && (v[0]! & 0x80) !== 0 ? new Uint8Array() : v;
  }
}
