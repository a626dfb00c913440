/**
 * Issuance rule 6: the same key and the same names with more than sixty days left give back the
 * current certificate (200); a new key, a changed name, or sixty days or less left issue a new
 * one (201). Nothing renews unasked, so this is only asked on a PUT. Pure.
 */

export const REUSE_MIN_REMAINING_MS = 60 * 24 * 60 * 60 * 1000;

export interface CertificateIdentity {
  publicKeyFingerprint: string;
  /** The certificate's DNS names (order does not matter). */
  sans: readonly string[];
}

export function reusable(current: CertificateIdentity & { notAfter: Date }, requested: CertificateIdentity, now: Date): boolean {
  if (current.publicKeyFingerprint !== requested.publicKeyFingerprint) return false;
  const a = new Set(current.sans);
  const b = new Set(requested.sans);
  if (a.size !== b.size || [...a].some((n) => !b.has(n))) return false;
  return current.notAfter.getTime() - now.getTime() > REUSE_MIN_REMAINING_MS;
}
