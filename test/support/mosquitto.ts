/**
 * The real Mosquitto for tests, plus MQTT v5 probes that tell what an account may really do:
 * MQTT v5 answers a refused subscribe with a SUBACK reason code and a refused QoS 1 publish with
 * a PUBACK reason code, so a test need not wait for silence to know it was denied.
 */
import { readdir, readFile } from 'node:fs/promises';
import type { MqttClient } from 'mqtt';
import { expect } from 'vitest';
import { brokerLogin } from '../../backends/mosquitto/login.js';

export { startMosquitto, type RunningMosquitto, type MosquittoOptions } from '../../apps/lab/servers/mosquitto.js';

export interface Credentials {
  username: string;
  password: string;
}

/** Connect as the account (v5, no reconnect); rejects with the CONNACK error when refused. */
export function connectAs(url: string, creds: Credentials, timeoutMs = 3000): Promise<MqttClient> {
  return brokerLogin(url, creds, { timeoutMs, clientIdPrefix: 'test' });
}

/**
 * Whether a CONNACK error is the broker refusing these credentials (MQTT v5 reason codes 0x86
 * bad user name or password, 0x87 not authorized; v3 return codes 4 and 5), as opposed to the
 * broker not being there at all.
 */
export function isRefusal(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (code === 0x86 || code === 0x87 || code === 4 || code === 5) return true;
  return /not authori[sz]ed|bad user ?name or password/i.test(String((err as Error).message ?? err));
}

/**
 * Whether the broker lets this account connect: true when it does, false when the broker answers
 * with a refusal; anything else (connection refused, no answer) throws, so a refusal assertion
 * cannot pass because the broker is down.
 */
export async function canConnect(url: string, creds: Credentials): Promise<boolean> {
  let c: MqttClient;
  try {
    c = await connectAs(url, creds);
  } catch (err) {
    if (isRefusal(err)) return false;
    throw new Error(`cannot tell whether ${creds.username} may connect: ${String((err as Error).message ?? err)}`, { cause: err });
  }
  await c.endAsync(true);
  return true;
}

/** Whether a subscription is granted (SUBACK reason code below 0x80). */
export async function canSubscribe(c: MqttClient, filter: string): Promise<boolean> {
  try {
    const granted = await c.subscribeAsync(filter, { qos: 1 });
    return (granted[0]?.qos ?? 0x80) < 0x80;
  } catch (err) {
    // mqtt.js turns a v5 SUBACK failure code into an error.
    if (/not authori[sz]ed/i.test(String((err as Error).message ?? err))) return false;
    throw err;
  }
}

/** Whether a QoS 1 publish is accepted (Mosquitto answers a denied one with PUBACK 0x87). */
export async function canPublish(c: MqttClient, topic: string, message = 'probe'): Promise<boolean> {
  try {
    await c.publishAsync(topic, message, { qos: 1 });
    return true;
  } catch (err) {
    if (/not authori[sz]ed|135/i.test(String((err as Error).message ?? err))) return false;
    throw err;
  }
}

/** Whether the broker lets `c` subscribe to each filter, as `want` says: tried in order, one after another. */
export async function expectSubscribes(c: MqttClient, want: Record<string, boolean>): Promise<void> {
  for (const [filter, ok] of Object.entries(want)) expect(await canSubscribe(c, filter), `subscribe ${filter}`).toBe(ok);
}

/** Whether the broker accepts a publish of `c` to each topic, as `want` says: tried in order, one after another. */
export async function expectPublishes(c: MqttClient, want: Record<string, boolean>): Promise<void> {
  for (const [topic, ok] of Object.entries(want)) expect(await canPublish(c, topic), `publish ${topic}`).toBe(ok);
}

/** Collect what a client receives until stopped. */
export function collect(c: MqttClient): { messages: Array<{ topic: string; payload: string }>; stop(): void } {
  const messages: Array<{ topic: string; payload: string }> = [];
  const on = (topic: string, payload: Buffer) => {
    messages.push({ topic, payload: payload.toString() });
  };
  c.on('message', on);
  return {
    messages,
    stop: () => {
      c.off('message', on);
    },
  };
}

/**
 * The topics `receiver` got while `act` ran (publishes that may be refused), fenced by a positive
 * control: then `control.client` publishes to `control.topic`, which the receiver must get. Once
 * the control has arrived, anything `act` let through has arrived too: Mosquitto routes a QoS 1
 * publish to its subscribers before it acknowledges it, and delivers to one client in order.
 */
export async function receivedUntilControl(
  receiver: MqttClient,
  act: () => Promise<unknown>,
  control: { client: MqttClient; topic: string },
  timeoutMs = 5000,
): Promise<string[]> {
  const got = collect(receiver);
  try {
    await act();
    await control.client.publishAsync(control.topic, 'control', { qos: 1 });
    const deadline = Date.now() + timeoutMs;
    while (!got.messages.some((m) => m.topic === control.topic)) {
      if (Date.now() > deadline) throw new Error(`the positive control on ${control.topic} never arrived`);
      await sleep(10);
    }
    return got.messages.map((m) => m.topic);
  } finally {
    got.stop();
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The Mosquitto process started with the config in `dir` (a lab's or a test's own broker). */
async function brokerPid(dir: string): Promise<number> {
  const conf = `${dir}/mosquitto.conf`;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmd = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmd.split('\0').includes(conf)) return Number(entry);
  }
  throw new Error('broker process not found');
}

/** The broker stops answering (its connections stay open) while `during` runs. */
export async function pausingBroker<T>(dir: string, during: () => Promise<T>): Promise<T> {
  const pid = await brokerPid(dir);
  process.kill(pid, 'SIGSTOP');
  try {
    return await during();
  } finally {
    process.kill(pid, 'SIGCONT');
  }
}
