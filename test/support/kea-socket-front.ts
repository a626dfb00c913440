import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { serveApp } from '../../apps/lab/simulators/serve.js';

/**
 * Not a newer Kea: a front over the lab's real Kea 2.2 control agent (Debian has no other Kea) that
 * answers the way the service meets kea-dhcp4's own HTTP control socket (`SITE_DHCP_CONTROL=server`,
 * Kea 3.0, which removed the agent): it takes each command itself (no `service` routing; the front
 * adds it for the agent behind) and answers with a list of one answer. Two behaviours of newer Kea
 * are played here, from Kea's own sources, and nothing else of them:
 * - while its memfile lease-file cleanup runs, kea-dhcp4 refuses config-set with `[ { "result": 1,
 *   "text": "Can not update configuration while lease file cleanup process is running." } ]`
 *   (kea src/bin/dhcp4/tests/http_control_socket_unittest.cc, configSetLFCRunning): `lfcRunning`;
 * - `hashes`: Kea 2.4 and later answer `config-hash-get` with `{hash}` and put the same `hash` beside
 *   `Dhcp4` in config-get answers (Kea's control-channel tests); the front computes one over Kea
 *   2.2's configuration (SHA-256 of its JSON: the service only compares it).
 */
export interface KeaSocketFront {
  url: string;
  /** Every command body received, as sent. */
  received: Array<Record<string, unknown>>;
  /** Refuse the next `times` config-set commands as Kea does while the LFC runs. */
  lfcRunning(times: number): void;
  close(): Promise<void>;
}

export async function startKeaSocketFront(
  agentUrl: string,
  auth: { user: string; password: string },
  opts: { hashes?: boolean } = {},
): Promise<KeaSocketFront> {
  let lfc = 0;
  const received: Array<Record<string, unknown>> = [];
  const toAgent = async (body: Record<string, unknown>) => {
    const res = await fetch(agentUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` },
      body: JSON.stringify({ ...body, service: ['dhcp4'] }),
    });
    return { status: res.status, answer: (await res.json()) as Array<{ result: number; arguments?: Record<string, unknown> }> };
  };
  const hashOf = (args: Record<string, unknown> | undefined) =>
    createHash('sha256')
      .update(JSON.stringify(args?.Dhcp4 ?? null))
      .digest('hex')
      .toUpperCase();
  const app = new Hono();
  app.post('/', async (c) => {
    const body = (await c.req.json()) as Record<string, unknown>;
    received.push(body);
    if (body.command === 'config-set' && lfc > 0) {
      lfc--;
      return c.json([{ result: 1, text: 'Can not update configuration while lease file cleanup process is running.' }]);
    }
    if (opts.hashes && body.command === 'config-hash-get') {
      const { answer } = await toAgent({ command: 'config-get' });
      return c.json([{ result: 0, arguments: { hash: hashOf(answer[0]?.arguments) } }]);
    }
    const { status, answer } = await toAgent(body);
    if (opts.hashes && body.command === 'config-get' && answer[0]?.result === 0)
      answer[0].arguments = { ...answer[0].arguments, hash: hashOf(answer[0].arguments) };
    return c.json(answer, status as 200);
  });
  const server = await serveApp(app);
  return {
    url: `${server.url}/`,
    received,
    lfcRunning: (times) => void (lfc = times),
    close: () => server.close(),
  };
}
