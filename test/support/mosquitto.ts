/**
 * The real Mosquitto for tests, plus MQTT v5 probes that tell what an account may really do:
 * MQTT v5 answers a refused subscribe with a SUBACK reason code and a refused QoS 1 publish with
 * a PUBACK reason code, so a test need not wait for silence to know it was denied.
 */
import { randomUUID } from 'node:crypto';
import { connect, type MqttClient } from 'mqtt';

export { startMosquitto, type RunningMosquitto, type MosquittoOptions } from '../../apps/lab/servers/mosquitto.js';

export interface Credentials {
  username: string;
  password: string;
}

/** Connect as the account (v5, no reconnect); rejects with the CONNACK error when refused. */
export function connectAs(url: string, creds: Credentials, timeoutMs = 3000): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const c = connect(url, {
      ...creds, protocolVersion: 5, clientId: `test-${randomUUID()}`, reconnectPeriod: 0, connectTimeout: timeoutMs, clean: true,
    });
    c.once('connect', () => { c.removeAllListeners('error'); c.on('error', () => {}); resolve(c); });
    c.once('error', (err) => { c.end(true); reject(err); });
  });
}

/** Whether the broker lets this account connect. */
export async function canConnect(url: string, creds: Credentials): Promise<boolean> {
  try {
    const c = await connectAs(url, creds);
    await c.endAsync(true);
    return true;
  } catch {
    return false;
  }
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

/** Collect what a client receives until stopped. */
export function collect(c: MqttClient): { messages: Array<{ topic: string; payload: string }>; stop(): void } {
  const messages: Array<{ topic: string; payload: string }> = [];
  const on = (topic: string, payload: Buffer) => { messages.push({ topic, payload: payload.toString() }); };
  c.on('message', on);
  return { messages, stop: () => { c.off('message', on); } };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
