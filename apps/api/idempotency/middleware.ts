import type { RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler, Next } from 'hono';
import {
  beatIdempotencyKey,
  claimIdempotencyKey,
  findIdempotencyEntry,
  keepIdempotentAnswer,
  purgeObjectAnswers,
  releaseIdempotencyKey,
  takeOverIdempotencyKey,
  type IdempotencyEntry,
} from '../../../db/queries/idempotency.js';
import type { Db } from '../../../db/registry.js';
import { open, seal, type SealKeys } from '../../../db/seal.js';
import { bearerToken } from '../auth/authenticate.js';
import { afterRun } from '../after-run.js';
import type { AppEnv } from '../context.js';
import { ApiError, badRequest, respondError } from '../errors.js';
import { SECRET_FIELDS } from '../logger.js';
import { answerWasCollected } from '../middleware/run-headers.js';
import { callerId, carriesSecret, keepsAnswer, objectOf, pathMatcher, readIdempotencyKey, requestHash } from './request.js';

type BodySchema = { safeParse(v: unknown): { success: boolean } };

/** The zod schema of a route's JSON body, when it has one. */
function bodySchema(route: RouteConfig): BodySchema | undefined {
  const media = route.request?.body?.content?.['application/json'];
  return media && 'schema' in media ? (media.schema as BodySchema) : undefined;
}

export interface IdempotencyOptions {
  /**
   * The routes that honour the header (their contracts went through `idempotent()`). Read at the
   * first request, once every route is registered: the contracts are the one list.
   */
  routes: () => RouteConfig[];
  db: Db;
  /** The site's secrets key: kept answers carry secrets. */
  keys: SealKeys;
  /** Keys the caller id (a hash of the credential presented). */
  callerKey: Buffer;
  windowMs: number;
  /** How often the instance running a first request says it is alive, and when it counts as dead. */
  beatMs?: number;
  staleMs?: number;
  /** How long a repeat waits for a first request still running before answering 503. */
  waitMs?: number;
  pollMs?: number;
}

interface Target {
  caller: string;
  key: string;
}

/** What a kept answer holds, sealed: enough to answer the repeat byte for byte. */
interface KeptAnswer {
  status: number;
  type: string | null;
  body: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface HonouredRoute {
  method: string;
  path: RegExp;
  body: BodySchema | undefined;
}

/** What the three middlewares share: the options with their defaults, and the routes once read. */
interface Idempotency {
  opts: IdempotencyOptions;
  compiled?: HonouredRoute[];
  beatMs: number;
  staleMs: number;
  waitMs: number;
  pollMs: number;
}

/**
 * `Idempotency-Key` for the routes that create or issue something, as three middlewares of the /v1
 * chain. `replay` runs before authentication: a kept answer goes back to the credential that got
 * it even when that request spent it (an enrollment token) or replaced it (a resume issues a new
 * tenant token); that is the answer the caller lost. `claim` runs after authentication: it binds
 * the key to the request and to the object it acts on, runs the route, and keeps the answer. `forget`
 * runs last, around the route: once an object is deleted, or a create hands out its secret anew,
 * the answers kept for it are purged, so no repeat hands out a secret that is gone or replaced.
 * Workflows never see the key: the answer is what the caller was told, whatever produced it.
 */
export function idempotency(opts: IdempotencyOptions): {
  replay: MiddlewareHandler<AppEnv>;
  claim: MiddlewareHandler<AppEnv>;
  forget: MiddlewareHandler<AppEnv>;
} {
  const beatMs = opts.beatMs ?? 2_000;
  const ctx: Idempotency = { opts, beatMs, staleMs: opts.staleMs ?? 5 * beatMs, waitMs: opts.waitMs ?? 10 * 60_000, pollMs: opts.pollMs ?? 100 };
  return {
    replay: function idempotentReplay(c, next) {
      return replay(ctx, c, next);
    },
    claim: function idempotentClaim(c, next) {
      return claim(ctx, c, next);
    },
    forget: function idempotentForget(c, next) {
      return forget(ctx, c, next);
    },
  };
}

const routes = (ctx: Idempotency) =>
  (ctx.compiled ??= ctx.opts.routes().map((r) => ({ method: r.method.toUpperCase(), path: pathMatcher(r.path), body: bodySchema(r) })));
const routeOf = (ctx: Idempotency, c: Context) => routes(ctx).find((r) => r.method === c.req.method && r.path.test(c.req.path));

/**
 * Only a request the route will act on is bound to its key (Stripe's rule): a body its schema
 * refuses gets the validator's 400, whatever key it carries, and leaves the key unused.
 */
async function honours(ctx: Idempotency, c: Context): Promise<boolean> {
  const route = routeOf(ctx, c);
  if (!route) return false;
  if (!route.body) return true;
  let json: unknown;
  try {
    json = JSON.parse(await c.req.text());
  } catch {
    return false;
  }
  return route.body.safeParse(json).success;
}

function target(ctx: Idempotency, c: Context, key: string): Target | undefined {
  const credential = bearerToken(c.req.header('authorization'));
  return credential ? { caller: callerId(ctx.opts.callerKey, credential), key } : undefined;
}

const hashOf = async (c: Context) => requestHash(c.req.method, c.req.path, await c.req.text());

function replayOf(ctx: Idempotency, entry: IdempotencyEntry): Response {
  const raw = open(ctx.opts.keys, entry.answer);
  // Sealed under a key the site no longer holds: the kept answer is gone; say so, never guess.
  if (raw === undefined) throw new ApiError('unprocessable', 'the answer kept for this Idempotency-Key can no longer be read; use a new key');
  const kept = JSON.parse(raw) as KeptAnswer;
  const headers = new Headers({ 'Idempotent-Replayed': 'true' });
  if (kept.type) headers.set('Content-Type', kept.type);
  return new Response(kept.body, { status: kept.status, headers });
}

/**
 * Answers a request whose key is already held: the kept answer, a 422 for another request, or
 * (once the first ends) its answer. `run` when this request took the key over from a dead
 * instance (only when `mayRun`, i.e. after authentication); `again` when the first ended with
 * nothing kept (a 5xx) or died before authentication: the key is to be claimed again.
 */
async function settle(ctx: Idempotency, t: Target, hash: string, entry: IdempotencyEntry, mayRun: boolean): Promise<Response | 'run' | 'again'> {
  if (entry.requestHash !== hash) throw new ApiError('unprocessable', 'this Idempotency-Key was used with another request; use a new key');
  const deadline = Date.now() + ctx.waitMs;
  let current: IdempotencyEntry | undefined = entry;
  while (current && current.answer === null) {
    if (current.stale) {
      if (!mayRun) return 'again';
      if (await takeOverIdempotencyKey(ctx.opts.db, t.caller, t.key, hash, ctx.staleMs)) return 'run';
    }
    if (Date.now() > deadline) {
      throw new ApiError('unavailable', 'the first request with this Idempotency-Key is still running; repeat the call');
    }
    await sleep(ctx.pollMs);
    current = await findIdempotencyEntry(ctx.opts.db, t.caller, t.key, ctx.staleMs);
  }
  return current ? replayOf(ctx, current) : 'again';
}

/** Runs the route for the key's first request, says it is alive meanwhile, keeps its answer. */
async function runFirst(ctx: Idempotency, c: Context<AppEnv>, next: Next, t: Target): Promise<void> {
  const { db, keys } = ctx.opts;
  const beating = setInterval(() => {
    beatIdempotencyKey(db, t.caller, t.key).catch((err: unknown) => c.var.log?.warn({ err }, 'idempotency heartbeat failed'));
  }, ctx.beatMs);
  try {
    await next();
  } catch (err) {
    await releaseIdempotencyKey(db, t.caller, t.key);
    throw err;
  } finally {
    clearInterval(beating);
  }
  // The answer a run kept for this very call, whose first instance died or lost it: a replay too.
  if (answerWasCollected()) c.res.headers.set('Idempotent-Replayed', 'true');
  const status = c.res.status;
  // A key left claimed because the registry went away meanwhile goes stale and is taken over.
  if (!keepsAnswer(status)) return afterRun(c.var.log, { release_key: t.key }, () => releaseIdempotencyKey(db, t.caller, t.key));
  const kept: KeptAnswer = { status, type: c.res.headers.get('content-type'), body: await c.res.clone().text() };
  // Kept before the answer leaves: a connection cut while it is sent loses nothing.
  // Not kept when the registry went away during the run: the answer still leaves (after-run.ts).
  await afterRun(c.var.log, { keep_answer_of_key: t.key }, () => keepIdempotentAnswer(db, t.caller, t.key, status, seal(keys, JSON.stringify(kept))));
}

async function replay(ctx: Idempotency, c: Context<AppEnv>, next: Next): Promise<Response | void> {
  const reading = readIdempotencyKey(c.req.header('idempotency-key'));
  const t = reading.kind === 'key' && routeOf(ctx, c) ? target(ctx, c, reading.key) : undefined;
  if (!t) return next();
  const entry = await findIdempotencyEntry(ctx.opts.db, t.caller, t.key, ctx.staleMs);
  if (!entry || !(await honours(ctx, c))) return next();
  const settled = await settle(ctx, t, await hashOf(c), entry, false);
  return settled instanceof Response ? settled : next();
}

async function claim(ctx: Idempotency, c: Context<AppEnv>, next: Next): Promise<Response | void> {
  const reading = readIdempotencyKey(c.req.header('idempotency-key'));
  if (reading.kind === 'absent' || !routeOf(ctx, c)) return next();
  if (reading.kind === 'invalid') return respondError(c, badRequest(reading.reason));
  if (!(await honours(ctx, c))) return next();
  const t = target(ctx, c, reading.key)!;
  const hash = await hashOf(c);
  const object = objectOf(c.req.method, c.req.path, await c.req.text());
  for (;;) {
    if (await claimIdempotencyKey(ctx.opts.db, { ...t, requestHash: hash, object, windowMs: ctx.opts.windowMs })) return runFirst(ctx, c, next, t);
    const entry = await findIdempotencyEntry(ctx.opts.db, t.caller, t.key, ctx.staleMs);
    if (!entry) continue; // released or expired meanwhile: claim again
    const settled = await settle(ctx, t, hash, entry, true);
    if (settled === 'run') return runFirst(ctx, c, next, t);
    if (settled instanceof Response) return settled;
  }
}

/**
 * A delete that succeeded (204) purges the answers kept for its object and every object under
 * it (a tenant's: all it owned). A create or issue that succeeded and hands out a secret
 * (a new psk or password, a tenant's secrets or token) purges the object's other kept answers:
 * theirs are the secrets it replaced. Its own answer is kept after this, by `claim`.
 */
async function forget(ctx: Idempotency, c: Context<AppEnv>, next: Next): Promise<void> {
  await next();
  const status = c.res.status;
  if (status < 200 || status >= 300) return;
  if (c.req.method === 'DELETE') {
    const object = objectOf('DELETE', c.req.path, '');
    if (status === 204) await afterRun(c.var.log, { purge_kept_answers: object }, () => purgeObjectAnswers(ctx.opts.db, object, { below: true }));
    return;
  }
  if (!routeOf(ctx, c) || !carriesSecret(await c.res.clone().text(), SECRET_FIELDS)) return;
  const reading = readIdempotencyKey(c.req.header('idempotency-key'));
  const own = reading.kind === 'key' ? target(ctx, c, reading.key) : undefined;
  const object = objectOf(c.req.method, c.req.path, await c.req.text());
  await afterRun(c.var.log, { purge_kept_answers: object }, () => purgeObjectAnswers(ctx.opts.db, object, own ? { except: own } : {}));
}
