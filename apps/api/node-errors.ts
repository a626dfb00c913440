import { getRequestListener, RequestError } from '@hono/node-server';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Answers that Node's HTTP server and @hono/node-server make before the app sees a request (a
 * malformed request line, oversized headers, a slow client, a missing Host) carry the same
 * `{"error": ...}` body as every other error (spec: General rules 5), instead of an empty one.
 */

/** Node's own status for a client error (as its socketOnError picks it), with our reason. */
export function clientErrorAnswer(code: string | undefined): { status: number; text: string; error: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, text: 'Request Header Fields Too Large', error: 'request headers too large' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, text: 'Payload Too Large', error: 'chunk extensions too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, text: 'Request Timeout', error: 'request timeout' };
    default:
      return { status: 400, text: 'Bad Request', error: 'malformed HTTP request' };
  }
}

function rawResponse(status: number, text: string, error: string): string {
  const body = JSON.stringify({ error });
  return `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** Replaces Node's default clientError answer (an empty body) with a JSON one, same status. */
export function answerClientErrorsAsJson(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }) => {
    // As Node's default: nothing to answer on a reset or half-written connection.
    if (err.code === 'ECONNRESET' || !socket.writable || (socket.bytesWritten ?? 0) > 0) {
      socket.destroy(err);
      return;
    }
    const answer = clientErrorAnswer(err.code);
    socket.end(rawResponse(answer.status, answer.text, answer.error));
  });
}

/**
 * What RFC 9112 3.2 makes a 400: HTTP/1.1 without a Host, or any request with more than one Host
 * field line (Node keeps the first and drops the rest; which one the client meant is unknown).
 */
export function hostHeaderProblem(req: Pick<IncomingMessage, 'httpVersionMajor' | 'httpVersionMinor' | 'rawHeaders'>): string | undefined {
  let hosts = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'host') hosts++;
  if (hosts > 1) return 'more than one Host header';
  if (hosts === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) return 'missing Host header';
  return undefined;
}

const jsonError = (status: number, error: string) => new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json' } });

/**
 * The request listener: HTTP/1.0 has no Host header (load balancers' health checks send exactly
 * that), so the URL the app sees falls back to `localhost`; HTTP/1.1 must carry one (RFC 9112
 * 3.2), which Node would refuse with an empty 400 and is refused here with a JSON one. A request
 * target @hono/node-server cannot turn into a URL is a JSON 400 as well.
 */
export function jsonRequestListener(fetch: (req: Request, env: unknown) => Response | Promise<Response>) {
  const listener = getRequestListener(fetch, {
    hostname: 'localhost',
    // RequestError: the request could not be made into a URL. Anything else escaped the app's own
    // error handler, which never happens by design; it is still JSON, and says nothing more.
    errorHandler: (err) => (err instanceof RequestError ? jsonError(400, 'malformed request target') : jsonError(500, 'internal error')),
  });
  return (req: IncomingMessage, res: ServerResponse) => {
    const refused = hostHeaderProblem(req);
    if (refused) {
      const body = JSON.stringify({ error: refused });
      res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' }).end(body);
      return;
    }
    return listener(req, res);
  };
}
