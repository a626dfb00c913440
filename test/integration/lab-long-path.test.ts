import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKea } from '../../apps/lab/servers/kea.js';
import { startPowerDns, startRecursor } from '../../apps/lab/servers/pdns.js';

// `npm start` keeps the servers' folders in the checkout (.lab/): a clone under a long folder name
// made the control socket's path longer than a UNIX socket may be, and the recursor exited.
describe('the lab servers with UNIX sockets in a folder with a long path', () => {
  let base: string;
  const long = () => join(base, 'another-clone-with-a-long-folder-name-running-its-lab-as-a-user-would', 'checkout', '.lab');
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'lab-long-'));
  });
  afterAll(async () => {
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('start, and answer on their APIs', async () => {
    expect(join(long(), 'recursor', 'run', 'pdns_recursor.controlsocket').length).toBeGreaterThan(107);
    const auth = await startPowerDns({ dir: join(long(), 'pdns') });
    const recursor = await startRecursor({ dir: join(long(), 'recursor') });
    try {
      for (const s of [auth, recursor]) {
        const answer = await fetch(`${s.apiUrl}/servers/localhost`, { headers: { 'X-API-Key': s.apiKey } });
        expect(answer.status).toBe(200);
      }
    } finally {
      await Promise.all([auth.stop(), recursor.stop()]);
    }
  });

  it('Kea starts, and answers its control agent', async () => {
    const kea = await startKea({ dir: join(long(), 'kea'), subnets: [{ id: 1, subnet: '10.202.0.0/24' }] });
    try {
      const answer = await fetch(kea.controlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ command: 'config-get', service: ['dhcp4'] }),
      });
      expect(((await answer.json()) as { result: number }[])[0]!.result).toBe(0);
    } finally {
      await kea.stop();
    }
  });
});
