import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type { Sealed } from '../core/sealed.js';

/**
 * Stored secrets are sealed with AES-256-GCM under a key id: `<key id>:<base64 iv|tag|ciphertext>`.
 * A value sealed under a key the service no longer holds (or tampered with) opens to undefined,
 * which the API reports as `secrets_stored: false`.
 */
export interface SealKeys {
  current: { id: string; key: Buffer };
  /** Earlier keys still accepted for reading. */
  previous?: { id: string; key: Buffer }[];
}

const keyObjects = new WeakMap<Buffer, KeyObject>();
/** The key as a key object, made once per key: given the raw bytes, Node builds one on every cipher, five times the cipher's own cost. */
function keyObject(key: Buffer): KeyObject {
  let made = keyObjects.get(key);
  if (!made) keyObjects.set(key, (made = createSecretKey(key)));
  return made;
}

export function seal(keys: SealKeys, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyObject(keys.current.key), iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${keys.current.id}:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
}

export function open(keys: SealKeys, sealed: string | null | undefined): string | undefined {
  if (!sealed) return undefined;
  const sep = sealed.indexOf(':');
  if (sep < 0) return undefined;
  const id = sealed.slice(0, sep);
  const key = [keys.current, ...(keys.previous ?? [])].find((k) => k.id === id)?.key;
  if (!key) return undefined;
  const raw = Buffer.from(sealed.slice(sep + 1), 'base64');
  if (raw.length < 28) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyObject(key), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * Whether a sealed value is under a key the service holds: what `secrets_stored` reports on every
 * read, without decrypting each secret (the key going away is how secrets become unreadable).
 */
export function canOpen(keys: SealKeys, sealed: string | null | undefined): boolean {
  if (!sealed) return false;
  const sep = sealed.indexOf(':');
  if (sep < 0 || sealed.length - sep - 1 < 40) return false;
  const id = sealed.slice(0, sep);
  return keys.current.id === id || (keys.previous ?? []).some((k) => k.id === id);
}

/** A JSON value sealed for a trip through Temporal (core/sealed.ts). */
export function sealValue<T>(keys: SealKeys, value: T): Sealed<T> {
  return seal(keys, JSON.stringify(value)) as Sealed<T>;
}

/** Opens what sealValue sealed; undefined when absent or not openable with these keys. */
export function openValue<T>(keys: SealKeys, sealed: Sealed<T> | undefined): T | undefined {
  const text = open(keys, sealed);
  return text === undefined ? undefined : (JSON.parse(text) as T);
}
