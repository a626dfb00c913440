import type { Payload, PayloadCodec } from '@temporalio/common';
import { METADATA_ENCODING_KEY } from '@temporalio/common';
import proto from '@temporalio/proto';
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

const { temporal } = proto;

const ENCODING = 'binary/encrypted';
const KEY_ID_KEY = 'encryption-key-id';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Encrypts every payload (inputs, results, update arguments, failure details) with AES-256-GCM
 * before it reaches Temporal, so history never holds a secret in clear. Given to client and
 * worker alike, and served to the Temporal UI through the API's codec endpoint.
 */
/** A payload sealed under another key than this codec's: the site's key changed since it was written. */
export class UndecodablePayload extends Error {
  constructor(keyId: string | undefined) {
    super(`a payload sealed under another key${keyId ? ` (key id ${keyId})` : ''} cannot be read with this one`);
    this.name = 'UndecodablePayload';
  }
}

export class AesGcmCodec implements PayloadCodec {
  /** Made once: given the raw bytes, Node builds a key object on every cipher, five times the cipher's own cost. */
  private readonly secret: KeyObject;

  constructor(
    key: Buffer,
    private readonly keyId = 'k1',
  ) {
    if (key.length !== 32) throw new Error('payload codec key must be 32 bytes');
    this.secret = createSecretKey(key);
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => {
      const plain = temporal.api.common.v1.Payload.encode(p).finish();
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', this.secret, iv);
      const ct = Buffer.concat([cipher.update(plain), cipher.final()]);
      return {
        metadata: { [METADATA_ENCODING_KEY]: encoder.encode(ENCODING), [KEY_ID_KEY]: encoder.encode(this.keyId) },
        data: Buffer.concat([iv, cipher.getAuthTag(), ct]),
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => {
      const encoding = p.metadata?.[METADATA_ENCODING_KEY];
      if (!encoding || decoder.decode(encoding) !== ENCODING || !p.data) return p;
      const raw = Buffer.from(p.data);
      const decipher = createDecipheriv('aes-256-gcm', this.secret, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      let plain: Buffer;
      try {
        plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
      } catch {
        const keyId = p.metadata?.[KEY_ID_KEY];
        throw new UndecodablePayload(keyId ? decoder.decode(keyId) : undefined);
      }
      return temporal.api.common.v1.Payload.decode(plain);
    });
  }
}
