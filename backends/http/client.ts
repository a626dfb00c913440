import { Agent, buildConnector, type Dispatcher } from 'undici';
import { isIP } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { BackendCalls } from './calls.js';
import { instrumentBackendCall } from './telemetry.js';
import { fingerprintForm } from '../../core/fingerprint.js';
import { BackendError } from '../../core/backend-outcome.js';

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

/** An answer's headers as undici parses them: lowercase names, a repeated header as a list. */
export type HttpHeaders = Record<string, string | string[] | undefined>;

export interface HttpAnswer {
  status: number;
  /** The status line's reason phrase: where some products (older Proxmox VE) put their error text. */
  reason: string;
  headers: HttpHeaders;
  text: string;
  json<T = unknown>(): T;
}

/**
 * How a backend's certificate is checked. Always verified: with `ca`, against those certificates
 * only (a site's private CA: Proxmox's cluster CA, a UniFi console's own certificate), otherwise
 * against Node's public roots. There is deliberately no way to skip verification.
 */
export interface BackendTls {
  /** PEM certificates to trust for this backend, instead of the public roots. */
  ca?: string;
  /**
   * The SHA-256 fingerprint of the backend's own certificate (`AB:CD:...`), for a self-signed
   * one whose names do not hold the address it is reached by (a UniFi console's): that one
   * certificate is the only trust, and its fingerprint replaces the name check.
   */
  pin?: string;
}

/** A client's trust, and the pacing and telemetry of the worker that made it (calls.ts; none: neither). */
export interface BackendHttpOptions extends BackendTls {
  calls?: BackendCalls;
}

// Backend calls go through undici's dispatch API, not fetch (built on the same client): in the
// bench profile of a site fill, fetch's per-call machinery (web streams, Request and Response
// objects) was the worker's largest single cost. The handler below gathers an answer's chunks
// itself, so a call builds no stream at all. Each Agent keeps a pool of connections per origin.

/** Marks a connection's error with whether that connection had already carried an answer. */
const KEPT = Symbol('on a kept connection');
type ConnectionError = Error & { code?: string; cause?: unknown; [KEPT]?: boolean };

/**
 * A connector of undici's (TLS options as Node's `tls.connect` takes them) that marks each error
 * of a connection with whether anything had been read on it: undici fails a request it wrote to a
 * kept connection the backend had closed meanwhile (Caddy's admin API closes its connections after
 * every change, a server's idle timeout does too), and that request is one to send again on a
 * fresh connection, as Node's docs advise for `reusedSocket`. undici does not retry it itself
 * (nodejs/undici#3492). What was read is an earlier answer when the failed request saw no headers
 * of its own (or, rarely, a fresh connection's partial headers: one more try, then the failure).
 */
function connector(options: buildConnector.BuildOptions): buildConnector.connector {
  const connect = buildConnector(options);
  return (opts, callback) =>
    connect(opts, (err, socket) => {
      // Registered before undici's own listeners, so the mark is on the error undici hands on.
      socket?.on('error', (e: ConnectionError) => {
        if (e && typeof e === 'object') e[KEPT] ??= socket.bytesRead > 0;
      });
      (callback as (e: Error | null, s: typeof socket) => void)(err, socket);
    });
}

function agentOf(tls: buildConnector.BuildOptions): Agent {
  return new Agent({ connect: connector(tls) });
}

/** Plain HTTP, and HTTPS against Node's public roots. */
const publicTrust = agentOf({});
/** One Agent per private CA bundle: the adapters of one backend share its kept connections. */
const privateTrust = new Map<string, Agent>();
const pinnedAgents = new Map<string, Promise<Agent>>();

/**
 * The kept-connection pool of a pinned backend. Its certificate is fetched once by a TLS handshake
 * that sends nothing (no request, no credential), and used only if its fingerprint is the pin;
 * every connection then trusts that certificate alone and checks the fingerprint again.
 */
function pinnedAgent(url: URL, pin: string): Promise<Agent> {
  const key = `${url.host}|${pin}`;
  let agent = pinnedAgents.get(key);
  if (!agent) {
    agent = pinnedCertificate(url, pin).then((pem) =>
      agentOf({
        ca: pem,
        // The pinned certificate is the trust anchor even when it is not a CA's own.
        allowPartialTrustChain: true,
        rejectUnauthorized: true,
        checkServerIdentity: (_host, cert) => (fingerprintForm(cert.fingerprint256) === pin ? undefined : fingerprintMismatch(cert.fingerprint256)),
        // Node skips checkServerIdentity on a resumed TLS session: no session is kept, so every
        // connection's handshake shows the certificate and its fingerprint is checked again.
        maxCachedSessions: 0,
      }),
    );
    agent.catch(() => pinnedAgents.delete(key));
    pinnedAgents.set(key, agent);
  }
  return agent;
}

function fingerprintMismatch(seen: string): Error {
  return Object.assign(new Error(`the certificate's SHA-256 fingerprint ${seen} is not the pinned one`), { code: 'CERT_FINGERPRINT_MISMATCH' });
}

function pinnedCertificate(url: URL, pin: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket = tlsConnect({ host, port: Number(url.port || 443), ...(isIP(host) ? {} : { servername: host }), rejectUnauthorized: false }, () => {
      const cert = socket.getPeerCertificate();
      socket.destroy();
      if (!cert?.raw) return reject(new Error('the backend presented no certificate'));
      if (fingerprintForm(cert.fingerprint256) !== pin) return reject(fingerprintMismatch(cert.fingerprint256));
      resolve(`-----BEGIN CERTIFICATE-----\n${cert.raw.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`);
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('no TLS handshake within 10000 ms')));
    socket.on('error', reject);
  });
}

async function dispatcherFor(url: URL, tls: BackendTls): Promise<Dispatcher> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`unsupported protocol ${url.protocol}`);
  if (url.protocol === 'http:' || (!tls.ca && !tls.pin)) return publicTrust;
  if (tls.pin) return pinnedAgent(url, tls.pin);
  let agent = privateTrust.get(tls.ca!);
  if (!agent) {
    agent = agentOf({ ca: tls.ca, rejectUnauthorized: true });
    privateTrust.set(tls.ca!, agent);
  }
  return agent;
}

interface RawAnswer {
  status: number;
  reason: string;
  headers: HttpHeaders;
  text: string;
}

/** One request's exchange: undici calls it as the request is written and the answer arrives. */
class Exchange implements Dispatcher.DispatchHandler {
  /** Whether the answer's status line and headers arrived (past that, a failure is no stale connection). */
  answered = false;
  private status = 0;
  private reason = '';
  private headers: HttpHeaders = {};
  private chunks: Buffer[] = [];
  private controller?: Dispatcher.DispatchController;
  private cancelled?: Error;

  constructor(
    private readonly resolve: (a: RawAnswer) => void,
    private readonly reject: (e: Error) => void,
  ) {}

  /** Ends the exchange wherever it is; one still queued for a connection ends as it gets one. */
  cancel(err: Error): void {
    this.cancelled = err;
    this.controller?.abort(err);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.cancelled) controller.abort(this.cancelled);
  }

  onResponseStart(_c: Dispatcher.DispatchController, status: number, headers: HttpHeaders, statusMessage?: string): void {
    // A 1xx comes before the answer: each call here starts over.
    this.answered = true;
    this.status = status;
    this.reason = statusMessage ?? '';
    this.headers = headers;
    this.chunks = [];
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(_c: Dispatcher.DispatchController, trailers?: HttpHeaders): void {
    // Trailers join the headers: Caddy's admin API sends its config ETag as one (admin.go).
    if (trailers && Object.keys(trailers).length > 0) this.headers = { ...this.headers, ...trailers };
    const text = this.chunks.length === 1 ? this.chunks[0]!.toString('utf8') : Buffer.concat(this.chunks).toString('utf8');
    this.resolve({ status: this.status, reason: this.reason, headers: this.headers, text });
  }

  onResponseError(_c: Dispatcher.DispatchController | undefined, err: Error): void {
    this.reject(err);
  }
}

/** undici's own bounds, reported like the call's overall one (the metrics call it a timeout). */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** How a kept connection the backend closed meanwhile fails a request written to it. */
const DROPPED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

const noAnswer = (timeoutMs: number, code?: string) => Object.assign(new Error(`no answer within ${timeoutMs} ms`), code ? { code } : {});

/**
 * One call, bounded as a whole by `timeoutMs` (connection, the pinned certificate's fetch, the
 * request, the answer and one fresh try): a slow backend is a failed step, never a hang.
 */
async function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  timeoutMs: number,
  tls: BackendTls,
): Promise<RawAnswer> {
  let current: Exchange | undefined;
  let expired: Error | undefined;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      expired = noAnswer(timeoutMs);
      current?.cancel(expired);
      reject(expired);
    }, timeoutMs);
  });
  const options: Dispatcher.DispatchOptions = {
    origin: url.origin,
    path: url.pathname + url.search,
    method: method as Dispatcher.HttpMethod,
    headers,
    body: body ?? null,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  };
  const exchange = async (): Promise<RawAnswer> => {
    const dispatcher = await dispatcherFor(url, tls);
    for (let attempt = 1; ; attempt++) {
      if (expired) throw expired;
      let ex!: Exchange;
      const answer = new Promise<RawAnswer>((resolve, reject) => (ex = new Exchange(resolve, reject)));
      current = ex;
      dispatcher.dispatch(options, ex);
      try {
        return await answer;
      } catch (e) {
        const err = e as ConnectionError;
        // Written to a kept connection the backend had closed, unanswered: one fresh try.
        if (attempt === 1 && !ex.answered && err[KEPT] && DROPPED_CODES.has(err.code ?? '')) continue;
        throw err;
      }
    }
  };
  try {
    return await Promise.race([deadline, exchange()]);
  } catch (e) {
    const code = codeOf(e as ConnectionError);
    throw code && TIMEOUT_CODES.has(code) ? noAnswer(timeoutMs, code) : e;
  } finally {
    clearTimeout(timer);
  }
}

const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_FINGERPRINT_MISMATCH',
]);

/** The error's code, or its cause's: undici wraps some of Node's errors in its own. */
function codeOf(err: { code?: string; cause?: unknown }): string | undefined {
  return err.code ?? (err.cause as { code?: string } | undefined)?.code;
}

export function isCertificateRefusal(err: NodeJS.ErrnoException): boolean {
  const code = codeOf(err);
  return code !== undefined && CERTIFICATE_CODES.has(code);
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
    private readonly options: BackendHttpOptions = {},
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
    await this.options.calls?.paced(this.product);
    let res: RawAnswer;
    try {
      const accepted = (status: number) => c.accept?.includes(status) ?? false;
      res = await instrumentBackendCall(
        { backend: this.product, method, url, headers, accepted },
        (h) => send(url, method, h, body, this.timeoutMs, this.options),
        this.options.calls?.observe,
      );
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      const code = codeOf(err);
      // A certificate the configured trust does not accept is a setting to fix, not a fault to retry.
      if (isCertificateRefusal(err)) {
        const fix = this.options.pin ? "check the pinned fingerprint against the backend's certificate" : "set the backend's CA bundle";
        throw new BackendError(this.product, `${method} ${url.pathname}: certificate not trusted (${code}: ${err.message}); ${fix}`, false);
      }
      // undici's messages are terse ("other side closed"): its code says which failure it was.
      // Neither carries a header or a body, so no credential reaches the log.
      const what = err.message || code || String(err);
      throw new BackendError(this.product, `${method} ${url.pathname}: ${code && !what.includes(code) ? `${what} (${code})` : what}`);
    }
    const { text } = res;
    const answer: HttpAnswer = {
      status: res.status,
      reason: res.reason,
      headers: res.headers,
      text,
      json: <T>() => (text ? JSON.parse(text) : undefined) as T,
    };
    const ok = res.status >= 200 && res.status < 300;
    if (ok || c.accept?.includes(res.status)) return answer;
    // 4xx other than 408/429 is the backend refusing on purpose: retrying the same call won't help.
    const retryable = res.status >= 500 || res.status === 408 || res.status === 429;
    // An empty body leaves the reason phrase as the only account of the refusal: keep it for the log.
    const why = text.trim() ? text.slice(0, 300) : res.reason;
    throw new BackendError(this.product, `${method} ${url.pathname} -> ${res.status} ${why}`, retryable, res.status);
  }
}
