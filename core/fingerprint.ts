/** A certificate fingerprint in Node's form (`cert.fingerprint256`): uppercase hex pairs joined by colons. */
export const fingerprintForm = (fp: string): string =>
  fp
    .replace(/:/g, '')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1:');
