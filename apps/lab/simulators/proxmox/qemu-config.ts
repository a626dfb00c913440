import { spawn } from 'node:child_process';
import { died } from './envelope.js';
import { cidrFormat, dnsNameFormat, ipFormat, type Prop, type Schema } from './params.js';
import { randomMac } from './state.js';

/**
 * The part of qemu-server's VM config schema the adapter writes, with the property-string
 * formats it checks (`net[n]`, `ipconfig[n]`, `memory`) and the `urlencoded` format of
 * `sshkeys`: its value must be URL-encoded (the API decodes it with uri_unescape and then
 * validates each line as an OpenSSH public key).
 */

const NET_MODELS = ['e1000', 'e1000e', 'rtl8139', 'virtio', 'vmxnet3'];
const NET_KEYS = ['model', 'macaddr', 'bridge', 'firewall', 'link_down', 'mtu', 'queues', 'rate', 'tag', 'trunks'];
const MAC_RE = /^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$/;

export interface NetDevice {
  model: string;
  macaddr?: string;
  options: Array<[string, string]>;
}

export function parseNet(v: string): NetDevice | string {
  let model: string | undefined;
  let macaddr: string | undefined;
  const options: Array<[string, string]> = [];
  for (const part of v.split(',')) {
    const eq = part.indexOf('=');
    const k = eq < 0 ? part : part.slice(0, eq);
    const val = eq < 0 ? undefined : part.slice(eq + 1);
    if (NET_MODELS.includes(k)) {
      if (model) return `invalid format - duplicate key in comma-separated list property: model`;
      model = k;
      macaddr = val;
    } else if (k === 'model' && val !== undefined) model = val;
    else if (k === 'macaddr' && val !== undefined) macaddr = val;
    else if (NET_KEYS.includes(k) && val !== undefined) options.push([k, val]);
    else return `invalid format - invalid key in comma-separated list property: ${k}`;
  }
  if (!model || !NET_MODELS.includes(model)) return 'invalid format - property is missing and it is not optional: model';
  if (macaddr !== undefined && (!MAC_RE.test(macaddr) || (parseInt(macaddr.slice(0, 2), 16) & 1) === 1)) {
    return `invalid format - value does not look like a valid unicast MAC address: ${macaddr}`;
  }
  return { model, macaddr, options };
}

export function printNet(n: NetDevice): string {
  const order = (k: string) => NET_KEYS.indexOf(k);
  const rest = [...n.options].sort((a, b) => order(a[0]) - order(b[0])).map(([k, v]) => `${k}=${v}`);
  return [`${n.model}=${n.macaddr ?? randomMac()}`, ...rest].join(',');
}

function ipconfigFormat(v: string): string | undefined {
  for (const part of v.split(',')) {
    const [k, val = ''] = part.split('=');
    if (k === 'ip') {
      if (val !== 'dhcp' && cidrFormat(val)) return `invalid format - ip: invalid IPv4 CIDR '${val}'`;
    } else if (k === 'gw') {
      if (ipFormat(val)) return `invalid format - gw: value does not look like a valid IPv4 address`;
    } else if (k !== 'ip6' && k !== 'gw6') return `invalid format - invalid key in comma-separated list property: ${k}`;
  }
  return undefined;
}

function memoryFormat(v: string): string | undefined {
  const m = /^(?:current=)?(\d+)$/.exec(v);
  if (!m) return 'invalid format - value does not look like a valid memory size';
  return Number(m[1]) < 16 ? 'invalid format - current: value must have a minimum value of 16' : undefined;
}

function urlencodedFormat(v: string): string | undefined {
  return /^[-%a-zA-Z0-9_.!~*'()]*$/.test(v) ? undefined : `invalid urlencoded string: ${v}`;
}

const opt = { optional: true } as const;
const netProp: Prop = {
  type: 'string',
  format: (v) => {
    const n = parseNet(v);
    return typeof n === 'string' ? n : undefined;
  },
  ...opt,
};

export const CONFIG_SCHEMA: Schema = {
  node: { type: 'string' },
  vmid: { type: 'integer', min: 100, max: 999_999_999 },
  name: { type: 'string', format: dnsNameFormat, ...opt },
  description: { type: 'string', ...opt },
  cores: { type: 'integer', min: 1, ...opt },
  sockets: { type: 'integer', min: 1, ...opt },
  memory: { type: 'string', format: memoryFormat, ...opt },
  balloon: { type: 'integer', min: 0, ...opt },
  ostype: { type: 'string', ...opt },
  agent: { type: 'string', ...opt },
  boot: { type: 'string', ...opt },
  onboot: { type: 'boolean', ...opt },
  tags: { type: 'string', ...opt },
  cpu: { type: 'string', ...opt },
  ciuser: { type: 'string', ...opt },
  cipassword: { type: 'string', ...opt },
  citype: { type: 'string', enum: ['configdrive2', 'nocloud', 'opennebula'], ...opt },
  nameserver: { type: 'string', ...opt },
  searchdomain: { type: 'string', ...opt },
  sshkeys: { type: 'string', format: urlencodedFormat, ...opt },
  delete: { type: 'string', ...opt },
  digest: { type: 'string', ...opt },
  skiplock: { type: 'boolean', ...opt },
  revert: { type: 'string', ...opt },
  ...Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`net${i}`, netProp])),
  ...Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`ipconfig${i}`, { type: 'string', format: ipconfigFormat, ...opt } as Prop])),
};

/** Options of the method itself, not config keys. */
export const CONFIG_CONTROL = ['node', 'vmid', 'delete', 'digest', 'skiplock', 'revert', 'background_delay'];

/**
 * `validate_ssh_public_keys` after `uri_unescape`, as update_vm_api does before any change: each
 * line but blank ones through `ssh-keygen -l` (pve-common PVE/Tools.pm), the same program, so a
 * line PVE refuses (key data that is no key of its type, a comment line) is refused here too. The
 * program runs beside the simulators' event loop, not on it: PVE checks in one of pvedaemon's
 * workers while the others answer.
 */
export async function checkSshKeys(encoded: string): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    throw died('SSH public key validation error');
  }
  for (const line of decoded.split('\n')) {
    if (/^\s*$/.test(line)) continue;
    if ((await sshKeygenList(line)) !== 0) throw died('SSH public key validation error');
  }
}

/** `ssh-keygen -l -f -` on one line: its exit status (-1 when it could not be run). */
function sshKeygenList(line: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('ssh-keygen', ['-l', '-f', '-'], { stdio: ['pipe', 'ignore', 'ignore'] });
    child.once('error', () => resolve(-1));
    child.once('close', (code) => resolve(code ?? -1));
    // A key the program refuses may close its input before it is all written.
    child.stdin.once('error', () => {});
    child.stdin.end(line);
  });
}

/** Keys whose values the API returns as JSON numbers (the rest stay strings, memory included). */
export const NUMERIC_KEYS = new Set(['cores', 'sockets', 'template', 'onboot', 'balloon', 'vcpus', 'numa', 'protection', 'cpuunits']);

export function configView(config: Record<string, string>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, NUMERIC_KEYS.has(k) && /^\d+$/.test(v) ? Number(v) : v]));
}
