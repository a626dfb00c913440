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
  headers: Headers;
  text: string;
  json<T = unknown>(): T;
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
    let res: Response;
    try {
      res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (e) {
      throw new BackendError(this.product, `${method} ${url.pathname}: ${(e as Error).message}`);
    }
    const text = await res.text();
    const answer: HttpAnswer = {
      status: res.status,
      headers: res.headers,
      text,
      json: <T>() => (text ? JSON.parse(text) : undefined) as T,
    };
    if (res.ok || c.accept?.includes(res.status)) return answer;
    // 4xx other than 408/429 is the backend refusing on purpose: retrying the same call won't help.
    const retryable = res.status >= 500 || res.status === 408 || res.status === 429;
    throw new BackendError(this.product, `${method} ${url.pathname} -> ${res.status} ${text.slice(0, 300)}`, retryable, res.status);
  }
}
