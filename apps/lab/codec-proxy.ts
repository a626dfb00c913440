import { createServer, type Server } from 'node:http';
import { MAX_BODY_BYTES } from '../api/middleware/body-limit.js';

/**
 * The Temporal UI calls its codec endpoint from the browser with no token of ours (it can pass only
 * its own login's access token). In the lab (loopback only) this proxy adds the decode-only codec
 * token and forwards to the API's `/codec/*`, answering the browser's CORS preflight for the UI's
 * origin. docs/production.md says how a site does the same.
 *
 * The proxy holds a token, so it forwards exactly the two codec routes and nothing else: the
 * upstream URL is chosen from a fixed table, never built from the request's path (a path like
 * `/../v1/tenants/<t>/reconcile` once reached the API with the operator's token). The codec token
 * is refused on /v1 anyway; the table keeps the proxy safe whatever token it is given.
 */
const CODEC_PATHS: Record<string, string> = { '/encode': '/codec/encode', '/decode': '/codec/decode' };

/**
 * The API path a request to the proxy may reach, or undefined: exact paths only, no dot segments.
 * A query string is allowed and dropped: the UI (2.54) posts to `/decode?preserveStorageRefs=true`,
 * which asks a codec server with external payload storage to leave storage references unfetched;
 * the API keeps no payload outside history, so the parameter means nothing to it. Dropping every
 * parameter keeps the upstream URL a constant of the table above: nothing the browser sends ever
 * becomes part of a request the proxy makes with its token.
 */
export function codecTarget(method: string | undefined, rawUrl: string | undefined): string | undefined {
  if (method !== 'POST' || rawUrl === undefined) return undefined;
  const q = rawUrl.indexOf('?');
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  return Object.hasOwn(CODEC_PATHS, path) ? CODEC_PATHS[path] : undefined;
}

/**
 * `apiUrl`, `token` and `uiOrigin` may be promises: the lab starts the proxy first, on a port of its
 * own, because the Temporal UI is told the codec endpoint when it starts, before the API is up and
 * before the UI's own port is known (a port picked early and bound late was a port another process
 * could take in between).
 */
export async function startCodecProxy(opts: {
  port?: number;
  apiUrl: string | Promise<string>;
  token: string | Promise<string>;
  uiOrigin: string | Promise<string>;
}): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', await opts.uiOrigin);
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Namespace, Authorization');
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const target = codecTarget(req.method, req.url);
    if (!target) {
      req.resume();
      const body = '{"error":"only POST /encode and POST /decode are forwarded"}';
      res.writeHead(404, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
      return;
    }
    // Bounded before it is read, at the API's own bound: a body past it is refused here, not
    // buffered whole for the API to refuse (a 300 MB POST once took the lab from 0.8 to 2 GB).
    const tooLarge = () => {
      const body = JSON.stringify({ error: `request body larger than ${MAX_BODY_BYTES / 1024} KB` });
      res.writeHead(413, { 'content-type': 'application/json', 'content-length': body.length, connection: 'close' }).end(body);
      req.destroy();
    };
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) return tooLarge();
      chunks.push(c);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return;
      Promise.all([opts.apiUrl, opts.token])
        .then(([apiUrl, token]) =>
          fetch(`${apiUrl}${target}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: Buffer.concat(chunks),
          }),
        )
        .then(async (r) => {
          res.writeHead(r.status, { 'content-type': 'application/json' }).end(await r.text());
        })
        .catch(() => res.writeHead(502).end('{"error":"codec endpoint unreachable"}'));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
