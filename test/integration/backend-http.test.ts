import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { BackendError } from '../../core/backend-outcome.js';
import { failureOf } from '../support/backend-error.js';
import { BackendHttp } from '../../backends/http/client.js';
import { createPrivateCa } from '../support/private-ca.js';

/**
 * The transport every backend adapter shares (backends/http/client.ts, undici underneath), against raw
 * TCP servers that misbehave the way real backends do: one that never answers, one that stops in
 * the middle of its body, one that closes a kept connection just as a request arrives on it.
 */
const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  // The client keeps its connections: end them, or close() waits out its keep-alive.
  for (const s of sockets) s.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A server that reads requests off each connection and lets `onRequest` answer (or not). */
async function rawServer(
  onRequest: (socket: Socket, nth: { onConnection: number; overall: number }) => void,
): Promise<{ url: string; requests: () => number }> {
  let overall = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    let onConnection = 0;
    let buffered = '';
    socket.on('error', () => {});
    socket.on('data', (d) => {
      buffered += d.toString('latin1');
      // Requests here carry no body: each ends at its blank line.
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        onRequest(socket, { onConnection: ++onConnection, overall: ++overall });
      }
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, requests: () => overall };
}

const answer = (socket: Socket, body: string, status = '200 OK') =>
  socket.write(`HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: keep-alive\r\n\r\n${body}`);

/**
 * undici hands a connection on to the next request a full event-loop turn after its answer (so a
 * server that closes it despite keep-alive is seen first); a request sooner than that goes on
 * another connection. The tests wait that turn so the next call is sent on the kept connection.
 */
const turn = () => new Promise((r) => setImmediate(r));

const failure = failureOf;

describe('the bound on a call', () => {
  it('a backend that never answers fails the call at the bound, as a retryable "no answer within"', async () => {
    const { url } = await rawServer(() => {});
    const http = new BackendHttp('slow', url, {}, 300);
    const t0 = performance.now();
    const err = await failure(http.call({ path: 'x' }));
    const ms = performance.now() - t0;
    expect(err).toBeInstanceOf(BackendError);
    expect(err!.detail).toBe('GET /x: no answer within 300 ms');
    expect(err!.retryable).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(2_000);
  });

  it('one that sends its headers, then stalls in the body, fails at the same bound', async () => {
    const { url } = await rawServer((socket) => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial'));
    const t0 = performance.now();
    const err = await failure(new BackendHttp('slow', url, {}, 300).call({ path: 'y' }));
    expect(err!.detail).toMatch(/^GET \/y: no answer within 300 ms/);
    expect(performance.now() - t0).toBeLessThan(2_000);
  });
});

describe('a kept connection the backend closed', () => {
  it.each([
    ['closed (FIN)', 'POST', (socket: Socket) => socket.end()],
    ['reset (RST)', 'PUT', (socket: Socket) => socket.resetAndDestroy()],
  ])('%s as the next request (%s) arrives on it: the call goes through on a fresh one', async (_how, method, close) => {
    const server = await rawServer((socket, { onConnection, overall }) => {
      if (onConnection === 1) answer(socket, `answer ${overall}`);
      else close(socket);
    });
    const http = new BackendHttp('kept', server.url);
    expect((await http.call({ path: 'a' })).text).toBe('answer 1');
    await turn();
    expect((await http.call({ path: 'b', method })).text).toBe('answer 3');
    expect(server.requests()).toBe(3);
  });

  it('a fresh connection closed without an answer is a failure, sent once (the request may have been acted on)', async () => {
    const server = await rawServer((socket) => socket.end());
    const err = await failure(new BackendHttp('closing', server.url).call({ path: 'c', method: 'POST' }));
    expect(err!.detail).toBe('POST /c: other side closed (UND_ERR_SOCKET)');
    expect(err!.retryable).toBe(true);
    expect(server.requests()).toBe(1);
  });
});

describe('the answer', () => {
  it('keeps the reason phrase, the headers (lowercase, a repeated one as a list) and the body', async () => {
    const { url } = await rawServer((socket) =>
      socket.write('HTTP/1.1 409 Already There\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nX-Csrf-Token: t\r\ncontent-length: 2\r\n\r\n{}'),
    );
    const res = await new BackendHttp('answers', url).call({ path: 'z', accept: [409] });
    expect(res).toMatchObject({ status: 409, reason: 'Already There', text: '{}' });
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(res.headers['x-csrf-token']).toBe('t');
  });

  it('an empty refusal keeps its reason phrase in the error', async () => {
    const { url } = await rawServer((socket) => socket.write('HTTP/1.1 500 Disk full on node pve1\r\ncontent-length: 0\r\n\r\n'));
    const err = await failure(new BackendHttp('answers', url).call({ path: 'r' }));
    expect(err!.detail).toBe('GET /r -> 500 Disk full on node pve1');
  });
});

describe('a certificate the configured trust does not accept', () => {
  it('is a refusal to fix (not retried), and the request is never sent', async () => {
    const ca = createPrivateCa();
    let requests = 0;
    const server = createTlsServer(ca.server, (socket) => {
      sockets.add(socket);
      socket.on('data', () => {
        requests++;
        socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
      });
      socket.on('error', () => {});
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const err = await failure(new BackendHttp('tls', url, { authorization: 'Bearer s3cret' }).call({ path: 't' }));
      expect(err!.retryable).toBe(false);
      expect(err!.detail).toMatch(
        /^GET \/t: certificate not trusted \((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY): .*\); set the backend's CA bundle$/,
      );
      expect(err!.message).not.toContain('s3cret');
      expect(requests).toBe(0);
      expect((await new BackendHttp('tls', url, {}, 3_000, { ca: ca.caPem }).call({ path: 't' })).text).toBe('ok');
      expect(requests).toBe(1);
    } finally {
      ca.remove();
    }
  });
});
