import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startPowerDns, startRecursor } from '../../apps/lab/servers/pdns.js';

// `npm start` keeps the servers' folders in the checkout (.lab/): a clone under a long folder name
// made the control socket's path longer than a UNIX socket may be, and the recursor exited.
describe('the lab DNS servers in a folder with a long path', () => {
  let base: string;
  afterAll(async () => {
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('start, and answer on their APIs', async () => {
    base = await mkdtemp(join(tmpdir(), 'pdns-long-'));
    const long = join(base, 'a-long-folder-name-for-a-fresh-clone-of-this-project', 'checkout', '.lab');
    expect(join(long, 'recursor', 'run', 'pdns_recursor.controlsocket').length).toBeGreaterThan(107);
    const auth = await startPowerDns({ dir: join(long, 'pdns') });
    const recursor = await startRecursor({ dir: join(long, 'recursor') });
    try {
      for (const s of [auth, recursor]) {
        const answer = await fetch(`${s.apiUrl}/servers/localhost`, { headers: { 'X-API-Key': s.apiKey } });
        expect(answer.status).toBe(200);
      }
    } finally {
      await Promise.all([auth.stop(), recursor.stop()]);
    }
  });
});
