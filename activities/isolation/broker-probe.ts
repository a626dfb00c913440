import { randomUUID } from 'node:crypto';
import { connect, type MqttClient } from 'mqtt';
import { CANARY_BROKER_ACCOUNT } from '../../core/canaries.js';
import type { ProbeAnswer, ProbeInput } from '../../contracts/isolation-check.js';
import type { ActivityDeps } from '../deps.js';
import { paced } from '../backend-pace.js';
import { canaryCredentials } from './credentials.js';
import { verdict } from './verdict.js';

/** MQTT v5's "not authorized" (0x87) and "topic filter/name invalid" as a refusal, in mqtt.js's words. */
const NOT_AUTHORIZED = /not authori[sz]ed|135/i;

/**
 * `broker.isolation-probe`: the credential's broker account logs in as a device would (MQTT v5),
 * publishes at QoS 1 and subscribes under the object's `<canary>/probe/`. Mosquitto answers a
 * denied publish with PUBACK 0x87 and a denied subscription with SUBACK 0x87, so neither needs a
 * wait for silence. Nothing is retained, so nothing stays to clean.
 */
export async function brokerProbe(deps: ActivityDeps, input: ProbeInput): Promise<ProbeAnswer> {
  const broker = deps.site.broker!;
  const [from, to] = await Promise.all([canaryCredentials(deps, input.credentialOf), canaryCredentials(deps, input.objectOf)]);
  const topic = `${to.identity.name}/probe/isolation`;
  // The login, the publish and the subscribe each take a slot of the site's bound on calls to the broker.
  await paced('broker');
  const client = await login(broker.url, broker.ca, `${from.identity.name}-${CANARY_BROKER_ACCOUNT}`, from.secrets.brokerPassword, deps.site.backendTimeoutMs);
  try {
    await paced('broker');
    const published = await client.publishAsync(topic, `probe by ${input.credentialOf}`, { qos: 1 }).then(
      () => true,
      (err: unknown) => (NOT_AUTHORIZED.test(String(err)) ? false : Promise.reject(err as Error)),
    );
    await paced('broker');
    const subscribed = await client.subscribeAsync(`${to.identity.name}/probe/#`, { qos: 1 }).then(
      (granted) => (granted[0]?.qos ?? 0x80) < 0x80,
      (err: unknown) => (NOT_AUTHORIZED.test(String(err)) ? false : Promise.reject(err as Error)),
    );
    return verdict('broker', 'broker account', input, [
      { what: `publish to ${topic}`, reached: published },
      { what: `subscribe to ${to.identity.name}/probe/#`, reached: subscribed },
    ]);
  } finally {
    await client.endAsync(true);
  }
}

function login(url: string, ca: string | undefined, username: string, password: string, timeoutMs: number): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const client = connect(url, {
      username,
      password,
      protocolVersion: 5,
      clientId: `isolation-${randomUUID()}`,
      reconnectPeriod: 0,
      connectTimeout: timeoutMs,
      clean: true,
      // Always verified; a private CA replaces the public roots for this broker, as for the service's own connection.
      ...(ca ? { ca, rejectUnauthorized: true } : {}),
    });
    const timer = setTimeout(() => {
      client.end(true);
      reject(new Error(`the broker did not answer the login within ${timeoutMs} ms`));
    }, timeoutMs + 500);
    client.once('connect', () => {
      clearTimeout(timer);
      client.removeAllListeners('error');
      client.on('error', () => {});
      resolve(client);
    });
    client.once('error', (err) => {
      clearTimeout(timer);
      client.end(true);
      reject(err);
    });
  });
}
