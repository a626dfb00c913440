import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporalCli } from '../../temporal/dev-server.js';
import { describe, expect, it } from 'vitest';
import { stateAccessKey } from '../../core/identity.js';
import { pausingBroker } from '../support/mosquitto.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { RECORDING_CODEC_KEY } from './codec-key.js';
import { HISTORIES, treeRelease } from './releases.js';

/**
 * Records one history of every workflow type, in the shapes that matter (a create failed then
 * resumed, a delete failed then resumed, ...), into test/replay/histories/<release>/ (the release
 * this tree builds, test/replay/releases.ts), for the replay test
 * (test/contract/workflow-replay.test.ts). Run it after a deliberate change of workflow code, with
 * `npm run histories:record`, and commit what it writes: it replaces the folder of this release,
 * whose runs exist nowhere before it ships, and leaves the earlier releases' alone, which hold the
 * runs a site has in flight (docs/decisions.md, the release rule).
 *
 * Payloads are encrypted with a fixed test codec key (saved beside the histories), so the replay
 * decodes them through the codec exactly as a worker does.
 */
const DIR = join(HISTORIES, treeRelease());
const PARKED_S = 20;

describe('recording workflow histories', () => {
  it('runs every workflow type through the HTTP API and saves its history', { timeout: 300_000 }, async () => {
    // A short parked timeout, so a run parked after its failed step is seen to end (PARKED_RUN_TIMEOUT).
    const site = await startTestSite({ backendTimeoutMs: 1500, env: { TEMPORAL_CODEC_KEY: RECORDING_CODEC_KEY, PARKED_RUN_TIMEOUT: `${PARKED_S}s` } });
    try {
      await scenarios(site);
      rmSync(DIR, { recursive: true, force: true });
      mkdirSync(DIR, { recursive: true });
      let n = 0;
      for await (const w of site.client.workflow.list()) {
        // As an engineer exports a history for replay: `temporal workflow show -o json` (payloads as stored).
        const history = execFileSync(temporalCli(process.cwd()), ['workflow', 'show', '-w', w.workflowId, '-r', w.runId, '-o', 'json'], {
          env: { ...process.env, TEMPORAL_ADDRESS: site.config.env.TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE: site.namespace },
          maxBuffer: 64 * 1024 * 1024,
        }).toString();
        const file = `${w.type}--${w.workflowId.replace(/[^a-z0-9-]+/gi, '_')}--${w.runId}.json`;
        writeFileSync(join(DIR, file), JSON.stringify({ workflowId: w.workflowId, type: w.type, history: JSON.parse(history) }) + '\n');
        n++;
      }
      expect(n).toBeGreaterThan(15);
    } finally {
      await site.stop();
    }
  });
});

async function scenarios(site: TestSite): Promise<void> {
  const ok = async (method: string, path: string, body: unknown, status: number[]) => {
    const r = await site.call(method, path, body === undefined ? {} : { body });
    if (!status.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
    return r;
  };
  const failing = async <T>(faults: { add(p: object): void; clear(): void }, plan: object, work: () => Promise<T>) => {
    faults.add(plan);
    try {
      return await work();
    } finally {
      faults.clear();
    }
  };
  const b = site.backends;
  // Tenant create; create failed at state, then resumed; reconcile.
  await ok('POST', '/v1/tenants', { name: 'acme' }, [201]);
  await failing(b.minio.faults, { failNext: 1000, match: '/minio/admin' }, () => ok('POST', '/v1/tenants', { name: 'fail' }, [502]));
  await ok('POST', '/v1/tenants', { name: 'fail' }, [200]);
  await ok('POST', '/v1/tenants/acme/reconcile', undefined, [200]);
  await ok('POST', '/v1/tenants/acme/reconcile?plan=true', undefined, [200]);
  // Workloads, records, devices with a fixed address, Wi-Fi keys, broker accounts, an admission.
  await ok('POST', '/v1/tenants/acme/workloads', { name: 'web' }, [201]);
  await ok('PUT', '/v1/tenants/acme/records/www', { address: '10.128.1.50' }, [200]);
  await ok('DELETE', '/v1/tenants/acme/records/www', undefined, [204]);
  await ok('DELETE', '/v1/tenants/acme/workloads/web', undefined, [204]);
  await ok('POST', '/v1/tenants/acme/devices', { name: 'probe1', trust_class: 'sensor', mac: 'aa:bb:cc:dd:ee:01' }, [201]);
  await ok('POST', '/v1/tenants/acme/devices/probe1/address', {}, [201]);
  await ok('POST', '/v1/tenants/acme/devices', { name: 'probe1', trust_class: 'sensor', mac: 'aa:bb:cc:dd:ee:02' }, [200, 201]);
  await ok('DELETE', '/v1/tenants/acme/devices/probe1/address', undefined, [204]);
  await ok('POST', '/v1/tenants/acme/wifi-keys', { name: 'sensors', trust_class: 'sensor' }, [201]);
  await ok('DELETE', '/v1/tenants/acme/wifi-keys/sensors', undefined, [204]);
  await ok('POST', '/v1/tenants/acme/broker-accounts', { name: 'probe1', publish: ['data/#'], subscribe: [] }, [201]);
  await ok('DELETE', '/v1/tenants/acme/broker-accounts/probe1', undefined, [204]);
  await ok('POST', '/v1/admissions', { name: 'newbie' }, [201]);
  // Every object's run failed at one step, parked, then resumed by the repeat (the run model).
  await ok('POST', '/v1/tenants/acme/workloads', { name: 'flaky' }, [201]);
  const dnsWrites = { failNext: 1000, method: 'PATCH' };
  await failing(b.proxmox.faults, { failNext: 1000, match: '/clone', method: 'POST' }, () => ok('POST', '/v1/tenants/acme/workloads', { name: 'app' }, [502]));
  await ok('POST', '/v1/tenants/acme/workloads', { name: 'app' }, [201]);
  await failing(b.proxmox.faults, { failNext: 1000, match: '/qemu/', method: 'DELETE' }, () =>
    ok('DELETE', '/v1/tenants/acme/workloads/app', undefined, [502]),
  );
  await ok('DELETE', '/v1/tenants/acme/workloads/app', undefined, [204]);
  await failing(b.pdns.faults, dnsWrites, () => ok('PUT', '/v1/tenants/acme/records/api', { address: '10.128.1.51' }, [502]));
  await ok('PUT', '/v1/tenants/acme/records/api', { address: '10.128.1.51' }, [200]);
  await failing(b.pdns.faults, dnsWrites, () => ok('DELETE', '/v1/tenants/acme/records/api', undefined, [502]));
  await ok('DELETE', '/v1/tenants/acme/records/api', undefined, [204]);
  await ok('POST', '/v1/tenants/acme/devices', { name: 'probe2', trust_class: 'sensor', mac: 'aa:bb:cc:dd:ee:03' }, [201]);
  await failing(b.pdns.faults, dnsWrites, () => ok('POST', '/v1/tenants/acme/devices/probe2/address', {}, [502]));
  await ok('POST', '/v1/tenants/acme/devices/probe2/address', {}, [201]);
  await failing(b.pdns.faults, dnsWrites, () => ok('DELETE', '/v1/tenants/acme/devices/probe2/address', undefined, [502]));
  await ok('DELETE', '/v1/tenants/acme/devices/probe2/address', undefined, [204]);
  const wlan = { failNext: 1000, method: 'PUT', match: 'wlanconf' };
  await failing(b.unifi!.faults, wlan, () => ok('POST', '/v1/tenants/acme/wifi-keys', { name: 'cams', trust_class: 'sensor' }, [502]));
  await ok('POST', '/v1/tenants/acme/wifi-keys', { name: 'cams', trust_class: 'sensor' }, [201]);
  await failing(b.unifi!.faults, wlan, () => ok('DELETE', '/v1/tenants/acme/wifi-keys/cams', undefined, [502]));
  await ok('DELETE', '/v1/tenants/acme/wifi-keys/cams', undefined, [204]);
  await failing(b.unifi!.faults, wlan, () => ok('POST', '/v1/admissions', { name: 'second' }, [502]));
  await ok('POST', '/v1/admissions', { name: 'second' }, [201]);
  const paused = <T>(work: () => Promise<T>) => pausingBroker(b.mosquitto!.dir, work);
  await paused(() => ok('POST', '/v1/tenants/acme/broker-accounts', { name: 'app', publish: ['data/#'], subscribe: [] }, [502]));
  await ok('POST', '/v1/tenants/acme/broker-accounts', { name: 'app', publish: ['data/#'], subscribe: [] }, [201]);
  await paused(() => ok('DELETE', '/v1/tenants/acme/broker-accounts/app', undefined, [502]));
  await ok('DELETE', '/v1/tenants/acme/broker-accounts/app', undefined, [204]);
  await ok('DELETE', '/v1/tenants/acme/workloads/flaky', undefined, [204]);
  // The sweep and its children.
  await site.client.workflow.execute('reconcileSweep', { workflowId: 'reconcile-sweep', taskQueue: site.config.env.TEMPORAL_TASK_QUEUE });
  await site.client.workflow.execute('reconcileSweep', {
    workflowId: 'reconcile-sweep-plan',
    taskQueue: site.config.env.TEMPORAL_TASK_QUEUE,
    args: [{ mode: 'plan' }],
  });
  // The isolation check: the first makes its canaries; one that finds a crossing (canarya's MinIO user mapped to readwrite).
  await ok('POST', '/v1/isolation-checks', undefined, [200]);
  const canary = b.minio.state.users.get(stateAccessKey('canarya'))!;
  canary.policies.push('readwrite');
  await ok('POST', '/v1/isolation-checks', undefined, [200]);
  canary.policies.pop();
  // Delete refused while the fabric carries the zone; then failed at dns and resumed.
  await ok('DELETE', '/v1/tenants/fail', undefined, [409]);
  b.proxmox.removeTenantNetwork('fail');
  await failing(b.pdns.faults, { failNext: 1000, match: '/zones' }, () => ok('DELETE', '/v1/tenants/fail', undefined, [502]));
  await ok('DELETE', '/v1/tenants/fail', undefined, [204]);
  // A tenant the registry lost restores itself, and hears what the backends still hold of it.
  const lost = await ok('POST', '/v1/tenants', { name: 'lost' }, [201]);
  await ok('POST', '/v1/tenants/lost/broker-accounts', { name: 'app', publish: ['data/#'], subscribe: [] }, [201]);
  await site.registry.sql`delete from broker_accounts where tenant = 'lost'`;
  await site.registry.sql`delete from tenants where name = 'lost'`;
  const secrets = { tsig_secret: lost.body.dns.tsig_secret, state_secret: lost.body.state.secret_key, api_token: lost.body.api_token };
  await ok('POST', '/v1/tenants', { name: 'lost', ...secrets }, [201]);

  // A run that waits for the tenant's lease: a workload create while a slowed reconcile holds the tenant.
  b.proxmox.faults.add({ latencyMs: 300 });
  try {
    const holder = ok('POST', '/v1/tenants/acme/reconcile', undefined, [200]);
    await new Promise((r) => setTimeout(r, 400));
    await Promise.all([holder, ok('POST', '/v1/tenants/acme/workloads', { name: 'waiter' }, [201])]);
  } finally {
    b.proxmox.faults.clear();
  }
  // A run parked after its failed step and never repeated: it ends Failed at the parked timeout;
  // another parked one is cancelled by an engineer.
  const clone = { failNext: 1000, match: '/clone', method: 'POST' };
  await failing(b.proxmox.faults, clone, () => ok('POST', '/v1/tenants/acme/workloads', { name: 'parked' }, [502]));
  await failing(b.proxmox.faults, clone, () => ok('POST', '/v1/tenants/acme/workloads', { name: 'cancel' }, [502]));
  await site.client.workflow.getHandle('workload-create/acme/cancel').cancel();
  const closed = async (id: string) => {
    for (let i = 0; i < (PARKED_S + 30) * 4; i++) {
      if ((await site.client.workflow.getHandle(id).describe()).status.name !== 'RUNNING') return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${id} still running`);
  };
  await closed('workload-create/acme/cancel');
  await closed('workload-create/acme/parked');
}
