/**
 * The transport of Mosquitto's dynamic-security control API: JSON `{"commands": [...]}` published
 * to `$CONTROL/dynamic-security/v1`, answered as `{"responses": [...]}` on
 * `$CONTROL/dynamic-security/v1/response` (mosquitto plugins/dynamic-security/README.md and
 * https://mosquitto.org/documentation/dynamic-security/).
 *
 * Every admin connection of the broker receives every response, so each command carries a random
 * `correlationData` (echoed by the plugin) and only our own answers resolve. One MQTT connection
 * per adapter, opened on first use, re-opened by mqtt.js on loss; every command is bounded.
 */
import { randomUUID } from 'node:crypto';
import { connect, type MqttClient } from 'mqtt';
import { BackendError } from '../../core/backend-outcome.js';

export const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
export const RESPONSE_TOPIC = '$CONTROL/dynamic-security/v1/response';
const PRODUCT = 'broker';

export interface DynsecCommand {
  command: string;
  [field: string]: unknown;
}

export interface DynsecResponse {
  command: string;
  error?: string;
  data?: Record<string, unknown>;
}

export interface DynsecControlOptions {
  url: string;
  adminUser: string;
  adminPassword: string;
  timeoutMs: number;
  /** PEM certificates to trust for `mqtts://` (the broker's private CA); public roots when absent. */
  ca?: string;
}

export interface DynsecControl {
  /** Send commands in one message; resolves with one response per command, in order. */
  run(commands: DynsecCommand[]): Promise<DynsecResponse[]>;
  /** Whether `username`/`password` may connect now (a CONNECT on its own short-lived connection). */
  canConnect(username: string, password: string): Promise<boolean>;
  close(): Promise<void>;
}

interface Pending {
  resolve(r: DynsecResponse): void;
  reject(e: Error): void;
}

/** CONNACK codes meaning the credentials were refused (3.1.1: 4, 5; v5: 0x86, 0x87). */
const AUTH_REFUSED = new Set([4, 5, 0x86, 0x87]);

/** The one admin connection and what its handlers share with the commands: its state, the waiters, the pending answers. */
interface Control {
  opts: DynsecControlOptions;
  tlsOptions: { ca?: string; rejectUnauthorized?: boolean };
  client?: MqttClient;
  ready: boolean;
  lastError: string;
  authRefused: boolean;
  closed: boolean;
  waiters: Set<() => void>;
  pending: Map<string, Pending>;
}

export function createDynsecControl(opts: DynsecControlOptions): DynsecControl {
  const ctx: Control = {
    opts,
    // Always verified; a private CA replaces the public roots for this broker.
    tlsOptions: opts.ca ? { ca: opts.ca, rejectUnauthorized: true } : {},
    ready: false,
    lastError: '',
    authRefused: false,
    closed: false,
    waiters: new Set(),
    pending: new Map(),
  };
  return {
    run: (commands) => run(ctx, commands),
    canConnect: (username, password) => canConnect(ctx, username, password),
    close: () => close(ctx),
  };
}

function open(ctx: Control): MqttClient {
  if (ctx.client) return ctx.client;
  const { opts } = ctx;
  const c = connect(opts.url, {
    username: opts.adminUser,
    password: opts.adminPassword,
    clientId: `provisioning-${randomUUID()}`,
    ...ctx.tlsOptions,
    clean: true,
    connectTimeout: opts.timeoutMs,
    reconnectPeriod: 1000,
    // We subscribe ourselves on every connect so we know when responses can arrive.
    resubscribe: false,
  });
  c.on('connect', () => {
    ctx.authRefused = false;
    c.subscribe(RESPONSE_TOPIC, { qos: 1 }, (err, granted) => {
      const refused = granted?.some((g) => g.qos === 128);
      if (err || refused) {
        ctx.lastError = `subscribe to the response topic refused${err ? `: ${err.message}` : ''}`;
        return;
      }
      ctx.ready = true;
      for (const w of ctx.waiters) w();
    });
  });
  c.on('message', (topic, payload) => onMessage(ctx, topic, payload));
  c.on('error', (err: Error & { code?: number }) => {
    ctx.lastError = err.message;
    if (typeof err.code === 'number' && AUTH_REFUSED.has(err.code)) ctx.authRefused = true;
  });
  c.on('close', () => {
    ctx.ready = false;
    // A command sent on the lost connection may never be answered: fail it now, not at its deadline.
    for (const [id, p] of ctx.pending) {
      ctx.pending.delete(id);
      p.reject(new BackendError(PRODUCT, 'connection to the broker lost while waiting for a dynsec response'));
    }
  });
  ctx.client = c;
  return c;
}

/** Resolves the pending commands whose answers the message carries; others' answers are ignored. */
function onMessage(ctx: Control, topic: string, payload: Buffer): void {
  if (topic !== RESPONSE_TOPIC) return;
  let body: unknown;
  try {
    body = JSON.parse(payload.toString('utf8'));
  } catch {
    return;
  }
  const responses = (body as { responses?: unknown }).responses;
  if (!Array.isArray(responses)) return;
  for (const r of responses as Array<DynsecResponse & { correlationData?: unknown }>) {
    if (typeof r?.correlationData !== 'string') continue;
    const p = ctx.pending.get(r.correlationData);
    if (!p) continue;
    ctx.pending.delete(r.correlationData);
    const { correlationData: _drop, ...response } = r;
    p.resolve(response);
  }
}

function whenReady(ctx: Control, deadline: number): Promise<void> {
  if (ctx.ready) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      ctx.waiters.delete(done);
      resolve();
    };
    const timer = setTimeout(
      () => {
        ctx.waiters.delete(done);
        reject(new BackendError(PRODUCT, `not connected to the broker's control API (${ctx.lastError || 'no answer'})`, !ctx.authRefused));
      },
      Math.max(0, deadline - Date.now()),
    );
    ctx.waiters.add(done);
  });
}

/** Fails those of the commands `ids` still waiting for an answer. */
function rejectPending(ctx: Control, ids: string[], message: string): void {
  for (const id of ids) {
    const p = ctx.pending.get(id);
    if (!p) continue;
    ctx.pending.delete(id);
    p.reject(new BackendError(PRODUCT, message));
  }
}

async function run(ctx: Control, commands: DynsecCommand[]): Promise<DynsecResponse[]> {
  const { opts, pending } = ctx;
  if (ctx.closed) throw new BackendError(PRODUCT, 'dynsec control closed', false);
  if (commands.length === 0) return [];
  const deadline = Date.now() + opts.timeoutMs;
  const c = open(ctx);
  await whenReady(ctx, deadline);
  const ids = commands.map(() => randomUUID());
  const answers = ids.map((id) => new Promise<DynsecResponse>((resolve, reject) => pending.set(id, { resolve, reject })));
  const timer = setTimeout(() => rejectPending(ctx, ids, `no dynsec response within ${opts.timeoutMs} ms`), Math.max(0, deadline - Date.now()));
  try {
    const body = JSON.stringify({ commands: commands.map((cmd, i) => ({ ...cmd, correlationData: ids[i] })) });
    c.publish(CONTROL_TOPIC, body, { qos: 1 }, (err) => {
      if (!err) return;
      rejectPending(ctx, ids, `dynsec command not delivered: ${err.message}`);
    });
    return await Promise.all(answers);
  } finally {
    clearTimeout(timer);
    for (const id of ids) pending.delete(id);
  }
}

function canConnect(ctx: Control, username: string, password: string): Promise<boolean> {
  const { opts } = ctx;
  return new Promise((resolve, reject) => {
    const probe = connect(opts.url, {
      username,
      password,
      clientId: `provisioning-probe-${randomUUID()}`,
      ...ctx.tlsOptions,
      clean: true,
      connectTimeout: opts.timeoutMs,
      reconnectPeriod: 0,
    });
    const finish = (fn: () => void) => {
      clearTimeout(timer);
      probe.removeAllListeners();
      probe.on('error', () => {});
      probe.end(true);
      fn();
    };
    const timer = setTimeout(
      () => finish(() => reject(new BackendError(PRODUCT, `probe connection not answered within ${opts.timeoutMs} ms`))),
      opts.timeoutMs,
    );
    probe.once('connect', () => finish(() => resolve(true)));
    probe.on('error', (err: Error & { code?: number }) => {
      if (typeof err.code === 'number' && AUTH_REFUSED.has(err.code)) finish(() => resolve(false));
      else finish(() => reject(new BackendError(PRODUCT, `probe connection failed: ${err.message}`)));
    });
  });
}

async function close(ctx: Control): Promise<void> {
  ctx.closed = true;
  const c = ctx.client;
  ctx.client = undefined;
  if (c) await c.endAsync(true);
}
