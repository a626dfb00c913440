import type { Context } from 'hono';
import { Errors, xmlEscape, type ApiError } from './errors.js';
import { iso, NS, xml } from './s3-xml.js';

/**
 * ListObjectsV2: keys after `start-after` or the continuation token (the last key or rolled-up
 * prefix of the previous page, base64), at most `max-keys` (capped at 1000) entries counting each
 * common prefix once.
 */
export function listV2(
  c: Context,
  bucket: string,
  objects: Map<string, { body: Buffer; etag: string; lastModified: Date }>,
  query: URLSearchParams,
  prefix: string,
  err: (e: ApiError) => Response,
): Response {
  const delimiter = query.get('delimiter') ?? '';
  const maxKeysRaw = query.get('max-keys');
  const maxKeys = maxKeysRaw === null ? 1000 : Number(maxKeysRaw);
  if (!Number.isInteger(maxKeys) || maxKeys < 0) return err(Errors.InvalidMaxKeys);
  const token = query.get('continuation-token');
  const startAfter = query.get('start-after') ?? '';
  const after = token ? Buffer.from(token, 'base64').toString('utf8') : startAfter;

  const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
  const contents: string[] = [];
  const prefixes = new Set<string>();
  let count = 0;
  let last = '';
  let truncated = false;
  for (const k of keys) {
    if (count >= Math.min(maxKeys, 1000)) {
      truncated = true;
      break;
    }
    const rest = k.slice(prefix.length);
    const cut = delimiter ? rest.indexOf(delimiter) : -1;
    if (cut >= 0) {
      const p = prefix + rest.slice(0, cut + delimiter.length);
      if (prefixes.has(p)) continue;
      prefixes.add(p);
      // The next page starts after every key rolled up into this prefix.
      count++;
      last = p + '\uffff';
      continue;
    } else {
      const o = objects.get(k)!;
      contents.push(
        `<Contents><Key>${xmlEscape(k)}</Key><LastModified>${iso(o.lastModified)}</LastModified>` +
          `<ETag>&#34;${o.etag}&#34;</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
      );
    }
    count++;
    last = k;
  }
  const parts = [`<Name>${xmlEscape(bucket)}</Name>`, `<Prefix>${xmlEscape(prefix)}</Prefix>`];
  if (startAfter) parts.push(`<StartAfter>${xmlEscape(startAfter)}</StartAfter>`);
  if (token) parts.push(`<ContinuationToken>${xmlEscape(token)}</ContinuationToken>`);
  if (truncated) parts.push(`<NextContinuationToken>${Buffer.from(last).toString('base64')}</NextContinuationToken>`);
  parts.push(`<KeyCount>${count}</KeyCount>`, `<MaxKeys>${maxKeys}</MaxKeys>`);
  if (delimiter) parts.push(`<Delimiter>${xmlEscape(delimiter)}</Delimiter>`);
  parts.push(`<IsTruncated>${truncated}</IsTruncated>`, ...contents);
  for (const p of prefixes) parts.push(`<CommonPrefixes><Prefix>${xmlEscape(p)}</Prefix></CommonPrefixes>`);
  return xml(c, `<ListBucketResult xmlns="${NS}">${parts.join('')}</ListBucketResult>`);
}
