import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCodecProxy } from '../../apps/lab/codec-proxy.js';

/**
 * The lab's codec proxy adds a token (the codec token; once the operator's) to what the Temporal UI sends, so it must forward
 * exactly POST /encode and POST /decode to the API's /codec/* and nothing else (issue 16 item 5:
 * `POST /../v1/tenants/<t>/reconcile` sent with curl --path-as-is reached the API as the operator
 * and answered the tenant's log tokens and dashboard password). The upstream here records every
 * request that reaches it, with the token it carried.
 */
let upstream: Server;
let proxy: { url: string; close(): Promise<void> };
let proxyPort: number;
const reached: { method: string; url: string; auth: string | undefined }[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    reached.push({ method: req.method!, url: req.url!, auth: req.headers.authorization });
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"payloads":[]}'));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  const apiUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  proxy = await startCodecProxy({ apiUrl, token: 'codec-token-0123456789', uiOrigin: 'http://127.0.0.1:8233' });
  proxyPort = Number(new URL(proxy.url).port);
});
afterAll(async () => {
  await proxy?.close();
  await new Promise<void>((r) => upstream?.close(() => r()));
});

/**
 * A request sent byte for byte (like curl --path-as-is): no client normalises the path. What
 * reached the API before it is forgotten, so `reached` holds what this request made.
 */
function raw(method: string, path: string): Promise<{ status: number; body: string }> {
  reached.length = 0;
  return new Promise((resolve, reject) => {
    const body = '{"payloads":[]}';
    const socket = connect({ host: '127.0.0.1', port: proxyPort }, () =>
      socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      ),
    );
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(received.split(' ')[1]), body: received.slice(received.indexOf('\r\n\r\n') + 4) }));
  });
}

describe('the codec proxy forwards the codec routes and nothing else', () => {
  it.each([
    ['POST', '/encode', '/codec/encode'],
    ['POST', '/decode', '/codec/decode'],
    // What the Temporal UI 2.54 sends; the query stays behind (the API has no storage references).
    ['POST', '/decode?preserveStorageRefs=true', '/codec/decode'],
    ['POST', '/encode?x=/../v1/tenants', '/codec/encode'],
  ])('%s %s reaches %s with its token', async (method, path, want) => {
    const r = await raw(method, path);
    expect(r.status).toBe(200);
    expect(reached).toEqual([{ method: 'POST', url: want, auth: 'Bearer codec-token-0123456789' }]);
  });

  it.each([
    ['a dot segment to a tenant reconcile', 'POST', '/../v1/tenants/acme/reconcile'],
    ['a dot segment after encode', 'POST', '/encode/../../v1/tenants/acme/reconcile'],
    ['an encoded dot segment', 'POST', '/%2e%2e/v1/admissions'],
    ['a Wi-Fi key path', 'POST', '/../v1/tenants/acme/wifi-keys'],
    ['an admission', 'POST', '/../v1/admissions'],
    ['a longer path under encode', 'POST', '/encode/x'],
    ['a query string on another path', 'POST', '/v1/tenants?x=/decode'],
    ['a query string after a dot segment', 'POST', '/decode/../v1/admissions?preserveStorageRefs=true'],
    ['an encoded query mark', 'POST', '/decode%3FpreserveStorageRefs=true'],
    ['an encoded slash', 'POST', '/%2Fdecode'],
    ['a double slash with a query', 'POST', '//decode?preserveStorageRefs=true'],
    ['a double slash', 'POST', '//decode'],
    ['an absolute-form target', 'POST', 'http://127.0.0.1/../v1/tenants'],
    ['another method', 'GET', '/decode'],
    ['the API root', 'POST', '/'],
  ])('%s (%s %s) is refused with 404 and reaches nothing', async (_case, method, path) => {
    const r = await raw(method, path);
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body)).toHaveProperty('error');
    expect(reached).toEqual([]);
  });
});

describe('a body past the API bound (64 KB) is refused by the proxy before it is read (issue 45 item 6)', () => {
  /** A POST of `size` bytes of JSON-looking data, declared with Content-Length or sent chunked. */
  function big(size: number, chunked: boolean): Promise<{ status: number; body: string; sent: number }> {
    return new Promise((resolve, reject) => {
      let sent = 0;
      const socket = connect({ host: '127.0.0.1', port: proxyPort }, () => {
        const head = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`;
        socket.write(`POST /decode HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${head}\r\n\r\n`);
        const piece = Buffer.alloc(16 * 1024, 0x61);
        const more = () => {
          while (sent < size && !socket.destroyed) {
            const n = Math.min(piece.length, size - sent);
            sent += n;
            const data = chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), piece.subarray(0, n), Buffer.from('\r\n')]) : piece.subarray(0, n);
            if (!socket.write(data)) return void socket.once('drain', more);
          }
        };
        more();
      });
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve({ status: Number(received.split(' ')[1]), body: received.slice(received.indexOf('\r\n\r\n') + 4), sent }));
      setTimeout(() => reject(new Error('no answer in 10 s')), 10_000).unref();
    });
  }

  it.each([
    ['declared by Content-Length (refused at the header)', false],
    ['sent chunked (refused at the 64 KB the stream passed)', true],
  ])('%s: 413, nothing reaches the API, and the proxy stopped reading far short of 20 MB', async (_how, chunked) => {
    reached.length = 0;
    const r = await big(20 * 1024 * 1024, chunked);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toEqual({ error: 'request body larger than 64 KB' });
    expect(reached).toEqual([]);
    expect(r.sent).toBeLessThan(20 * 1024 * 1024);
  });
});
