import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKea } from '../../apps/lab/servers/kea.js';
import { startPowerDns, startRecursor } from '../../apps/lab/servers/pdns.js';
import { shortSocketDir } from '../../apps/lab/servers/children.js';
import { existsSync } from 'node:fs';

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
    // Their sockets went to short folders in the temporary directory, gone with the servers.
    expect(existsSync(shortSocketDir(join(long(), 'recursor', 'run')))).toBe(false);
    expect(existsSync(shortSocketDir(join(long(), 'pdns', 'run')))).toBe(false);
  });

  it('Kea starts, and answers its control agent', async () => {
    const kea = await startKea({ dir: join(long(), 'kea'), subnets: [{ id: 1, subnet: '10.202.0.0/24' }] });
    expect(existsSync(join(shortSocketDir(join(long(), 'kea')), 'dhcp4.sock'))).toBe(true);
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
    expect(existsSync(shortSocketDir(join(long(), 'kea')))).toBe(false);
  });
});
