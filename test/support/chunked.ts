import { request, type ClientRequest, type IncomingMessage } from 'node:http';

// fetch cannot send Transfer-Encoding: chunked by choice (it decides from the body), so these use node:http.

function chunkedRequest(base: string, token: string, method: string, path: string, onAnswer: (res: IncomingMessage) => void): ClientRequest {
  const url = new URL(base);
  return request(
    {
      host: url.hostname,
      port: url.port,
      path,
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    },
    onAnswer,
  );
}

/** `body` cut into chunks of `size` characters, the way a client streaming it would send it. */
export function inChunks(body: string, size = 4096): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < body.length; i += size) chunks.push(body.slice(i, i + size));
  return chunks;
}

/** Sends `chunks` as a chunked body (none: a chunked body of zero bytes) and answers status and text. */
export function sendChunked(
  base: string,
  token: string,
  method: string,
  path: string,
  chunks: string[],
): Promise<{ status: number | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const req = chunkedRequest(base, token, method, path, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

/**
 * Streams a JSON body starting `head` with Transfer-Encoding: chunked past `total` bytes and never
 * ends it: an answer can only come from a server that refuses the body while it is still arriving.
 */
export function chunkedUpload(
  base: string,
  token: string,
  method: string,
  path: string,
  head: string,
  total: number,
): Promise<{ status: number | undefined; text: string; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = chunkedRequest(base, token, method, path, (res) => {
      answered = true;
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        resolve({ status: res.statusCode, text, sent });
        req.destroy();
      });
    });
    req.on('error', (err) => (answered ? undefined : reject(err)));
    req.write(head);
    sent = head.length;
    const pump = () => {
      if (answered || sent >= total) return;
      req.write('x'.repeat(4096));
      sent += 4096;
      setTimeout(pump, 1);
    };
    pump();
    setTimeout(() => (answered ? undefined : reject(new Error(`no answer after ${sent} bytes (request never ended)`))), 15_000);
  });
}
