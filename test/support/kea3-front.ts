import { Hono } from 'hono';
import { serveApp } from '../../apps/lab/simulators/serve.js';

/**
 * Kea 3.x as the service meets it: kea-dhcp4 serves commands on its own HTTP control socket (the
 * control agent is gone), takes each command itself (no `service` routing) and answers with a
 * list of one answer; while its memfile lease-file cleanup runs it refuses config-set with
 * `[ { "result": 1, "text": "Can not update configuration while lease file cleanup process is
 * running." } ]` (kea src/bin/dhcp4/tests/http_control_socket_unittest.cc, configSetLFCRunning).
 * Built in front of the lab's real Kea 2.2 agent: each command is handed to kea-dhcp4 behind it.
 */
export interface Kea3Front {
  url: string;
  /** Every command body received, as sent. */
  received: Array<Record<string, unknown>>;
  /** Refuse the next `times` config-set commands as Kea does while the LFC runs. */
  lfcRunning(times: number): void;
  close(): Promise<void>;
}

export async function startKea3Front(agentUrl: string, auth: { user: string; password: string }): Promise<Kea3Front> {
  let lfc = 0;
  const received: Array<Record<string, unknown>> = [];
  const app = new Hono();
  app.post('/', async (c) => {
    const body = (await c.req.json()) as Record<string, unknown>;
    received.push(body);
    if (body.command === 'config-set' && lfc > 0) {
      lfc--;
      return c.json([{ result: 1, text: 'Can not update configuration while lease file cleanup process is running.' }]);
    }
    const res = await fetch(agentUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` },
      body: JSON.stringify({ ...body, service: ['dhcp4'] }),
    });
    return c.json(await res.json(), res.status as 200);
  });
  const server = await serveApp(app);
  return {
    url: `${server.url}/`,
    received,
    lfcRunning: (times) => void (lfc = times),
    close: () => server.close(),
  };
}
