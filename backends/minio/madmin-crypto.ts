import * as nodeCrypto from 'node:crypto';
import { createCipheriv, createDecipheriv, pbkdf2, randomBytes } from 'node:crypto';
import { Mutex } from 'async-mutex';

/**
 * madmin's EncryptData / DecryptData (github.com/minio/madmin-go encrypt.go), which MinIO uses for
 * the bodies of add-user and the answer of list-users. The wire format is
 *
 *   salt (32) | AEAD id (1) | nonce (8) | sio stream (github.com/secure-io/sio-go)
 *
 * id 0x00 = Argon2id + AES-256-GCM, 0x01 = Argon2id + ChaCha20-Poly1305, 0x02 = PBKDF2-SHA256 +
 * AES-256-GCM (FIPS builds). Argon2id runs with madmin's fixed cost: 1 pass, 64 MiB, 4 lanes.
 *
 * The sio stream cuts the plaintext into 16 KiB fragments, each sealed with the 12-byte nonce
 * `nonce8 | u32le(sequence)`; the associated data of every fragment is a flag byte (0x00, or 0x80
 * for the final fragment) followed by the tag of sealing nothing under sequence 0 with the caller's
 * associated data (empty for madmin). The final fragment may be empty or a full 16 KiB one.
 */

export const MADMIN_ARGON2ID_AES_GCM = 0x00;
export const MADMIN_ARGON2ID_CHACHA20_POLY1305 = 0x01;
export const MADMIN_PBKDF2_AES_GCM = 0x02;

const SALT_LEN = 32;
const NONCE_LEN = 8;
const HEADER_LEN = SALT_LEN + 1 + NONCE_LEN;
const TAG_LEN = 16;
/** sio.BufSize: the fragment size a sio stream uses unless told otherwise. */
export const SIO_BUF_SIZE = 1 << 14;

const ARGON2ID = { passes: 1, memory: 64 * 1024, parallelism: 4, tagLength: 32 } as const;
const PBKDF2_COST = 8192;

export type SioAlgorithm = 'aes-128-gcm' | 'aes-256-gcm' | 'chacha20-poly1305';

export class MadminCryptoError extends Error {
  override readonly name = 'MadminCryptoError';
}

/** Whether `data` looks like EncryptData output (madmin's IsEncrypted). */
export function isEncrypted(data: Uint8Array): boolean {
  if (data.length <= SALT_LEN) return false;
  const id = data[SALT_LEN];
  return id === MADMIN_ARGON2ID_AES_GCM || id === MADMIN_ARGON2ID_CHACHA20_POLY1305 || id === MADMIN_PBKDF2_AES_GCM;
}

export interface EncryptOptions {
  /** madmin picks AES-GCM on CPUs with AES instructions, ChaCha20-Poly1305 otherwise. */
  algorithm?: 'aes-256-gcm' | 'chacha20-poly1305';
  /**
   * Key derivation: madmin's default Argon2id, or the PBKDF2-SHA256 form (id 0x02) madmin writes in
   * FIPS mode. The adapter sends Argon2id: MinIO's Python SDK verifies that form independently of
   * this file (test/integration/madmin-python.test.ts), and no implementation that runs here
   * verifies 0x02 (decisions.md).
   */
  kdf?: 'argon2id' | 'pbkdf2';
  /** Fixed salt / nonce, only so tests can reproduce a ciphertext byte for byte. */
  salt?: Uint8Array;
  nonce?: Uint8Array;
  /** An Argon2id key already derived from the password and its salt (`DerivedKeys`): no derivation. */
  derived?: DerivedKey;
}

export interface DerivedKey {
  salt: Buffer;
  key: Buffer;
}

/**
 * The sender's Argon2id key, derived once and used for a while. madmin derives a fresh one per
 * body (a random salt, 64 MiB and ~60 ms of a core each), but the format carries the salt, so any
 * salt decrypts the same at the server: a sender may keep one. Each body still gets its own random
 * 8-byte nonce, so a key seals at most `maxUses` bodies (nonce collisions stay near 2^-45) and
 * lives at most `maxAgeMs`; a password change derives anew. Half a create's worker CPU was this
 * derivation (docs/performance.md).
 */
export class DerivedKeys {
  private held?: DerivedKey & { password: string; uses: number; at: number };
  private pending?: Promise<DerivedKey>;

  constructor(
    private readonly maxUses = 1_000,
    private readonly maxAgeMs = 60 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  async of(password: string): Promise<DerivedKey> {
    const h = this.held;
    if (h && h.password === password && h.uses < this.maxUses && this.now() - h.at < this.maxAgeMs) {
      h.uses++;
      return { salt: h.salt, key: h.key };
    }
    // Callers arriving while it is derived share the one derivation.
    this.pending ??= (async () => {
      const salt = randomBytes(SALT_LEN);
      const key = await argon2idKey(password, salt);
      this.held = { password, salt, key, uses: 0, at: this.now() };
      return { salt, key };
    })().finally(() => {
      this.pending = undefined;
    });
    const k = await this.pending;
    if (this.held) this.held.uses++;
    return k;
  }
}

/** madmin.EncryptData(password, data). */
export async function encryptData(password: string, data: Uint8Array, opts: EncryptOptions = {}): Promise<Buffer> {
  const salt = Buffer.from(opts.salt ?? randomBytes(SALT_LEN));
  const nonce = Buffer.from(opts.nonce ?? randomBytes(NONCE_LEN));
  if (salt.length !== SALT_LEN || nonce.length !== NONCE_LEN) throw new MadminCryptoError('salt must be 32 bytes, nonce 8');
  if (opts.kdf === 'pbkdf2') {
    // The FIPS form pairs PBKDF2 with AES-GCM only.
    const key = await pbkdf2Key(password, salt);
    return Buffer.concat([salt, Buffer.from([MADMIN_PBKDF2_AES_GCM]), nonce, sioSeal('aes-256-gcm', key, nonce, data)]);
  }
  const algorithm = opts.algorithm ?? 'aes-256-gcm';
  const id = algorithm === 'aes-256-gcm' ? MADMIN_ARGON2ID_AES_GCM : MADMIN_ARGON2ID_CHACHA20_POLY1305;
  if (opts.derived) return Buffer.concat([opts.derived.salt, Buffer.from([id]), nonce, sioSeal(algorithm, opts.derived.key, nonce, data)]);
  const key = await argon2idKey(password, salt);
  return Buffer.concat([salt, Buffer.from([id]), nonce, sioSeal(algorithm, key, nonce, data)]);
}

/** How a reader gets the Argon2id key of a body's salt: `argon2idKey` derives it. */
export type Argon2idKeyOf = (password: string, salt: Uint8Array) => Promise<Buffer>;

/**
 * madmin.DecryptData(password, data); throws MadminCryptoError on a wrong password or tampering.
 * `keyOf`: where the Argon2id key of the body's salt comes from (a derivation by default).
 */
export async function decryptData(password: string, data: Uint8Array, keyOf: Argon2idKeyOf = argon2idKey): Promise<Buffer> {
  if (data.length < HEADER_LEN) throw new MadminCryptoError('unexpected header');
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const salt = buf.subarray(0, SALT_LEN);
  const id = buf[SALT_LEN];
  const nonce = buf.subarray(SALT_LEN + 1, HEADER_LEN);
  const body = buf.subarray(HEADER_LEN);
  switch (id) {
    case MADMIN_ARGON2ID_AES_GCM:
      return sioOpen('aes-256-gcm', await keyOf(password, salt), nonce, body);
    case MADMIN_ARGON2ID_CHACHA20_POLY1305:
      return sioOpen('chacha20-poly1305', await keyOf(password, salt), nonce, body);
    case MADMIN_PBKDF2_AES_GCM:
      return sioOpen('aes-256-gcm', await pbkdf2Key(password, salt), nonce, body);
    default:
      throw new MadminCryptoError('madmin: invalid encryption algorithm ID');
  }
}

/**
 * One derivation at a time per process, as madmin's own argon2Mu: each takes 64 MiB and ~60 ms of
 * one core, and running them side by side only multiplies the memory.
 */
const argon2Turns = new Mutex();

/** madmin's Argon2id key of a password and salt, one derivation at a time in this process. */
async function argon2idKey(password: string, salt: Uint8Array): Promise<Buffer> {
  return (await timedArgon2idKey(password, salt)).key;
}

/** `argon2idKey`, with how long the derivation itself took (its wait for the turn aside). */
export function timedArgon2idKey(password: string, salt: Uint8Array): Promise<{ key: Buffer; ms: number }> {
  // Read off the namespace, not imported by name: Node < 24.7 has no argon2, and a named import
  // would fail the whole program at link time, before apps/node-version.ts can say why.
  const derive = () => {
    const started = performance.now();
    return new Promise<{ key: Buffer; ms: number }>((resolve, reject) =>
      nodeCrypto.argon2('argon2id', { message: Buffer.from(password, 'utf8'), nonce: salt, ...ARGON2ID }, (err, key) =>
        err ? reject(err) : resolve({ key, ms: performance.now() - started }),
      ),
    );
  };
  return argon2Turns.runExclusive(derive);
}

/** Holds the process's derivation turn for `ms`, as a derivation of that length would: no derivation runs meanwhile. */
export function argon2idTurn(ms: number): Promise<void> {
  return argon2Turns.runExclusive(() => new Promise<void>((r) => setTimeout(r, ms)));
}

function pbkdf2Key(password: string, salt: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    pbkdf2(Buffer.from(password, 'utf8'), salt, PBKDF2_COST, 32, 'sha256', (err, key) => (err ? reject(err) : resolve(key))),
  );
}

function fragmentNonce(nonce: Uint8Array, seq: number): Buffer {
  const n = Buffer.alloc(nonce.length + 4);
  n.set(nonce, 0);
  n.writeUInt32LE(seq, nonce.length);
  return n;
}

function seal(alg: SioAlgorithm, key: Uint8Array, iv: Uint8Array, plaintext: Uint8Array, ad: Uint8Array): Buffer {
  const opts = { authTagLength: TAG_LEN };
  const c = alg === 'chacha20-poly1305' ? createCipheriv(alg, key, iv, opts) : createCipheriv(alg, key, iv, opts);
  c.setAAD(ad, { plaintextLength: plaintext.length });
  return Buffer.concat([c.update(plaintext), c.final(), c.getAuthTag()]);
}

function open(alg: SioAlgorithm, key: Uint8Array, iv: Uint8Array, sealed: Uint8Array, ad: Uint8Array): Buffer {
  if (sealed.length < TAG_LEN) throw new MadminCryptoError('sio: data is not authentic');
  const opts = { authTagLength: TAG_LEN };
  const d = alg === 'chacha20-poly1305' ? createDecipheriv(alg, key, iv, opts) : createDecipheriv(alg, key, iv, opts);
  d.setAAD(ad, { plaintextLength: sealed.length - TAG_LEN });
  d.setAuthTag(sealed.subarray(sealed.length - TAG_LEN));
  try {
    return Buffer.concat([d.update(sealed.subarray(0, sealed.length - TAG_LEN)), d.final()]);
  } catch {
    throw new MadminCryptoError('sio: data is not authentic');
  }
}

/** The per-fragment associated data: flag byte, then the tag of an empty seal under sequence 0. */
function streamAssociatedData(alg: SioAlgorithm, key: Uint8Array, nonce: Uint8Array, ad: Uint8Array): Buffer {
  const tag = seal(alg, key, fragmentNonce(nonce, 0), new Uint8Array(0), ad);
  return Buffer.concat([Buffer.from([0x00]), tag]);
}

/** `data`: the plaintext to seal, or the ciphertext to open. */
type SioCall = [alg: SioAlgorithm, key: Uint8Array, nonce: Uint8Array, data: Uint8Array, associatedData?: Uint8Array, bufSize?: number];

/** sio Stream.EncryptWriter over the whole of the plaintext (then Close). */
export function sioSeal(...[alg, key, nonce, data, associatedData = new Uint8Array(0), bufSize = SIO_BUF_SIZE]: SioCall): Buffer {
  return sioStream(seal, alg, key, nonce, data, streamAssociatedData(alg, key, nonce, associatedData), bufSize);
}

/** sio Stream.DecryptReader over the whole of the ciphertext: each fragment carries its tag. */
export function sioOpen(...[alg, key, nonce, data, associatedData = new Uint8Array(0), bufSize = SIO_BUF_SIZE]: SioCall): Buffer {
  return sioStream(open, alg, key, nonce, data, streamAssociatedData(alg, key, nonce, associatedData), bufSize + TAG_LEN);
}

/** One pass of sio's stream: fragments of `fragment` bytes, numbered from 1, the last flagged in `ad`. */
function sioStream(op: typeof seal, alg: SioAlgorithm, key: Uint8Array, nonce: Uint8Array, input: Uint8Array, ad: Buffer, fragment: number): Buffer {
  const out: Buffer[] = [];
  let seq = 1;
  let off = 0;
  // Fragments strictly longer than what remains stay for the final one, as EncWriter buffers them.
  while (input.length - off > fragment) {
    out.push(op(alg, key, fragmentNonce(nonce, seq++), input.subarray(off, off + fragment), ad));
    off += fragment;
  }
  ad[0] = 0x80;
  out.push(op(alg, key, fragmentNonce(nonce, seq), input.subarray(off), ad));
  return Buffer.concat(out);
}
