import { randomUUID } from 'node:crypto';
import { connect, type MqttClient } from 'mqtt';

/**
 * A login to the broker as a tenant's device or workload logs in (MQTT v5, no reconnect, a clean
 * session): what the isolation check's broker probe presents, and what the tests log in with.
 * Rejects with the CONNACK error when refused, or when no CONNACK came within `timeoutMs` (mqtt.js
 * without reconnects only closes on a timeout or a dropped connection: said here).
 */
export function brokerLogin(
  url: string,
  creds: { username: string; password: string },
  opts: { timeoutMs: number; ca?: string; clientIdPrefix?: string },
): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const client = connect(url, {
      ...creds,
      protocolVersion: 5,
      clientId: `${opts.clientIdPrefix ?? 'login'}-${randomUUID()}`,
      reconnectPeriod: 0,
      connectTimeout: opts.timeoutMs,
      clean: true,
      // Always verified; a private CA replaces the public roots for this broker, as for the service's own connection.
      ...(opts.ca ? { ca: opts.ca, rejectUnauthorized: true } : {}),
    });
    const timer = setTimeout(() => {
      client.end(true);
      reject(new Error(`broker unreachable: no CONNACK in ${opts.timeoutMs} ms`));
    }, opts.timeoutMs + 500);
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
