import { CANARY_BROKER_ACCOUNT } from '../../core/canaries.js';
import type { ProbeAnswer, ProbeInput } from '../../contracts/isolation-check.js';
import type { ActivityDeps } from '../deps.js';
import { brokerLogin } from '../../backends/mosquitto/login.js';
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
  await deps.calls.paced('broker');
  const client = await brokerLogin(
    broker.url,
    { username: `${from.identity.name}-${CANARY_BROKER_ACCOUNT}`, password: from.secrets.brokerPassword },
    { timeoutMs: deps.site.backendTimeoutMs, ca: broker.ca, clientIdPrefix: 'isolation' },
  );
  try {
    await deps.calls.paced('broker');
    const published = await client.publishAsync(topic, `probe by ${input.credentialOf}`, { qos: 1 }).then(
      () => true,
      (err: unknown) => (NOT_AUTHORIZED.test(String(err)) ? false : Promise.reject(err as Error)),
    );
    await deps.calls.paced('broker');
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
