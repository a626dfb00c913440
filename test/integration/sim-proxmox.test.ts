import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { type ProxmoxSimulator } from '../../apps/lab/simulators/proxmox/index.js';
import { twoNodeProxmoxSimulator } from '../support/pve-lab.js';

// Fidelity of the Proxmox VE simulator to the documented wire API (sources in its index.ts).

const TOKEN_ID = 'svc@pve!provision';
const SECRET = '5f0c4c1e-6a51-4d51-9d3e-0d6f1d9c2a10';
const AUTH = `PVEAPIToken=${TOKEN_ID}=${SECRET}`;
const UPID_RE = /^UPID:pve1:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:[a-z]+:[^:]*:svc@pve!provision:$/;

let sim: ProxmoxSimulator;
let server: RunningServer;

interface Answer {
  status: number;
  statusText: string;
  text: string;
  body: { data?: unknown; message?: string; errors?: Record<string, string> };
}

async function pve(
  method: string,
  path: string,
  params?: Record<string, string | number>,
  opts: { json?: boolean; auth?: string | null } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.auth !== null) headers.authorization = opts.auth ?? AUTH;
  let body: string | undefined;
  let url = `${server.url}/api2/json${path}`;
  if (params && (method === 'POST' || method === 'PUT')) {
    headers['content-type'] = opts.json ? 'application/json' : 'application/x-www-form-urlencoded';
    body = opts.json ? JSON.stringify(params) : new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
  } else if (params) {
    url += `?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`;
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  return { status: res.status, statusText: res.statusText, text, body: text ? JSON.parse(text) : {} };
}

async function waitTask(upid: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const s = await pve('GET', `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`);
    const data = s.body.data as Record<string, unknown>;
    if (data.status === 'stopped') return data;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`task ${upid} never stopped`);
}

beforeAll(async () => {
  sim = twoNodeProxmoxSimulator(
    { id: TOKEN_ID, secret: SECRET },
    [
      { vmid: 9000, name: 'tmpl-debian-12', diskGb: 8 },
      { vmid: 9010, name: 'tmpl-shared', diskGb: 8, storage: 'ceph' },
    ],
    150,
  );
  server = await serveApp(sim.app);
});
afterAll(async () => server?.close());

describe('authentication (API tokens)', () => {
  const rows = [
    { reason: 'no Authorization header', auth: null, reason401: 'No ticket' },
    { reason: 'wrong secret', auth: `PVEAPIToken=${TOKEN_ID}=00000000-0000-0000-0000-000000000000`, reason401: 'invalid token value!' },
    { reason: 'unknown token id', auth: `PVEAPIToken=svc@pve!other=${SECRET}`, reason401: "no such token 'other' for user 'svc@pve'" },
    { reason: 'a ticket-style header is not a token', auth: `Bearer ${SECRET}`, reason401: 'No ticket' },
  ];
  for (const row of rows) {
    it(`refuses with 401 and the reason in the status line: ${row.reason}`, async () => {
      const a = await pve('GET', '/nodes/pve1/qemu', undefined, { auth: row.auth });
      expect(a.status).toBe(401);
      expect(a.statusText).toBe(row.reason401);
      expect(a.text).toBe('');
    });
  }

  it('accepts the configured token', async () => {
    expect((await pve('GET', '/version')).status).toBe(200);
  });
});

describe('envelopes and error shapes', () => {
  it('wraps answers in {"data": ...} and lists templates with template: 1', async () => {
    const a = await pve('GET', '/nodes/pve1/qemu');
    expect(a.status).toBe(200);
    expect(a.body.data).toEqual([
      expect.objectContaining({ vmid: 9000, name: 'tmpl-debian-12', status: 'stopped', template: 1 }),
      expect.objectContaining({ vmid: 9010, name: 'tmpl-shared', template: 1 }),
    ]);
  });

  it('an unknown VM is a 500 naming its config file, in the status line and in message', async () => {
    const a = await pve('GET', '/nodes/pve1/qemu/4242/config');
    expect(a.status).toBe(500);
    expect(a.statusText).toBe("Configuration file 'nodes/pve1/qemu-server/4242.conf' does not exist");
    expect(a.body).toEqual({ data: null, message: "Configuration file 'nodes/pve1/qemu-server/4242.conf' does not exist\n" });
  });

  it('bad parameters are a 400 with an errors object keyed by parameter', async () => {
    const a = await pve('POST', '/nodes/pve1/qemu/9000/clone', { newid: 'abc', colour: 'blue' });
    expect(a.status).toBe(400);
    expect(a.statusText).toBe('Parameter verification failed.');
    expect(a.body.data).toBeNull();
    expect(a.body.errors).toEqual({
      newid: "type check ('integer') failed - got 'abc'",
      colour: 'property is not defined in schema and the schema does not allow additional properties',
    });
  });

  it('a missing required parameter is named', async () => {
    const a = await pve('POST', '/cluster/sdn/zones', { type: 'evpn', zone: 'zz' });
    expect(a.status).toBe(400);
    expect(a.body.errors).toEqual({ controller: 'property is missing and it is not optional', 'vrf-vxlan': 'property is missing and it is not optional' });
  });

  it('an unknown path is a 501', async () => {
    const a = await pve('GET', '/nodes/pve1/lxc');
    expect(a.status).toBe(501);
    expect(a.body.message).toBe("Method 'GET /nodes/pve1/lxc' not implemented\n");
  });

  it('an unknown node fails the hostname lookup', async () => {
    const a = await pve('GET', '/nodes/pve9/qemu');
    expect(a.status).toBe(500);
    expect(a.statusText).toMatch(/^hostname lookup 'pve9' failed/);
  });
});

describe('tasks', () => {
  it('returns a UPID whose task runs, then stops with exitstatus OK', async () => {
    sim.state.taskTiming.stall.add('qmclone');
    try {
      const a = await pve('POST', '/nodes/pve1/qemu/9000/clone', { newid: 301, name: 'clone-a', full: 1 });
      const upid = a.body.data as string;
      expect(upid).toMatch(UPID_RE);
      expect(upid.split(':')[5]).toBe('qmclone');
      const running = await pve('GET', `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`);
      expect(running.body.data).toMatchObject({ upid, status: 'running', type: 'qmclone', id: '9000', user: 'svc@pve', tokenid: 'provision', node: 'pve1' });
      expect(running.body.data).not.toHaveProperty('exitstatus');
      // While the copy runs the target's config is qemu-server's temporary file (API2/Qemu.pm
      // clone_vm: "# qmclone temporary file\nlock: clone\n"): locked, nothing else.
      expect(sim.state.vms.get(301)?.config).toEqual({ lock: 'clone', digest: expect.any(String) });
      const locked = await pve('POST', '/nodes/pve1/qemu/301/status/start');
      expect(await waitTask(locked.body.data as string)).toMatchObject({ exitstatus: 'VM is locked (clone)' });
      const destroy = await pve('DELETE', '/nodes/pve1/qemu/301');
      expect([destroy.status, destroy.body.message]).toEqual([500, 'VM is locked (clone)\n']);
      sim.state.taskTiming.stall.clear();
      sim.releaseTasks();
      expect(await waitTask(upid)).toMatchObject({ status: 'stopped', exitstatus: 'OK' });
      expect(sim.state.vms.get(301)?.config.lock).toBeUndefined();
      expect(sim.state.vms.get(301)?.config.name).toBe('clone-a');
    } finally {
      sim.state.taskTiming.stall.clear();
      sim.releaseTasks();
    }
  });

  it('a failed clone unlinks its target and dies "clone failed: ..." (qemu-server clone_vm)', async () => {
    sim.state.taskTiming.failures.set('qmclone', "storage 'local-lvm' is full");
    try {
      const a = await pve('POST', '/nodes/pve1/qemu/9000/clone', { newid: 302, name: 'clone-b', full: 1 });
      expect(await waitTask(a.body.data as string)).toMatchObject({ exitstatus: "clone failed: storage 'local-lvm' is full" });
      expect(sim.state.vms.has(302)).toBe(false);
    } finally {
      sim.state.taskTiming.failures.clear();
    }
  });

  it('a task type given a duration runs that long (set over HTTP for the lab)', async () => {
    const set = await fetch(`${server.url}/__lab/proxmox/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ durations: { qmclone: 400 } }),
    });
    expect(((await set.json()) as { durations: unknown }).durations).toEqual({ qmclone: 400 });
    try {
      // Timed from before the request: however slow the machine, the task cannot end sooner.
      const t0 = Date.now();
      const upid = (await pve('POST', '/nodes/pve1/qemu/9000/clone', { newid: 303, name: 'clone-c', full: 1 })).body.data as string;
      expect((await pve('GET', `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`)).body.data).toMatchObject({ status: 'running' });
      expect(await waitTask(upid)).toMatchObject({ exitstatus: 'OK' });
      expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
    } finally {
      await fetch(`${server.url}/__lab/proxmox/tasks`, { method: 'DELETE' });
    }
    expect(sim.state.taskTiming.durations.size).toBe(0);
  });

  it('an unknown UPID is a parameter error', async () => {
    const bogus = await pve('GET', `/nodes/pve1/tasks/${encodeURIComponent('UPID:pve1:00000001:00000001:00000001:qmstart:1:svc@pve!provision:')}/status`);
    expect(bogus.status).toBe(400);
    expect(bogus.body.errors).toEqual({ upid: 'no such task' });
    const garbage = await pve('GET', '/nodes/pve1/tasks/nonsense/status');
    expect(garbage.body.errors).toEqual({ upid: 'unable to parse worker upid' });
  });

  it('a stalled task type stays running until released', async () => {
    sim.state.taskTiming.stall.add('qmstop');
    const upid = (await pve('POST', '/nodes/pve1/qemu/301/status/stop')).body.data as string;
    await new Promise((r) => setTimeout(r, 40));
    expect((await pve('GET', `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`)).body.data).toMatchObject({ status: 'running' });
    sim.state.taskTiming.stall.clear();
    sim.releaseTasks();
    expect(await waitTask(upid)).toMatchObject({ exitstatus: 'OK' });
  });
});

describe('QEMU', () => {
  it('clone refuses an existing newid and storage on a linked clone', async () => {
    const exists = await pve('POST', '/nodes/pve1/qemu/9000/clone', { newid: 301 });
    expect(exists.status).toBe(500);
    expect(exists.statusText).toBe('unable to create VM 301: config file already exists');
    const linked = await pve('POST', '/nodes/pve1/qemu/9000/clone', { newid: 302, full: 0, storage: 'local-lvm' });
    expect(linked.statusText).toBe("parameter 'storage' not allowed for linked clones");
  });

  it('a full clone gets its own disk of the template size and a fresh MAC', async () => {
    const cfg = (await pve('GET', '/nodes/pve1/qemu/301/config')).body.data as Record<string, unknown>;
    const tpl = (await pve('GET', '/nodes/pve1/qemu/9000/config')).body.data as Record<string, unknown>;
    expect(cfg.scsi0).toMatch(/^local-lvm:vm-301-disk-0,.*size=8G$/);
    expect(cfg.net0).not.toBe(tpl.net0);
    expect(cfg).not.toHaveProperty('template');
    expect(cfg.digest).toMatch(/^[0-9a-f]{40}$/);
  });

  it('PUT config is synchronous, POST config is a qmconfig task; JSON bodies work like forms', async () => {
    const put = await pve('PUT', '/nodes/pve1/qemu/301/config', { cores: 4, memory: '4096' }, { json: true });
    expect(put.body).toEqual({ data: null });
    expect(sim.state.vms.get(301)?.config.cores).toBe('4');
    const post = await pve('POST', '/nodes/pve1/qemu/301/config', {
      net0: 'virtio=02:00:00:00:01:2d,bridge=vmbr0',
      ipconfig0: 'ip=10.128.5.10/24,gw=10.128.5.1',
      ciuser: 'tenant',
    });
    expect(post.body.data).toMatch(/:qmconfig:301:/);
    expect(await waitTask(post.body.data as string)).toMatchObject({ exitstatus: 'OK' });
    const cfg = (await pve('GET', '/nodes/pve1/qemu/301/config')).body.data as Record<string, unknown>;
    expect(cfg).toMatchObject({
      cores: 4,
      memory: '4096',
      net0: 'virtio=02:00:00:00:01:2d,bridge=vmbr0',
      ipconfig0: 'ip=10.128.5.10/24,gw=10.128.5.1',
      ciuser: 'tenant',
    });
  });

  it('sshkeys must be URL-encoded', async () => {
    const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ2n4mYkqCgs7bKp0p3TnDLgH5x1ZyB3aWq0f2G8s9vX alice@example';
    const raw = await pve('PUT', '/nodes/pve1/qemu/301/config', { sshkeys: key });
    expect(raw.status).toBe(400);
    expect(raw.body.errors?.sshkeys).toMatch(/^invalid urlencoded string/);
    const notAKey = await pve('PUT', '/nodes/pve1/qemu/301/config', { sshkeys: encodeURIComponent('hello world') });
    expect(notAKey.status).toBe(500);
    expect(notAKey.statusText).toBe('SSH public key validation error');
    // PVE runs each line but blank ones through `ssh-keygen -l` (validate_ssh_public_keys): a key
    // of the right shape whose data is no key, or a comment line, is refused as "hello world" is.
    for (const line of ['ssh-ed25519 AAAA alice@example', `${key}\n# a comment line`, `ssh-rsa ${key.split(' ')[1]}`]) {
      const refused = await pve('PUT', '/nodes/pve1/qemu/301/config', { sshkeys: encodeURIComponent(line) });
      expect([refused.status, refused.statusText], line).toEqual([500, 'SSH public key validation error']);
    }
    const good = await pve('PUT', '/nodes/pve1/qemu/301/config', { sshkeys: encodeURIComponent(`${key}\n\n  \n`) });
    expect(good.status).toBe(200);
    expect(decodeURIComponent(sim.state.vms.get(301)!.config.sshkeys!)).toBe(`${key}\n\n  \n`);
  });

  it('resize grows with +NG or NG and refuses to shrink in the task', async () => {
    const grow = await pve('PUT', '/nodes/pve1/qemu/301/resize', { disk: 'scsi0', size: '+2G' });
    expect(await waitTask(grow.body.data as string)).toMatchObject({ type: 'resize', exitstatus: 'OK' });
    const abs = await pve('PUT', '/nodes/pve1/qemu/301/resize', { disk: 'scsi0', size: '12G' });
    await waitTask(abs.body.data as string);
    expect(sim.state.vms.get(301)!.config.scsi0).toMatch(/size=12G$/);
    const shrink = await pve('PUT', '/nodes/pve1/qemu/301/resize', { disk: 'scsi0', size: '4G' });
    expect(shrink.status).toBe(200);
    expect(await waitTask(shrink.body.data as string)).toMatchObject({ status: 'stopped', exitstatus: 'shrinking disks is not supported' });
    expect(sim.state.vms.get(301)!.config.scsi0).toMatch(/size=12G$/);
    const badSize = await pve('PUT', '/nodes/pve1/qemu/301/resize', { disk: 'scsi0', size: '-4G' });
    expect(badSize.body.errors).toEqual({ size: 'value does not match the regex pattern' });
  });

  it('start fails in the task when the bridge does not exist; status/current follows power', async () => {
    await pve('PUT', '/nodes/pve1/qemu/301/config', { net0: 'virtio=02:00:00:00:01:2d,bridge=tv05' });
    const bad = await pve('POST', '/nodes/pve1/qemu/301/status/start');
    expect(await waitTask(bad.body.data as string)).toMatchObject({ type: 'qmstart', exitstatus: "bridge 'tv05' does not exist" });
    await pve('PUT', '/nodes/pve1/qemu/301/config', { net0: 'virtio=02:00:00:00:01:2d,bridge=vmbr0' });
    await waitTask((await pve('POST', '/nodes/pve1/qemu/301/status/start')).body.data as string);
    expect((await pve('GET', '/nodes/pve1/qemu/301/status/current')).body.data).toMatchObject({ vmid: 301, status: 'running' });
    const again = await pve('POST', '/nodes/pve1/qemu/301/status/start');
    expect(await waitTask(again.body.data as string)).toMatchObject({ exitstatus: 'VM 301 already running' });
  });

  it('destroy is refused while running, then removes the VM', async () => {
    const refused = await pve('DELETE', '/nodes/pve1/qemu/301');
    expect(refused.status).toBe(500);
    expect(refused.statusText).toBe('VM 301 is running - destroy failed');
    await waitTask((await pve('POST', '/nodes/pve1/qemu/301/status/stop')).body.data as string);
    const del = await pve('DELETE', '/nodes/pve1/qemu/301', { purge: 1 });
    expect(await waitTask(del.body.data as string)).toMatchObject({ type: 'qmdestroy', exitstatus: 'OK' });
    expect(sim.state.vms.has(301)).toBe(false);
    expect((await pve('GET', '/nodes/pve1/qemu/301/status/current')).status).toBe(500);
  });

  it('nextid answers the lowest free VMID as a string', async () => {
    expect((await pve('GET', '/cluster/nextid')).body.data).toBe('100');
    expect((await pve('GET', '/cluster/nextid', { vmid: 9000 })).body.errors).toEqual({ vmid: 'VM 9000 already exists' });
  });
});

describe('SDN: pending until applied', () => {
  it('a new zone is pending (state new) and not running until PUT /cluster/sdn applies it', async () => {
    expect((await pve('POST', '/cluster/sdn/zones', { zone: 'acme', type: 'evpn', controller: 'evpnctl', 'vrf-vxlan': 10005 })).body).toEqual({ data: null });
    expect((await pve('GET', '/cluster/sdn/zones', { running: 1 })).body.data).toEqual([]);
    const pending = (await pve('GET', '/cluster/sdn/zones', { pending: 1 })).body.data as Array<Record<string, unknown>>;
    expect(pending).toEqual([
      expect.objectContaining({ zone: 'acme', type: 'evpn', state: 'new', pending: expect.objectContaining({ controller: 'evpnctl', 'vrf-vxlan': 10005 }) }),
    ]);
    const cfg = (await pve('GET', '/cluster/sdn/zones/acme')).body.data;
    expect(cfg).toMatchObject({ zone: 'acme', type: 'evpn', controller: 'evpnctl', 'vrf-vxlan': 10005 });

    const apply = await pve('PUT', '/cluster/sdn');
    expect(apply.body.data).toMatch(UPID_RE);
    expect((apply.body.data as string).split(':')[5]).toBe('reloadnetworkall');
    expect(await waitTask(apply.body.data as string)).toMatchObject({ exitstatus: 'OK' });
    expect((await pve('GET', '/cluster/sdn/zones', { running: 1 })).body.data).toEqual([expect.objectContaining({ zone: 'acme', 'vrf-vxlan': 10005 })]);
    expect((await pve('GET', '/cluster/sdn/zones', { pending: 1 })).body.data).toEqual([expect.not.objectContaining({ state: expect.anything() })]);
  });

  it('an edit is pending as changed, with the new value under pending and the running one on top', async () => {
    await pve('PUT', '/cluster/sdn/zones/acme', { 'vrf-vxlan': 10006 });
    const z = (await pve('GET', '/cluster/sdn/zones/acme', { pending: 1 })).body.data;
    expect(z).toMatchObject({ zone: 'acme', state: 'changed', 'vrf-vxlan': 10005, pending: { 'vrf-vxlan': 10006 } });
    expect((await pve('GET', '/cluster/sdn/zones/acme', { running: 1 })).body.data).toMatchObject({ 'vrf-vxlan': 10005 });
    await waitTask((await pve('PUT', '/cluster/sdn')).body.data as string);
    expect((await pve('GET', '/cluster/sdn/zones/acme', { running: 1 })).body.data).toMatchObject({ 'vrf-vxlan': 10006 });
  });

  it('VNets need a VXLAN tag in an EVPN zone, unique across VNets; ids are at most 8 characters', async () => {
    const noTag = await pve('POST', '/cluster/sdn/vnets', { vnet: 'tv05', zone: 'acme' });
    expect(noTag.status).toBe(500);
    expect(noTag.statusText).toBe('create sdn vnet object failed: tag: missing vxlan tag');
    expect((await pve('POST', '/cluster/sdn/vnets', { vnet: 'tv05', zone: 'acme', tag: 100080 })).status).toBe(200);
    const dup = await pve('POST', '/cluster/sdn/vnets', { vnet: 'tv06', zone: 'acme', tag: 100080 });
    expect(dup.statusText).toMatch(/vxlan tag 100080 already exist in vnet tv05 in zone acme/);
    const long = await pve('POST', '/cluster/sdn/vnets', { vnet: 'tenantvnet', zone: 'acme', tag: 100096 });
    expect(long.body.errors).toEqual({ vnet: "vnet ID 'tenantvnet' can't be more length than 8 characters" });
  });

  it('subnets are named <zone>-<network>-<mask> and keep their gateway inside the subnet', async () => {
    const outside = await pve('POST', '/cluster/sdn/vnets/tv05/subnets', { subnet: '10.128.5.0/24', type: 'subnet', gateway: '10.128.6.1' });
    expect(outside.statusText).toBe('create sdn subnet object failed: gateway: 10.128.6.1 is not in subnet 10.128.5.0/24');
    expect((await pve('POST', '/cluster/sdn/vnets/tv05/subnets', { subnet: '10.128.5.0/24', type: 'subnet', gateway: '10.128.5.1', snat: 1 })).status).toBe(
      200,
    );
    const list = (await pve('GET', '/cluster/sdn/vnets/tv05/subnets')).body.data;
    expect(list).toEqual([
      expect.objectContaining({ subnet: 'acme-10.128.5.0-24', vnet: 'tv05', zone: 'acme', cidr: '10.128.5.0/24', gateway: '10.128.5.1', snat: 1 }),
    ]);
    expect((await pve('GET', '/cluster/sdn/vnets/tv05/subnets/acme-10.128.5.0-24')).body.data).toMatchObject({ gateway: '10.128.5.1' });
  });

  it('the zone cannot be deleted while a VNet uses it, nor the VNet while it has subnets', async () => {
    expect((await pve('DELETE', '/cluster/sdn/zones/acme')).statusText).toBe('delete sdn zone object failed: zone acme is used by vnet tv05');
    expect((await pve('DELETE', '/cluster/sdn/vnets/tv05')).statusText).toBe("delete sdn vnet object failed: vnet: Can't delete vnet if subnets exists");
  });

  it('lists the EVPN controllers', async () => {
    expect((await pve('GET', '/cluster/sdn/controllers')).body.data).toEqual([expect.objectContaining({ controller: 'evpnctl', type: 'evpn' })]);
  });

  it('removeTenantNetwork plays the operator: subnets, VNets and zone deleted and applied', async () => {
    await waitTask((await pve('PUT', '/cluster/sdn')).body.data as string);
    expect(sim.removeTenantNetwork('acme')).toEqual({ zone: true, vnets: ['tv05'], subnets: ['acme-10.128.5.0-24'] });
    expect((await pve('GET', '/cluster/sdn/zones', { running: 1 })).body.data).toEqual([]);
    expect(sim.state.sdn.config.vnets.size + sim.state.sdn.running!.vnets.size).toBe(0);
  });
});

describe('fault injection', () => {
  it('POST /__lab/faults makes the next matching call fail', async () => {
    await fetch(`${server.url}/__lab/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fail_next: 1, status: 503, match: '/cluster/sdn' }),
    });
    expect((await pve('GET', '/cluster/sdn/zones')).status).toBe(503);
    expect((await pve('GET', '/cluster/sdn/zones')).status).toBe(200);
  });
});

describe('the cluster (pve-manager API2/Cluster.pm resources; a node reads its own qemu-server/)', () => {
  it('GET /cluster/resources?type=vm lists guests of every node; a node knows only its own', async () => {
    const a = await pve('POST', '/nodes/pve1/qemu/9010/clone', { newid: 310, name: 'roamer', full: 1, target: 'pve2' });
    await waitTask(a.body.data as string);
    sim.pvestatd();
    const all = (await pve('GET', '/cluster/resources', { type: 'vm' })).body.data as Array<Record<string, unknown>>;
    expect(all.find((r) => r.vmid === 310)).toMatchObject({ id: 'qemu/310', type: 'qemu', node: 'pve2', name: 'roamer', template: 0 });
    expect(all.find((r) => r.vmid === 9000)).toMatchObject({ node: 'pve1', template: 1 });
    expect(((await pve('GET', '/nodes/pve1/qemu')).body.data as Array<{ vmid: number }>).map((v) => v.vmid)).not.toContain(310);
    expect(((await pve('GET', '/nodes/pve2/qemu')).body.data as Array<{ vmid: number }>).map((v) => v.vmid)).toEqual([310]);
    const wrongNode = await pve('GET', '/nodes/pve1/qemu/310/config');
    expect([wrongNode.status, wrongNode.body.message]).toEqual([500, "Configuration file 'nodes/pve1/qemu-server/310.conf' does not exist\n"]);
    const start = await pve('POST', '/nodes/pve2/qemu/310/status/start');
    expect((start.body.data as string).split(':')[1]).toBe('pve2');
  });

  it('a migrated VM keeps its VMID: nextid never hands it out', async () => {
    sim.migrate(310, 'pve1');
    expect((await pve('GET', '/cluster/nextid', { vmid: 310 })).body.errors).toEqual({ vmid: 'VM 310 already exists' });
  });
});

describe('SDN apply and lock (pve-network API2/Network/SDN.pm, Network/SDN.pm lock_sdn_config, Zones.pm status)', () => {
  it('the apply only starts a network reload per node; a VNet is pending on a node until its reload ran', async () => {
    sim.state.taskTiming.stall.add('srvreload');
    try {
      await pve('POST', '/cluster/sdn/zones', { zone: 'rlz', type: 'evpn', controller: 'evpnctl', 'vrf-vxlan': 4242 });
      await pve('POST', '/cluster/sdn/vnets', { vnet: 'rlv', zone: 'rlz', tag: 4243 });
      const apply = await pve('PUT', '/cluster/sdn');
      expect(await waitTask(apply.body.data as string)).toMatchObject({ type: 'reloadnetworkall', exitstatus: 'OK' });
      const reloads = [...sim.state.tasks.values()].filter((t) => t.type === 'srvreload' && t.status === 'running');
      expect(reloads.map((t) => t.node).sort()).toEqual(['pve1', 'pve2']);
      const content = await pve('GET', '/nodes/pve1/sdn/zones/rlz/content');
      expect(content.body.data).toEqual([
        { vnet: 'rlv', status: 'pending', statusmsg: expect.stringMatching(/^local sdn network configuration is (not yet generated|too old), please reload$/) },
      ]);
    } finally {
      sim.state.taskTiming.stall.clear();
      sim.releaseTasks();
    }
    for (let i = 0; i < 100; i++) {
      const d = (await pve('GET', '/nodes/pve1/sdn/zones/rlz/content')).body.data as Array<{ status: string }>;
      if (d[0]?.status === 'available') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await pve('GET', '/nodes/pve1/sdn/zones/rlz/content')).body.data).toEqual([{ vnet: 'rlv', status: 'available' }]);
  });

  it('the global lock: writes without its token are refused; the apply with it releases it', async () => {
    const lock = await pve('POST', '/cluster/sdn/lock');
    const token = lock.body.data as string;
    expect(token).toMatch(/\S+/);
    const refused = await pve('POST', '/cluster/sdn/zones', { zone: 'lkz', type: 'evpn', controller: 'evpnctl', 'vrf-vxlan': 4300 });
    expect([refused.status, refused.body.message]).toEqual([500, 'create sdn zone object failed: invalid lock token provided!\n']);
    expect((await pve('POST', '/cluster/sdn/zones', { zone: 'lkz', type: 'evpn', controller: 'evpnctl', 'vrf-vxlan': 4300, 'lock-token': token })).status).toBe(
      200,
    );
    const again = await pve('POST', '/cluster/sdn/lock');
    expect(again.body.message).toBe('could not acquire lock for SDN config: invalid lock token provided!\n');
    expect((await pve('PUT', '/cluster/sdn', { 'lock-token': token })).status).toBe(200);
    expect(sim.state.sdn.lockToken).toBeUndefined();
  });

  it('taking the lock with pending changes needs allow-pending', async () => {
    await pve('POST', '/cluster/sdn/zones', { zone: 'pdz', type: 'evpn', controller: 'evpnctl', 'vrf-vxlan': 4400 });
    const refused = await pve('POST', '/cluster/sdn/lock');
    expect(refused.body.message).toBe('could not acquire lock for SDN config: configuration has pending changes\n');
    const token = (await pve('POST', '/cluster/sdn/lock', { 'allow-pending': 1 })).body.data as string;
    expect((await pve('DELETE', '/cluster/sdn/lock', { 'lock-token': token })).status).toBe(200);
    await pve('DELETE', '/cluster/sdn/zones/pdz');
  });
});

// Issue 28 item 1. qemu-server PVE/API2/Qemu.pm clone_vm: `$target` equal to the local node is
// dropped; `check_storage_access_clone` is "shared" only when every volume of the source (disks,
// CD-ROMs but `none`/`cdrom`, so the cloud-init drive too) is on a storage with `shared`; then
// `die "can't clone VM to node '$target' (VM uses local storage)\n" if $target && !$sharedvm`,
// before the config file is created and before any worker is forked: a 500 with no task.
// pve-storage PVE/API2/Storage/Config.pm (GET /storage/{storage}) and Status.pm (GET
// /nodes/{node}/storage): the `shared` flag as storage.cfg has it (set, or implied by the type).
describe('clone to another node (qemu-server API2/Qemu.pm clone_vm, check_storage_access_clone)', () => {
  it('a template on local storage cannot be cloned to another node: 500 before any task, nothing created', async () => {
    // Counted by type: an earlier test's SDN apply may still be forking its per-node reload tasks.
    const clones = () => [...sim.state.tasks.values()].filter((t) => t.type === 'qmclone').length;
    const tasks = clones();
    const r = await pve('POST', '/nodes/pve1/qemu/9000/clone', { newid: 320, name: 'far', full: 1, target: 'pve2' });
    expect([r.status, r.body.message]).toEqual([500, "can't clone VM to node 'pve2' (VM uses local storage)\n"]);
    expect(clones()).toBe(tasks);
    expect(sim.state.vms.has(320)).toBe(false);
  });

  it('target naming the node the call runs on is no target: the clone runs', async () => {
    const r = await pve('POST', '/nodes/pve1/qemu/9000/clone', { newid: 321, name: 'near', full: 1, target: 'pve1' });
    expect(r.status).toBe(200);
    await waitTask(r.body.data as string);
    expect(sim.state.vms.get(321)?.node).toBe('pve1');
    sim.state.vms.delete(321);
  });

  it('storage config: GET /storage/{id} and /nodes/{node}/storage carry the shared flag', async () => {
    expect((await pve('GET', '/storage/ceph')).body.data).toMatchObject({ storage: 'ceph', type: 'rbd', shared: 1 });
    expect((await pve('GET', '/storage/local-lvm')).body.data).not.toHaveProperty('shared');
    const list = (await pve('GET', '/nodes/pve2/storage')).body.data as Array<Record<string, unknown>>;
    expect(Object.fromEntries(list.map((s) => [s.storage, s.shared]))).toEqual({ 'local-lvm': 0, ceph: 1 });
    expect((await pve('GET', '/storage/nope')).body.message).toBe("storage 'nope' does not exist\n");
  });
});

// Issue 28 item 3. pve-manager PVE/API2/Cluster.pm resources and PVE/API2Tools.pm
// extract_vm_stats: the guest list is the cluster filesystem's vmlist (current), the rest is
// what pvestatd (PVE/Service/pvestatd.pm, a round every 10 s) last broadcast to the RRD cache;
// a guest without an entry yet is `status: "unknown"` and has no name. The node's own
// `status/current` (qemu-server API2/Qemu.pm vm_status) is read live.
describe("the cluster list is pvestatd's cache (pve-manager API2/Cluster.pm, API2Tools.pm extract_vm_stats)", () => {
  const listed = async (vmid: number) =>
    ((await pve('GET', '/cluster/resources', { type: 'vm' })).body.data as Array<Record<string, unknown>>).find((v) => v.vmid === vmid);

  it('a new VM is listed at once as unknown with no name; a round later with its name and status; status/current is live', async () => {
    // Rounds come only when this test asks, or once the interval has passed where it waits for
    // one: a clone slower than the interval on a loaded machine would otherwise meet a round.
    const interval = sim.state.stats.intervalMs;
    const holdRounds = () => void (sim.state.stats.intervalMs = 3_600_000);
    holdRounds();
    try {
      sim.pvestatd();
      await listed(9000); // this round ran before the clone
      const r = await pve('POST', '/nodes/pve1/qemu/9000/clone', { newid: 330, name: 'fresh', full: 1 });
      await waitTask(r.body.data as string);
      const now = await listed(330);
      expect(now).toMatchObject({ id: 'qemu/330', node: 'pve1', status: 'unknown' });
      expect(now).not.toHaveProperty('name');
      expect(now).not.toHaveProperty('template');
      const start = await pve('POST', '/nodes/pve1/qemu/330/status/start');
      await waitTask(start.body.data as string);
      expect((await pve('GET', '/nodes/pve1/qemu/330/status/current')).body.data).toMatchObject({ status: 'running' });
      expect(await listed(330)).toMatchObject({ status: 'unknown' }); // no round yet
      sim.state.stats.intervalMs = interval;
      await new Promise((res) => setTimeout(res, interval + 10));
      expect(await listed(330)).toMatchObject({ name: 'fresh', status: 'running', template: 0 });
      holdRounds();
      sim.state.vms.get(330)!.status = 'stopped';
      expect(await listed(330)).toMatchObject({ status: 'running' }); // until pvestatd's next round
      sim.pvestatd();
      expect(await listed(330)).toMatchObject({ status: 'stopped' });
      sim.state.vms.delete(330);
      expect(await listed(330)).toBeUndefined(); // gone from the vmlist at once
    } finally {
      sim.state.stats.intervalMs = interval;
      sim.state.vms.delete(330);
    }
  });

  it('a running VM is refused destroy before the task, and start of a running VM fails its task', async () => {
    const r = await pve('POST', '/nodes/pve1/qemu/9000/clone', { newid: 331, name: 'busy', full: 1 });
    await waitTask(r.body.data as string);
    sim.state.vms.get(331)!.status = 'running';
    const d = await pve('DELETE', '/nodes/pve1/qemu/331');
    expect([d.status, d.body.message]).toEqual([500, 'VM 331 is running - destroy failed\n']);
    const s = await pve('POST', '/nodes/pve1/qemu/331/status/start');
    expect(await waitTask(s.body.data as string)).toMatchObject({ exitstatus: 'VM 331 already running' });
    sim.state.vms.delete(331);
  });
});

// Issue 28 item 2. pve-network API2/Network/SDN.pm reload: `reloadnetworkall` runs
// `pvesh set /nodes/<node>/network` for each node in turn and `warn`s for one it cannot (the task
// ends `WARNINGS: <n>`, a `WARN:` line each in its log), going on with the next; the node's VNets
// stay `pending` there. API2/Network/SDN/Controllers.pm and (PVE 9) Fabrics.pm list_all:
// `pending=1` views with `state` for staged edits, which `PUT /cluster/sdn` applies too.
describe('SDN apply warnings and staged controllers/fabrics (pve-network SDN.pm reload, Controllers.pm, Fabrics.pm)', () => {
  it('a node the apply cannot reload is a warning of the task, not its failure', async () => {
    sim.state.sdn.unreachable.add('pve2');
    try {
      const r = await pve('PUT', '/cluster/sdn');
      const end = await waitTask(r.body.data as string);
      expect(end.exitstatus).toBe('WARNINGS: 1');
      const log = (await pve('GET', `/nodes/pve1/tasks/${encodeURIComponent(r.body.data as string)}/log`)).body.data as Array<{ t: string }>;
      expect(log.map((l) => l.t)).toContain("WARN: command 'pvesh set /nodes/pve2/network' failed: exit code 2");
    } finally {
      sim.state.sdn.unreachable.delete('pve2');
    }
  });

  it('staged controller and fabric edits show in pending=1 views with their state, and the apply commits them', async () => {
    const ctl = sim.state.sdn.controllers.get('evpnctl')!;
    sim.state.sdn.controllers.set('evpnctl', { ...ctl, asn: 65001 });
    sim.state.sdn.fabrics.config.set('underlay', { id: 'underlay', protocol: 'openfabric' });
    sim.state.sdn.fabricNodes.config.set('underlay_pve1', { fabric_id: 'underlay', node_id: 'pve1', protocol: 'openfabric' });
    const controllers = (await pve('GET', '/cluster/sdn/controllers', { pending: 1 })).body.data as Array<Record<string, unknown>>;
    expect(controllers.find((c) => c.controller === 'evpnctl')).toMatchObject({ state: 'changed', asn: 65000, pending: { asn: 65001 } });
    const all = (await pve('GET', '/cluster/sdn/fabrics/all', { pending: 1 })).body.data as {
      fabrics: Array<Record<string, unknown>>;
      nodes: Array<Record<string, unknown>>;
    };
    expect(all.fabrics).toEqual([expect.objectContaining({ state: 'new', pending: expect.objectContaining({ id: 'underlay' }) })]);
    expect(all.nodes).toEqual([expect.objectContaining({ state: 'new' })]);
    const lock = await pve('POST', '/cluster/sdn/lock');
    expect(lock.body.message).toMatch(/configuration has pending changes/);
    await waitTask((await pve('PUT', '/cluster/sdn')).body.data as string);
    expect(((await pve('GET', '/cluster/sdn/fabrics/all', { running: 1 })).body.data as { fabrics: unknown[] }).fabrics).toHaveLength(1);
    expect(((await pve('GET', '/cluster/sdn/controllers', { pending: 1 })).body.data as Array<Record<string, unknown>>).every((c) => !c.state)).toBe(true);
  });
});
