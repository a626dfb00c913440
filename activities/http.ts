import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { instrumentBackendCall } from './backend-telemetry.js';
import { BackendError } from './ensure.js';

export interface HttpCall {
  method?: string;
  path: string;
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  /** A JSON body (object) or a raw body (string / Uint8Array). */
  json?: unknown;
  body?: string | Uint8Array;
  /** Statuses that are answers, not failures (e.g. 404 when observing). */
  accept?: number[];
}

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json<T = unknown>(): T;
}

// Connections to a backend are kept and reused. node:http rather than fetch: in the bench profile
// of a site fill, fetch's per-call machinery (streams, wasm parser, Request objects) was the
// worker's largest single cost, more than the steps' own work.
const agents = {
  'http:': new HttpAgent({ keepAlive: true, maxFreeSockets: 16 }),
  'https:': new HttpsAgent({ keepAlive: true, maxFreeSockets: 16 }),
};

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

function send(url: URL, method: string, headers: Record<string, string>, body: string | Uint8Array | undefined, timeoutMs: number, retried = false): Promise<RawAnswer> {
  const https = url.protocol === 'https:';
  if (!https && url.protocol !== 'http:') return Promise.reject(new Error(`unsupported protocol ${url.protocol}`));
  const options: RequestOptions = {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    agent: agents[https ? 'https:' : 'http:'],
  };
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(url, options, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', fail);
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    function fail(err: NodeJS.ErrnoException): void {
      clearTimeout(timer);
      // A kept connection the backend closed while idle fails at once: one fresh try, as Node advises.
      if (req.reusedSocket && err.code === 'ECONNRESET' && !retried) resolve(send(url, method, headers, body, timeoutMs, true));
      else reject(err);
    }
    req.on('error', fail);
    req.end(body);
  });
}

/**
 * A small HTTP client for backend adapters: a bound on every call (a slow backend is a failed
 * step, never a hang), and failures as BackendError with the detail kept for the log.
 */
export class BackendHttp {
  constructor(
    readonly product: string,
    private readonly baseUrl: string,
    private readonly defaultHeaders: Record<string, string> = {},
    private readonly timeoutMs = 10_000,
  ) {}

  async call(c: HttpCall): Promise<HttpAnswer> {
    const url = new URL(c.path.replace(/^\//, ''), this.baseUrl.endsWith('/') ? this.baseUrl : this.baseUrl + '/');
    for (const [k, v] of Object.entries(c.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...this.defaultHeaders, ...c.headers };
    let body: string | Uint8Array | undefined = c.body;
    if (c.json !== undefined) {
      body = JSON.stringify(c.json);
      headers['content-type'] ??= 'application/json';
    }
    const method = c.method ?? 'GET';
    let res: RawAnswer;
    try {
      const accepted = (status: number) => c.accept?.includes(status) ?? false;
      res = await instrumentBackendCall({ backend: this.product, method, url, headers, accepted }, (h) => send(url, method, h, body, this.timeoutMs));
    } catch (e) {
      throw new BackendError(this.product, `${method} ${url.pathname}: ${(e as Error).message}`);
    }
    const { text } = res;
    const answer: HttpAnswer = {
      status: res.status,
      headers: res.headers,
      text,
      json: <T>() => (text ? JSON.parse(text) : undefined) as T,
    };
    const ok = res.status >= 200 && res.status < 300;
    if (ok || c.accept?.includes(res.status)) return answer;
    // 4xx other than 408/429 is the backend refusing on purpose: retrying the same call won't help.
    const retryable = res.status >= 500 || res.status === 408 || res.status === 429;
    throw new BackendError(this.product, `${method} ${url.pathname} -> ${res.status} ${text.slice(0, 300)}`, retryable, res.status);
  }
}
