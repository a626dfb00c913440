/**
 * The dynsec adapter against a real Mosquitto 2 (Debian package), checked with real MQTT clients:
 * what an issued account may publish and subscribe, what it may not, drift repair, passwords,
 * changes and revocation as the broker applies them (open connections too), and the bounds of the control connection.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { workerBackendCalls } from '../../activities/backend-areas.js';
import type { Site } from '../../activities/site.js';
import type { MqttClient } from 'mqtt';
import { createServer } from 'node:net';
import { BackendError } from '../../core/backend-outcome.js';
import { absolutePatterns } from '../../core/names/broker-patterns.js';
import { brokerUsername, tenantUsernamePrefix } from '../../core/names/broker-username.js';
import { createDynsecAdapter, type BrokerAdapter } from '../../backends/mosquitto/dynsec.js';
import { createDynsecControl, type DynsecControl } from '../../backends/mosquitto/dynsec-control.js';
import {
  startMosquitto,
  connectAs,
  canConnect,
  canSubscribe,
  canPublish,
  collect,
  receivedUntilControl,
  type RunningMosquitto,
  expectPublishes,
  expectSubscribes,
} from '../support/mosquitto.js';
import { waitFor } from '../support/site.js';

let broker: RunningMosquitto;
let adapter: BrokerAdapter;
/** A second admin connection, to make drift behind the adapter's back. */
let admin: DynsecControl;
/** The dynsec admin may read everything: it sees what reaches the broker. */
let watcher: MqttClient;
let fencer: MqttClient;
const open: MqttClient[] = [];

async function account(tenant: string, name: string, req: { device?: string; publish: string[]; subscribe: string[] }, password: string) {
  const p = absolutePatterns({ tenant, ...req });
  if (!p.ok) throw new Error(p.reason);
  const username = brokerUsername(tenant, name);
  const outcomes = await adapter.ensure({ username, password, publish: p.publish, subscribe: p.subscribe });
  return { username, password, outcomes, publish: p.publish, subscribe: p.subscribe };
}

async function as(username: string, password: string): Promise<MqttClient> {
  const c = await connectAs(broker.url, { username, password });
  open.push(c);
  return c;
}

/** Publish at QoS 0 (MQTT 3.1.1 style: a denied publish is dropped silently) and see whether it arrives. */
async function arrives(c: MqttClient, topic: string): Promise<boolean> {
  const seen = collect(watcher);
  const payload = `m-${Math.random()}`;
  await c.publishAsync(topic, payload, { qos: 0 });
  // The broker handles one connection's packets in order: once a later QoS 1 publish is
  // acknowledged (allowed or not), the probe has been routed. A marker published after that
  // reaches the watcher after the probe would have: once the marker is in, the probe is or never will be.
  await c.publishAsync(topic, 'fence', { qos: 1 }).catch(() => {});
  const marker = `k-${Math.random()}`;
  await fencer.publishAsync('ctl/fence', marker, { qos: 1 });
  await waitFor(() => seen.messages.some((m) => m.payload === marker), 5000);
  seen.stop();
  return seen.messages.some((m) => m.topic === topic && m.payload === payload);
}

beforeAll(async () => {
  broker = await startMosquitto();
  adapter = createDynsecAdapter({ url: broker.url, adminUser: broker.adminUser, adminPassword: broker.adminPassword, timeoutMs: 3000 });
  admin = createDynsecControl({ url: broker.url, adminUser: broker.adminUser, adminPassword: broker.adminPassword, timeoutMs: 3000 });
  watcher = await connectAs(broker.url, { username: broker.adminUser, password: broker.adminPassword });
  await watcher.subscribeAsync('#', { qos: 0 });
  await account('ctl', 'fence', { publish: ['fence'], subscribe: [] }, 'pw-fence');
  fencer = await connectAs(broker.url, { username: 'ctl-fence', password: 'pw-fence' });
});

afterAll(async () => {
  for (const c of open) await c.endAsync(true).catch(() => {});
  await watcher?.endAsync(true).catch(() => {});
  await fencer?.endAsync(true).catch(() => {});
  await adapter?.close();
  await admin?.close();
  await broker?.stop();
});

describe('a workload account', () => {
  it('is created, then adopted in place, and observed in absolute form', async () => {
    const a = await account('acme', 'app', { publish: ['data/#', 'status'], subscribe: ['#'] }, 'pw-app-1');
    expect(a.outcomes).toEqual([
      { object: 'mqtt role acme-app', result: 'created' },
      { object: 'mqtt client acme-app', result: 'created' },
    ]);
    const again = await adapter.ensure({ username: 'acme-app', publish: a.publish, subscribe: a.subscribe });
    expect(again.map((o) => o.result)).toEqual(['in-place', 'in-place']);
    const seen = await adapter.observe('acme-app');
    expect(seen).toMatchObject({ publish: ['acme/data/#', 'acme/status'], subscribe: ['acme/#'], managedShape: true });
  });

  it('publishes and subscribes where allowed, inside its own tenant only', async () => {
    const c = await as('acme-app', 'pw-app-1');
    await expectPublishes(c, { 'acme/data/x/y': true, 'acme/status': true, 'acme/other': false, 'beta/data/x': false, 'acme/log/d1': false });
    expect(await arrives(c, 'acme/data/q0')).toBe(true);
    expect(await arrives(c, 'beta/data/q0')).toBe(false);
    await expectSubscribes(c, {
      'acme/#': true,
      'acme/log/#': true,
      '#': false,
      '+/data/#': false,
      'beta/#': false,
      '$SYS/#': false,
      '$CONTROL/dynamic-security/#': false,
    });
  });

  it("receives its own tenant's messages and never another tenant's", async () => {
    await account('beta', 'app', { publish: ['data/#'], subscribe: ['#'] }, 'pw-beta');
    const acme = await as('acme-app', 'pw-app-1');
    const beta = await as('beta-app', 'pw-beta');
    // beta aims at acme's own tree, and asks for it: acme's subscriber never gets beta's
    // publish, beta never gets acme's message; each fenced by a message its receiver must get.
    await acme.subscribeAsync('acme/#', { qos: 1 });
    await beta.subscribeAsync('acme/#', { qos: 1 }).catch(() => undefined);
    await beta.subscribeAsync('beta/#', { qos: 1 });
    const acme2 = await as('acme-app', 'pw-app-1');
    expect(await receivedUntilControl(acme, () => canPublish(beta, 'acme/data/intrusion'), { client: acme2, topic: 'acme/data/mine' })).toEqual([
      'acme/data/mine',
    ]);
    expect(
      await receivedUntilControl(beta, () => acme2.publishAsync('acme/data/secret', 'a', { qos: 1 }), { client: beta, topic: 'beta/data/control' }),
    ).toEqual(['beta/data/control']);
  });
});

describe('a device account', () => {
  it('publishes exactly log/<its device> and never reads the log space', async () => {
    await account('acme', 'd1', { device: 'd1', publish: ['log/d1', 'telemetry/d1'], subscribe: ['cmd/d1'] }, 'pw-d1');
    const c = await as('acme-d1', 'pw-d1');
    await expectPublishes(c, { 'acme/log/d1': true, 'acme/log/d2': false, 'acme/log/d1/x': false });
    expect(await arrives(c, 'acme/log/d2')).toBe(false);
    expect(await canPublish(c, 'acme/telemetry/d1')).toBe(true);
    await expectSubscribes(c, { 'acme/cmd/d1': true, 'acme/log/d1': false, 'acme/log/#': false, 'acme/#': false, 'acme/+/d1': false });
  });

  it('a workload of the tenant reads the device log', async () => {
    const reader = await as('acme-app', 'pw-app-1');
    await reader.subscribeAsync('acme/log/#', { qos: 1 });
    const got = collect(reader);
    const dev = await as('acme-d1', 'pw-d1');
    await dev.publishAsync('acme/log/d1', 'boot', { qos: 1 });
    await waitFor(() => got.messages.length > 0, 5000);
    got.stop();
    expect(got.messages).toContainEqual({ topic: 'acme/log/d1', payload: 'boot' });
  });
});

describe('drift', () => {
  it('replaces a tampered ACL list exactly', async () => {
    const [r] = await admin.run([
      {
        command: 'modifyRole',
        rolename: 'acme-app',
        acls: [
          { acltype: 'publishClientSend', topic: 'acme/data/#', allow: true, priority: 0 },
          { acltype: 'publishClientSend', topic: 'beta/#', allow: true, priority: 5 },
          { acltype: 'subscribePattern', topic: '#', allow: true, priority: 5 },
        ],
      },
    ]);
    expect(r?.error).toBeUndefined();
    const c = await as('acme-app', 'pw-app-1');
    expect(await canPublish(c, 'beta/x')).toBe(true); // the drift is real
    const outcomes = await adapter.ensure({ username: 'acme-app', publish: ['acme/data/#', 'acme/status'], subscribe: ['acme/#'] });
    expect(outcomes).toEqual([
      { object: 'mqtt role acme-app', result: 'corrected', fields: ['publish', 'subscribe'] },
      { object: 'mqtt client acme-app', result: 'in-place' },
    ]);
    expect(await canPublish(c, 'beta/x')).toBe(false);
    expect(await canPublish(c, 'acme/status')).toBe(true);
    const seen = await adapter.observe('acme-app');
    expect(seen?.publish).toEqual(['acme/data/#', 'acme/status']);
    expect(seen?.subscribe).toEqual(['acme/#']);
  });

  it('unbinds foreign roles and groups, clears a client id lock and re-enables the client', async () => {
    const res = await admin.run([
      { command: 'createRole', rolename: 'wide', acls: [{ acltype: 'publishClientSend', topic: '#', allow: true, priority: 9 }] },
      { command: 'createGroup', groupname: 'g' },
      { command: 'modifyClient', username: 'acme-app', clientid: 'locked', roles: [{ rolename: 'wide' }], groups: [{ groupname: 'g' }] },
      { command: 'disableClient', username: 'acme-app' },
    ]);
    expect(res.map((r) => r.error)).toEqual([undefined, undefined, undefined, undefined]);
    expect(await canConnect(broker.url, { username: 'acme-app', password: 'pw-app-1' })).toBe(false);
    expect((await adapter.observe('acme-app'))?.managedShape).toBe(false);
    const outcomes = await adapter.ensure({ username: 'acme-app', publish: ['acme/data/#', 'acme/status'], subscribe: ['acme/#'] });
    expect(outcomes.map((o) => o.result)).toEqual(['in-place', 'corrected']);
    expect((await adapter.observe('acme-app'))?.client).toEqual({ roles: ['acme-app'], groups: [], disabled: false, clientid: null });
    const c = await as('acme-app', 'pw-app-1');
    expect(await canPublish(c, 'beta/x')).toBe(false);
  });

  it('recreates a lost role and binds the client to it again', async () => {
    // Unbound first: Mosquitto 2.0 crashes on a later command when a role is deleted while a
    // client still holds it (eclipse-mosquitto/mosquitto#2660).
    const res = await admin.run([
      { command: 'removeClientRole', username: 'acme-d1', rolename: 'acme-d1' },
      { command: 'deleteRole', rolename: 'acme-d1' },
    ]);
    expect(res.map((r) => r.error)).toEqual([undefined, undefined]);
    const c = await as('acme-d1', 'pw-d1');
    expect(await canPublish(c, 'acme/log/d1')).toBe(false);
    const outcomes = await adapter.ensure({ username: 'acme-d1', publish: ['acme/log/d1', 'acme/telemetry/d1'], subscribe: ['acme/cmd/d1'] });
    expect(outcomes.map((o) => o.result)).toEqual(['created', 'corrected']);
    const again = await as('acme-d1', 'pw-d1');
    expect(await canPublish(again, 'acme/log/d1')).toBe(true);
  });
});

/**
 * Where no broker answers: a listener of the test's own (port 0, so no other process can be there)
 * that resets every connection it accepts, as a closed port refuses it.
 */
async function noBroker(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return { url: `mqtt://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('the test probe canConnect', () => {
  it('answers false for a refusal and throws when no broker is there, so a refusal assertion cannot pass on a dead broker', async () => {
    expect(await canConnect(broker.url, { username: 'nobody', password: 'wrong' })).toBe(false);
    const nothing = await noBroker();
    try {
      await expect(canConnect(nothing.url, { username: 'acme-app', password: 'pw-app-1' })).rejects.toThrow(/cannot tell whether acme-app may connect/);
    } finally {
      await nothing.close();
    }
  });
});

describe('passwords', () => {
  it("issuing again without a password keeps the broker's one and the current connection", async () => {
    const c = await as('acme-app', 'pw-app-1');
    const outcomes = await adapter.ensure({ username: 'acme-app', publish: ['acme/data/#', 'acme/status'], subscribe: ['acme/#'] });
    expect(outcomes.map((o) => o.result)).toEqual(['in-place', 'in-place']);
    expect(await canConnect(broker.url, { username: 'acme-app', password: 'pw-app-1' })).toBe(true);
    expect(c.connected).toBe(true);
  });

  it('a restore with the password the broker already has writes nothing and keeps the connection', async () => {
    const c = await as('acme-app', 'pw-app-1');
    const outcomes = await adapter.ensure({ username: 'acme-app', password: 'pw-app-1', publish: ['acme/data/#', 'acme/status'], subscribe: ['acme/#'] });
    expect(outcomes.map((o) => o.result)).toEqual(['in-place', 'in-place']);
    // A round trip after the broker took the change: the connection was not cut.
    expect(await canSubscribe(c, 'acme/#')).toBe(true);
    expect(c.connected).toBe(true);
  });

  it('a restore with another password sets it: the open connection is cut, the old one refused at the next', async () => {
    const held = await as('acme-app', 'pw-app-1');
    const cut = new Promise<void>((resolve) => held.once('close', () => resolve()));
    const outcomes = await adapter.ensure({ username: 'acme-app', password: 'pw-app-2', publish: ['acme/data/#', 'acme/status'], subscribe: ['acme/#'] });
    expect(outcomes.map((o) => o.result)).toEqual(['in-place', 'corrected']);
    expect(await canConnect(broker.url, { username: 'acme-app', password: 'pw-app-1' })).toBe(false);
    expect(await canConnect(broker.url, { username: 'acme-app', password: 'pw-app-2' })).toBe(true);
    await cut;
  });

  it('a client the broker lost comes back locked without a password, and opens on restore', async () => {
    await admin.run([{ command: 'deleteClient', username: 'acme-app' }]);
    const outcomes = await adapter.ensure({ username: 'acme-app', publish: ['acme/data/#', 'acme/status'], subscribe: ['acme/#'] });
    expect(outcomes[1]?.result).toBe('created');
    expect(outcomes[1]?.object).toMatch(/no password/);
    expect(await canConnect(broker.url, { username: 'acme-app', password: 'pw-app-2' })).toBe(false);
    await adapter.ensure({ username: 'acme-app', password: 'pw-app-2', publish: ['acme/data/#', 'acme/status'], subscribe: ['acme/#'] });
    expect(await canConnect(broker.url, { username: 'acme-app', password: 'pw-app-2' })).toBe(true);
  });
});

describe('changes and revocation', () => {
  it('changed patterns bite the open connection at once without cutting it: old topic refused, old subscription silent, new allowed', async () => {
    // Mosquitto checks every publish, subscribe and delivery against the client's role as it is
    // now (spec rule 6, as decisions.md reads it for this broker): nothing waits for a reconnect.
    await account('acme', 'mover', { publish: ['a'], subscribe: ['a'] }, 'pw-mover');
    await account('acme', 'feeder', { publish: ['a', 'b'], subscribe: [] }, 'pw-feeder');
    const feeder = await as('acme-feeder', 'pw-feeder');
    const current = await as('acme-mover', 'pw-mover');
    let closed = false;
    current.on('close', () => (closed = true));
    expect(await canSubscribe(current, 'acme/a')).toBe(true);
    expect(await receivedUntilControl(current, () => feeder.publishAsync('acme/a', 'before', { qos: 1 }), { client: feeder, topic: 'acme/a' })).toContain(
      'acme/a',
    );

    await adapter.ensure({ username: 'acme-mover', publish: ['acme/b'], subscribe: ['acme/b'] });
    expect(await canPublish(current, 'acme/a')).toBe(false);
    expect(await canPublish(current, 'acme/b')).toBe(true);
    expect(await canSubscribe(current, 'acme/b')).toBe(true);
    // Its subscription to acme/a is still there, but the broker no longer delivers on it.
    const got = await receivedUntilControl(current, () => feeder.publishAsync('acme/a', 'after', { qos: 1 }), { client: feeder, topic: 'acme/b' });
    expect(got).toEqual(['acme/b']);
    expect(closed).toBe(false);
    expect(current.connected).toBe(true);

    const next = await as('acme-mover', 'pw-mover');
    expect(await canSubscribe(next, 'acme/a')).toBe(false);
    expect(await canSubscribe(next, 'acme/b')).toBe(true);
    expect(await canPublish(next, 'acme/a')).toBe(false);
    expect(await canPublish(next, 'acme/b')).toBe(true);
    await adapter.remove('acme-feeder');
  });

  it('after remove the account cannot connect and its open connection is cut; remove again is fine', async () => {
    const held = await as('acme-mover', 'pw-mover');
    const cut = new Promise<void>((resolve) => held.once('close', () => resolve()));
    await adapter.remove('acme-mover');
    await cut;
    expect(await canConnect(broker.url, { username: 'acme-mover', password: 'pw-mover' })).toBe(false);
    expect(await adapter.observe('acme-mover')).toBeNull();
    await adapter.remove('acme-mover');
  });

  it("lists a tenant's accounts (clients and orphan roles) by prefix, not a longer tenant name's", async () => {
    await account('acme2', 'x', { publish: ['a'], subscribe: [] }, 'pw-x');
    await admin.run([{ command: 'createRole', rolename: 'acme-orphan' }]);
    expect(await adapter.listClients(tenantUsernamePrefix('acme'))).toEqual(['acme-app', 'acme-d1', 'acme-orphan']);
    for (const u of await adapter.listClients(tenantUsernamePrefix('acme'))) await adapter.remove(u);
    expect(await adapter.listClients(tenantUsernamePrefix('acme'))).toEqual([]);
    expect(await adapter.listClients(tenantUsernamePrefix('acme2'))).toEqual(['acme2-x']);
  });
});

describe('the control connection', () => {
  it('is bounded when nothing answers', async () => {
    const nothing = await noBroker();
    const dead = createDynsecAdapter({ url: nothing.url, adminUser: 'a', adminPassword: 'b', timeoutMs: 500 });
    try {
      const t = Date.now();
      await expect(dead.observe('acme-x')).rejects.toBeInstanceOf(BackendError);
      expect(Date.now() - t).toBeLessThan(2000);
    } finally {
      await dead.close();
      await nothing.close();
    }
  });

  it('reports refused admin credentials as not retryable, without the password', async () => {
    const bad = createDynsecAdapter({ url: broker.url, adminUser: broker.adminUser, adminPassword: 'wrong-secret', timeoutMs: 800 });
    const err = await bad.observe('acme-x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect((err as BackendError).retryable).toBe(false);
    expect((err as BackendError).message).not.toContain('wrong-secret');
    await bad.close();
  });

  it('reconnects after the broker restarts', async () => {
    const dir = broker.dir;
    const own = await startMosquitto({ dir: `${dir}-restart` });
    const a = createDynsecAdapter({ url: own.url, adminUser: own.adminUser, adminPassword: own.adminPassword, timeoutMs: 4000 });
    await a.ensure({ username: 'acme-r', password: 'pw-r', publish: ['acme/r'], subscribe: [] });
    await own.stop();
    const again = await startMosquitto({ dir: own.dir, port: own.port });
    try {
      expect((await a.observe('acme-r'))?.publish).toEqual(['acme/r']);
      expect(await canConnect(again.url, { username: 'acme-r', password: 'pw-r' })).toBe(true);
    } finally {
      await a.close();
      await again.stop();
      const { rm } = await import('node:fs/promises');
      await rm(own.dir, { recursive: true, force: true });
    }
  });
});

describe("the adapter as a worker binds it (its backend calls' pace and admission)", () => {
  it('sends no command for an attempt Temporal gave up on: the account it would have made never exists', async () => {
    const calls = workerBackendCalls({ backendCallsPerSecond: 0 } as Site);
    const bound = createDynsecAdapter({ url: broker.url, adminUser: broker.adminUser, adminPassword: broker.adminPassword, timeoutMs: 3000, calls });
    try {
      const spec = { username: brokerUsername('gone', 'app'), password: 'pw-gone-app', publish: [], subscribe: [] };
      const env = new MockActivityEnvironment();
      const attempt = env.run(async () => {
        await new Promise((r) => setTimeout(r, 50));
        return bound.ensure(spec);
      });
      env.cancel('TIMED_OUT');
      await expect(attempt).rejects.toThrow(/cancelled \(TIMED_OUT\)/);
      expect(await adapter.observe(spec.username)).toBeNull();
      // Outside an activity the same adapter makes it.
      await bound.ensure(spec);
      expect(await adapter.observe(spec.username)).not.toBeNull();
    } finally {
      await bound.close();
    }
  });
});
