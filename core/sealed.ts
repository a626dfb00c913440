/**
 * A value sealed with the site's secrets key (db/seal.ts), as it crosses Temporal: workflow
 * inputs, results, markers and updates carry secrets only in this form, which the payload codec
 * cannot open, so nobody with codec access (the Temporal UI, the CLI) reads a secret in history.
 * Only the API and the activities hold the key.
 */
export type Sealed<T> = string & { readonly __sealedOf?: T };
