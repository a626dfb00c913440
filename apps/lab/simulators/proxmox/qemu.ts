import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { died, ok, paramError } from './envelope.js';
import { CONFIG_CONTROL, CONFIG_SCHEMA, checkSshKeys, configView, parseNet, printNet } from './qemu-config.js';
import { dnsNameFormat, readParams, splitList, validate, VMID, type Raw, type Schema, type Value } from './params.js';
import { bootDisk, configDigest, DISK_KEY, driveSizeBytes, formatSize, nodeOf, randomMac, vmDiskGb, type ProxmoxSimState, type SimVm } from './state.js';
import type { TaskRunner } from './tasks.js';

/**
 * `/nodes/{node}/qemu` of qemu-server (API2/Qemu.pm), PVE 8 behaviour: clone, POST config,
 * resize, start/stop/shutdown and destroy answer with a UPID and do the work in the task;
 * PUT config is synchronous. Checks the API makes before forking fail the call (500 with the
 * die text, or 400 for schema errors); checks made inside the worker fail the task instead.
 * GET config returns the configuration with pending changes applied, which is PVE's default
 * view; the simulator keeps no separate pending section.
 */

const opt = { optional: true } as const;
const NODE = { type: 'string' } as const;

export function mountQemuRoutes(api: Hono, state: ProxmoxSimState, tasks: TaskRunner, user: string, checkNode: (n: string) => void): void {
  const params = async (c: Context, schema: Schema): Promise<Record<string, Value>> => {
    const raw: Raw = { ...(await readParams(c)), ...c.req.param() };
    const p = validate(raw, schema);
    checkNode(String(p.node));
    return p;
  };
  // A node reads its own qemu-server directory: a VM on another node of the cluster is not there.
  const load = (vmid: number, node: string): SimVm => {
    const vm = state.vms.get(vmid);
    if (!vm || nodeOf(state, vm) !== node) throw died(`Configuration file 'nodes/${node}/qemu-server/${vmid}.conf' does not exist`);
    return vm;
  };
  const checkLock = (vm: SimVm, skiplock?: Value) => {
    if (vm.config.lock && !skiplock) throw died(`VM is locked (${vm.config.lock})`);
  };
  const touch = (vm: SimVm) => {
    vm.config.digest = configDigest(vm.config);
  };
  const isTemplate = (vm: SimVm) => vm.config.template === '1';

  api.get('/cluster/nextid', async (c) => {
    const q = validate(await readParams(c), { vmid: { ...VMID, optional: true } });
    if (q.vmid !== undefined) {
      if (state.vms.has(Number(q.vmid))) throw paramError({ vmid: `VM ${q.vmid} already exists` });
      return ok(c, String(q.vmid));
    }
    let id = 100;
    while (state.vms.has(id)) id++;
    return ok(c, String(id));
  });

  api.get('/nodes/:node/qemu', async (c) => {
    const p = await params(c, { node: NODE, full: { type: 'boolean', ...opt } });
    const list = [...state.vms.values()].filter((vm) => nodeOf(state, vm) === p.node).sort((a, b) => a.vmid - b.vmid).map((vm) => {
      const bytes = (vmDiskGb(vm) ?? 0) * 2 ** 30;
      const item: Record<string, unknown> = {
        vmid: vm.vmid,
        name: vm.config.name,
        status: vm.status,
        cpus: Number(vm.config.cores ?? 1) * Number(vm.config.sockets ?? 1),
        maxmem: Number(/\d+/.exec(vm.config.memory ?? '512')?.[0]) * 2 ** 20,
        maxdisk: bytes,
        uptime: vm.startedAt ? Math.floor((Date.now() - vm.startedAt) / 1000) : 0,
      };
      if (isTemplate(vm)) item.template = 1;
      if (vm.config.lock) item.lock = vm.config.lock;
      return item;
    });
    return ok(c, list);
  });

  api.get('/nodes/:node/qemu/:vmid/config', async (c) => {
    const p = await params(c, { node: NODE, vmid: VMID, current: { type: 'boolean', ...opt }, snapshot: { type: 'string', ...opt } });
    const vm = load(Number(p.vmid), String(p.node));
    return ok(c, configView(vm.config));
  });

  /** update_vm_api: schema, then the sshkeys check, then the change (sync or in a worker). */
  const configUpdate = async (c: Context, background: boolean) => {
    const schema = background ? { ...CONFIG_SCHEMA, background_delay: { type: 'integer', min: 1, max: 30, ...opt } as const } : CONFIG_SCHEMA;
    const p = await params(c, schema);
    const vmid = Number(p.vmid);
    const node = String(p.node);
    if (p.sshkeys !== undefined) checkSshKeys(String(p.sshkeys));
    const change = () => {
      const vm = load(vmid, node);
      checkLock(vm, p.skiplock);
      if (p.digest !== undefined && p.digest !== vm.config.digest) {
        throw died('detected modified configuration - file changed by other user? Try again.');
      }
      for (const k of splitList(p.delete)) {
        if (k === 'template') throw paramError({ delete: "unable to delete 'template'" });
        delete vm.config[k];
      }
      for (const [k, v] of Object.entries(p)) {
        if (CONFIG_CONTROL.includes(k)) continue;
        if (/^net\d+$/.test(k)) {
          const net = parseNet(String(v));
          if (typeof net !== 'string') vm.config[k] = printNet(net);
          continue;
        }
        vm.config[k] = typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
      }
      touch(vm);
    };
    if (!background) {
      change();
      return ok(c, null);
    }
    return ok(c, tasks.on(String(p.node)).start('qmconfig', String(vmid), user, change));
  };

  api.put('/nodes/:node/qemu/:vmid/config', (c) => configUpdate(c, false));
  api.post('/nodes/:node/qemu/:vmid/config', (c) => configUpdate(c, true));

  api.post('/nodes/:node/qemu/:vmid/clone', async (c) => {
    const p = await params(c, {
      node: NODE,
      vmid: VMID,
      newid: VMID,
      name: { type: 'string', format: dnsNameFormat, ...opt },
      description: { type: 'string', ...opt },
      full: { type: 'boolean', ...opt },
      storage: { type: 'string', pattern: /[a-z][a-z0-9\-_.]*[a-z0-9]/i, ...opt },
      target: { type: 'string', ...opt },
      format: { type: 'string', enum: ['raw', 'qcow2', 'vmdk'], ...opt },
      pool: { type: 'string', ...opt },
      snapname: { type: 'string', ...opt },
      bwlimit: { type: 'integer', min: 0, ...opt },
    });
    const src = load(Number(p.vmid), String(p.node));
    if (p.target !== undefined && !state.nodes.has(String(p.target))) throw died(`no such cluster node '${p.target}'`);
    const newid = Number(p.newid);
    if (state.vms.has(newid)) throw died(`unable to create VM ${newid}: config file already exists`);
    checkLock(src);
    if (p.snapname !== undefined) throw died(`snapshot '${p.snapname}' does not exist`);
    const full = p.full === undefined ? !isTemplate(src) : Boolean(p.full);
    if (p.storage !== undefined && !full) throw died("parameter 'storage' not allowed for linked clones");
    if (p.format !== undefined && !full) throw died("parameter 'format' not allowed for linked clones");
    if (!full && !isTemplate(src)) throw died(`Linked clone feature is not supported for drive '${bootDisk(src.config) ?? 'scsi0'}'`);
    const storage = p.storage === undefined ? undefined : String(p.storage);
    if (storage !== undefined && storage !== state.storage) throw died(`storage '${storage}' does not exist`);

    // The target's config exists (locked) from now on; the worker copies the disks.
    const config: Record<string, string> = {};
    let diskNo = 0;
    for (const [k, v] of Object.entries(src.config)) {
      if (['template', 'lock', 'digest', 'name', 'smbios1', 'vmgenid'].includes(k)) continue;
      if (/^net\d+$/.test(k)) {
        const net = parseNet(v);
        config[k] = typeof net === 'string' ? v : printNet({ ...net, macaddr: randomMac() });
      } else if (DISK_KEY.test(k) && /media=cdrom/.test(v) && /cloudinit/.test(v)) {
        config[k] = `${storage ?? state.storage}:vm-${newid}-cloudinit,media=cdrom`;
      } else if (DISK_KEY.test(k) && !/media=cdrom/.test(v)) {
        const [vol = '', ...opts] = v.split(',');
        const [srcStore = state.storage, volName = ''] = vol.split(':');
        const newVol = full ? `${storage ?? srcStore}:vm-${newid}-disk-${diskNo++}` : `${srcStore}:${volName}/vm-${newid}-disk-${diskNo++}`;
        config[k] = [newVol, ...opts].join(',');
      } else config[k] = v;
    }
    config.name = p.name === undefined ? `Copy-of-VM-${src.config.name ?? src.vmid}` : String(p.name);
    if (p.description !== undefined) config.description = String(p.description);
    config.smbios1 = `uuid=${randomUUID()}`;
    config.vmgenid = randomUUID();
    // Until the worker has copied the disks the target's config file is qemu-server's temporary
    // one, `lock: clone` and nothing else: every change and start is refused with "VM is locked
    // (clone)". A failed clone unlinks it and dies "clone failed: ...".
    const vm: SimVm = { vmid: newid, node: String(p.target ?? p.node), config: { lock: 'clone' }, status: 'stopped' };
    touch(vm);
    state.vms.set(newid, vm);
    return ok(
      c,
      tasks.on(String(p.node)).start(
        'qmclone',
        String(src.vmid),
        user,
        () => {
          const target = state.vms.get(newid);
          if (!target) throw new Error(`clone failed: VM ${newid} vanished`);
          target.config = config;
          touch(target);
        },
        (error) => {
          state.vms.delete(newid);
          return `clone failed: ${error}`;
        },
      ),
    );
  });

  api.put('/nodes/:node/qemu/:vmid/resize', async (c) => {
    const p = await params(c, {
      node: NODE,
      vmid: VMID,
      disk: { type: 'string', pattern: /(ide[0-3]|sata[0-5]|scsi([0-9]|[12][0-9]|30)|virtio([0-9]|1[0-5])|efidisk0|tpmstate0)/ },
      size: { type: 'string', pattern: /\+?\d+(\.\d+)?[KMGT]?/ },
      digest: { type: 'string', ...opt },
      skiplock: { type: 'boolean', ...opt },
    });
    const vmid = Number(p.vmid);
    const node = String(p.node);
    const disk = String(p.disk);
    return ok(
      c,
      tasks.on(String(p.node)).start('resize', String(vmid), user, () => {
        const vm = load(vmid, node);
        if (p.digest !== undefined && p.digest !== vm.config.digest) throw died('checksum mismatch (file change by other user?)');
        checkLock(vm, p.skiplock);
        const drive = vm.config[disk];
        if (!drive) throw died(`disk '${disk}' does not exist`);
        if (/media=cdrom/.test(drive)) throw died("you can't resize a cdrom");
        const size = driveSizeBytes(drive) ?? 0;
        const m = /^(\+)?(\d+(?:\.\d+)?)([KMGT])?$/.exec(String(p.size))!;
        const unit = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 }[m[3] as 'K'] ?? 1;
        let newsize = Number(m[2]) * unit;
        if (m[1]) newsize += size;
        newsize = Math.floor(newsize);
        if (newsize < size) throw died('shrinking disks is not supported');
        if (newsize === size) return;
        vm.config[disk] = /(^|,)size=[^,]*/.test(drive)
          ? drive.replace(/(^|,)size=[^,]*/, `$1size=${formatSize(newsize)}`)
          : `${drive},size=${formatSize(newsize)}`;
        touch(vm);
      }),
    );
  });

  api.get('/nodes/:node/qemu/:vmid/status/current', async (c) => {
    const p = await params(c, { node: NODE, vmid: VMID });
    const vm = load(Number(p.vmid), String(p.node));
    const view: Record<string, unknown> = {
      vmid: vm.vmid,
      name: vm.config.name,
      status: vm.status,
      qmpstatus: vm.status,
      cpus: Number(vm.config.cores ?? 1) * Number(vm.config.sockets ?? 1),
      maxmem: Number(/\d+/.exec(vm.config.memory ?? '512')?.[0]) * 2 ** 20,
      maxdisk: (vmDiskGb(vm) ?? 0) * 2 ** 30,
      uptime: vm.startedAt ? Math.floor((Date.now() - vm.startedAt) / 1000) : 0,
      ha: { managed: 0 },
      agent: vm.config.agent ? 1 : 0,
    };
    if (isTemplate(vm)) view.template = 1;
    if (vm.config.lock) view.lock = vm.config.lock;
    return ok(c, view);
  });

  const bridgeExists = (bridge: string, node: string): boolean => {
    if (state.bridges.has(bridge)) return true;
    // An SDN VNet is a bridge on a node once that node's network reload has run (sdn.ts).
    const local = state.sdn.applied.get(node);
    const vnet = local?.vnets.get(bridge);
    if (!vnet) return false;
    const zone = local?.zones.get(String(vnet.zone));
    return !!zone && (zone.nodes === undefined || String(zone.nodes).split(',').includes(node));
  };

  const power = (action: 'start' | 'stop' | 'shutdown', schema: Schema) =>
    api.post(`/nodes/:node/qemu/:vmid/status/${action}`, async (c) => {
      const p = await params(c, { node: NODE, vmid: VMID, ...schema });
      const vmid = Number(p.vmid);
      const node = String(p.node);
      load(vmid, node);
      const type = { start: 'qmstart', stop: 'qmstop', shutdown: 'qmshutdown' }[action];
      return ok(
        c,
        tasks.on(String(p.node)).start(type, String(vmid), user, () => {
          const vm = load(vmid, node);
          checkLock(vm, p.skiplock);
          if (action === 'start') {
            if (isTemplate(vm)) throw died("you can't start a vm if it's a template");
            if (vm.status === 'running') throw died(`VM ${vmid} already running`);
            for (const [k, v] of Object.entries(vm.config)) {
              if (!/^net\d+$/.test(k)) continue;
              const bridge = /(?:^|,)bridge=([^,]+)/.exec(v)?.[1];
              if (bridge && !bridgeExists(bridge, node)) throw died(`bridge '${bridge}' does not exist`);
            }
            vm.status = 'running';
            vm.startedAt = Date.now();
          } else {
            if (action === 'shutdown' && vm.status !== 'running') throw died(`VM ${vmid} not running`);
            vm.status = 'stopped';
            delete vm.startedAt;
          }
        }),
      );
    });

  power('start', { timeout: { type: 'integer', min: 0, ...opt }, skiplock: { type: 'boolean', ...opt }, machine: { type: 'string', ...opt } });
  power('stop', {
    timeout: { type: 'integer', min: 0, ...opt },
    skiplock: { type: 'boolean', ...opt },
    keepActive: { type: 'boolean', ...opt },
    'overrule-shutdown': { type: 'boolean', ...opt },
  });
  power('shutdown', {
    timeout: { type: 'integer', min: 0, ...opt },
    skiplock: { type: 'boolean', ...opt },
    keepActive: { type: 'boolean', ...opt },
    forceStop: { type: 'boolean', ...opt },
  });

  api.delete('/nodes/:node/qemu/:vmid', async (c) => {
    const p = await params(c, {
      node: NODE,
      vmid: VMID,
      purge: { type: 'boolean', ...opt },
      'destroy-unreferenced-disks': { type: 'boolean', ...opt },
      skiplock: { type: 'boolean', ...opt },
    });
    const vmid = Number(p.vmid);
    const node = String(p.node);
    const vm = load(vmid, node);
    checkLock(vm, p.skiplock);
    if (vm.status === 'running') throw died(`VM ${vmid} is running - destroy failed`);
    return ok(
      c,
      tasks.on(String(p.node)).start('qmdestroy', String(vmid), user, () => {
        const now = load(vmid, node);
        if (now.status === 'running') throw died(`VM ${vmid} is running - destroy failed`);
        state.vms.delete(vmid);
      }),
    );
  });
}
