import { createHash, randomInt } from 'node:crypto';

/**
 * WPA2/WPA3-personal passphrases: 8..63 printable ASCII characters (IEEE 802.11 Annex M; 64
 * characters would be read as a raw hex PSK). The service generates its own from an alphabet
 * without look-alikes (0/O, 1/l/I), because people type these onto devices by hand.
 */
export const PSK_MIN = 8;
export const PSK_MAX = 63;
export const PSK_LENGTH = 24;
export const PSK_ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

const PRINTABLE = /^[\x20-\x7e]*$/;

/** Why a psk the tenant supplies is refused, or undefined when it is acceptable. */
export function pskProblem(psk: string): string | undefined {
  if (psk.length < PSK_MIN || psk.length > PSK_MAX) return `psk must be ${PSK_MIN} to ${PSK_MAX} characters`;
  if (!PRINTABLE.test(psk)) return 'psk must be printable ASCII';
  if (isPlaceholderPassword(psk)) return 'psk uses a reserved form';
  return undefined;
}

export function generatePsk(length = PSK_LENGTH): string {
  let out = '';
  for (let i = 0; i < length; i++) out += PSK_ALPHABET[randomInt(PSK_ALPHABET.length)];
  return out;
}

/**
 * The entry left in a WLAN whose last key was revoked (the controller refuses an enabled,
 * empty PPSK list). Its password is random and held by nobody, so nothing can associate
 * with it; the fixed prefix lets the adapter recognise and drop it when a real key returns.
 * The prefix uses `~`, which generated keys never contain, and pskProblem refuses it for
 * supplied keys, so a tenant's key is never mistaken for a placeholder.
 */
export const PLACEHOLDER_PREFIX = '~revoked~';

export function placeholderPassword(): string {
  return PLACEHOLDER_PREFIX + generatePsk(PSK_MAX - PLACEHOLDER_PREFIX.length);
}

export function isPlaceholderPassword(password: string): boolean {
  return password.startsWith(PLACEHOLDER_PREFIX);
}

/**
 * How the service recognises its own entry in a WLAN's PPSK list, which has no name field:
 * a SHA-256 of the key's id and its password. The service stores it beside the encrypted
 * psk, unencrypted, so it can still find (and revoke) the entry after losing the key that
 * decrypts the psk. Salting with the key id keeps equal fingerprints from meaning equal
 * passwords across keys.
 */
export function pskFingerprint(keyId: string, psk: string): string {
  return createHash('sha256').update(`ppsk-v1\0${keyId}\0${psk}`).digest('hex');
}
