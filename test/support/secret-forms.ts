/**
 * Every form in which a secret can sit inside text: raw; base64 (standard and URL-safe alphabets)
 * at each of the three byte alignments, since a secret embedded after 1 or 2 other bytes encodes
 * to different characters than one that starts a base64 string; hex (both cases); URL-encoded.
 * For an alignment, only the characters that depend on the secret's bytes alone are kept: the
 * first quartet mixes in the bytes before it and the last partial one the bytes after it.
 */
export function secretForms(secret: string): { form: string; text: string }[] {
  const bytes = Buffer.from(secret);
  const out: { form: string; text: string }[] = [{ form: 'raw', text: secret }];
  for (const k of [0, 1, 2]) {
    const b64 = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const text = b64.slice(k === 0 ? 0 : 4, Math.floor((k + bytes.length) / 3) * 4);
    out.push({ form: `base64@${k}`, text });
    const url = text.replace(/\+/g, '-').replace(/\//g, '_');
    if (url !== text) out.push({ form: `base64url@${k}`, text: url });
  }
  out.push({ form: 'hex', text: bytes.toString('hex') }, { form: 'HEX', text: bytes.toString('hex').toUpperCase() });
  const uri = encodeURIComponent(secret);
  if (uri !== secret) out.push({ form: 'url-encoded', text: uri });
  return out;
}

/** Every secret (`name` → value) found in `haystack`, in the first form that matches. */
export function findSecrets(haystack: Buffer | string, what: string, secrets: Map<string, string>): string[] {
  const hits: string[] = [];
  for (const [name, s] of secrets) {
    const form = secretForms(s).find((f) => f.text.length >= 8 && haystack.includes(f.text));
    if (form) hits.push(form.form === 'raw' ? `${name} in ${what}` : `${name} (${form.form}) in ${what}`);
  }
  return hits;
}
