import { paced } from './backend-pace.js';
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { instrumentBackendCall } from './backend-telemetry.js';
import { fingerprintForm } from '../core/fingerprint.js';
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
  /** The status line's reason phrase: where some products (older Proxmox VE) put their error text. */
  reason: string;
  headers: IncomingHttpHeaders;
  text: string;
  json<T = unknown>(): T;
}

// Connections to a backend are kept and reused. node:http rather than fetch: in the bench profile
// of a site fill, fetch's per-call machinery (streams, wasm parser, Request objects) was the
// worker's largest single cost, more than the steps' own work.
const httpAgent = new HttpAgent({ keepAlive: true, maxFreeSockets: 16 });
const publicTrust = new HttpsAgent({ keepAlive: true, maxFreeSockets: 16 });
const privateTrust = new Map<string, HttpsAgent>();

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


const pinnedAgents = new Map<string, Promise<HttpsAgent>>();

/**
 * The kept-connection pool of a pinned backend. Its certificate is fetched once by a TLS handshake
 * that sends nothing (no request, no credential), and used only if its fingerprint is the pin;
 * every connection then trusts that certificate alone and checks the fingerprint again.
 */
function pinnedAgent(url: URL, pin: string): Promise<HttpsAgent> {
  const key = `${url.host}|${pin}`;
  let agent = pinnedAgents.get(key);
  if (!agent) {
    agent = pinnedCertificate(url, pin).then((pem) => new HttpsAgent({
      keepAlive: true,
      maxFreeSockets: 16,
      ca: pem,
      // The pinned certificate is the trust anchor even when it is not a CA's own.
      allowPartialTrustChain: true,
      rejectUnauthorized: true,
      checkServerIdentity: (_host, cert) => (fingerprintForm(cert.fingerprint256) === pin ? undefined : fingerprintMismatch(cert.fingerprint256)),
    } as ConstructorParameters<typeof HttpsAgent>[0]));
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

function agentFor(https: boolean, tls: BackendTls): HttpAgent | HttpsAgent {
  if (!https) return httpAgent;
  if (!tls.ca) return publicTrust;
  // One kept-connection pool per trust: adapters of one backend share it.
  let agent = privateTrust.get(tls.ca);
  if (!agent) {
    agent = new HttpsAgent({ keepAlive: true, maxFreeSockets: 16, ca: tls.ca, rejectUnauthorized: true });
    privateTrust.set(tls.ca, agent);
  }
  return agent;
}

interface RawAnswer {
  status: number;
  reason: string;
  headers: IncomingHttpHeaders;
  text: string;
}

async function send(url: URL, method: string, headers: Record<string, string>, body: string | Uint8Array | undefined, timeoutMs: number, tls: BackendTls, retried = false): Promise<RawAnswer> {
  const https = url.protocol === 'https:';
  if (!https && url.protocol !== 'http:') throw new Error(`unsupported protocol ${url.protocol}`);
  const options: RequestOptions = {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    agent: https && tls.pin ? await pinnedAgent(url, tls.pin) : agentFor(https, tls),
  };
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(url, options, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, reason: res.statusMessage ?? '', headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', fail);
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    function fail(err: NodeJS.ErrnoException): void {
      clearTimeout(timer);
      // A kept connection the backend closed while idle fails at once: one fresh try, as Node advises.
      if (req.reusedSocket && err.code === 'ECONNRESET' && !retried) resolve(send(url, method, headers, body, timeoutMs, tls, true));
      else reject(err);
    }
    req.on('error', fail);
    req.end(body);
  });
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

export function isCertificateRefusal(err: NodeJS.ErrnoException): boolean {
  return err.code !== undefined && CERTIFICATE_CODES.has(err.code);
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
    private readonly tls: BackendTls = {},
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
    await paced(this.product);
    let res: RawAnswer;
    try {
      const accepted = (status: number) => c.accept?.includes(status) ?? false;
      res = await instrumentBackendCall({ backend: this.product, method, url, headers, accepted }, (h) => send(url, method, h, body, this.timeoutMs, this.tls));
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      // A certificate the configured trust does not accept is a setting to fix, not a fault to retry.
      if (isCertificateRefusal(err)) {
        const fix = this.tls.pin ? "check the pinned fingerprint against the backend's certificate" : "set the backend's CA bundle";
        throw new BackendError(this.product, `${method} ${url.pathname}: certificate not trusted (${err.code}: ${err.message}); ${fix}`, false);
      }
      throw new BackendError(this.product, `${method} ${url.pathname}: ${err.message}`);
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
