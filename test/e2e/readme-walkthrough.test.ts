/**
 * The README's lab walkthrough, run as a person runs it: its three `sh` blocks ("Use the lab", the
 * tenantctl lines, the tenant's resources) pasted into bash in that order, against a lab site whose
 * isolation-check canaries already hold indexes 1 and 2, as `npm start`'s do. Only the placeholder
 * line (`TOKEN=<operator token printed by npm start>`) is filled in, and `tenantctl` is the
 * checkout's bin, as its install links it. Every call the walkthrough makes must succeed: an
 * example that only works on an empty site (an address of tenant 1's subnet) fails here.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const blocks = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const blockWith = (line: RegExp) => {
  const found = blocks.filter((b) => line.test(b));
  expect(found, `one README sh block matching ${line}`).toHaveLength(1);
  return found[0]!;
};
const PLACEHOLDER = /^export API=http:\/\/127\.0\.0\.1:8080 TOKEN=<operator token printed by npm start>$/m;

/** Before the README: every curl leaves its line and status, every tenantctl its line and exit code. */
const PRELUDE = `
curl() {
  local h; h=$(mktemp "$WALK_LOG/headers.XXXXXX")
  command curl -D "$h" "$@"; local rc=$?
  printf 'curl %s %s %s\\n' "\${BASH_LINENO[0]}" "$(grep '^HTTP/' "$h" | tail -1 | cut -d' ' -f2)" "$rc" >> "$WALK_LOG/calls"
  return $rc
}
tenantctl() {
  "$WALK_NODE" "$WALK_ROOT/bin/tenantctl.mjs" "$@"; local rc=$?
  printf 'tenantctl %s - %s\\n' "\${BASH_LINENO[0]}" "$rc" >> "$WALK_LOG/calls"
  return $rc
}
`;

let site: TestSite;
let dir: string;
let script: string[];
let calls: { tool: string; line: number; status: string; rc: number }[];
let output = '';

beforeAll(async () => {
  site = await startTestSite();
  dir = mkdtempSync(join(tmpdir(), 'readme-walk-'));
  // `npm start` runs the isolation check as it starts: its canaries take the first indexes.
  const check = await site.call('POST', '/v1/isolation-checks');
  expect(check.status, check.text).toBeLessThan(300);
  // The walkthrough's `source .lab/site.env` (the lab's settings file, in the folder it runs from).
  mkdirSync(join(dir, '.lab'));
  writeFileSync(join(dir, '.lab/site.env'), `SITE_PROXMOX_URL='${site.backends.env.SITE_PROXMOX_URL}'\n`);

  const first = blockWith(PLACEHOLDER).replace(PLACEHOLDER, `export API=${site.url} TOKEN=${site.operatorToken}`);
  const ctl = blockWith(/^tenantctl tenant create acme /m);
  const resources = blockWith(/^tauth="Authorization: Bearer \$T"$/m);
  // The resources block's sentence before it: `T=$(jq -r .api_token acme.json)`.
  script = [...PRELUDE.split('\n'), ...first.split('\n'), ...ctl.split('\n'), 'T=$(jq -r .api_token acme.json)', ...resources.split('\n')];
  const logDir = join(dir, 'log');
  mkdirSync(logDir);
  writeFileSync(join(logDir, 'calls'), '');
  const rc = await new Promise<number | null>((resolve) => {
    const bash = spawn('bash', ['-c', script.join('\n')], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, WALK_LOG: logDir, WALK_NODE: process.execPath, WALK_ROOT: root },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    bash.stdout.on('data', (d: Buffer) => (output += d.toString()));
    bash.stderr.on('data', (d: Buffer) => (output += d.toString()));
    bash.on('close', resolve);
  });
  output += `\n(bash exited ${rc})`;
  calls = readFileSync(join(logDir, 'calls'), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [tool, line, status, rc] = l.split(' ');
      return { tool: tool!, line: Number(line), status: status!, rc: Number(rc) };
    });
}, 240_000);
afterAll(async () => {
  await site?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A call as the README has it, with what it came to. */
const described = (c: (typeof calls)[number]) => `${script[c.line - 1]?.trim()} -> ${c.tool === 'curl' ? `HTTP ${c.status}` : `exit ${c.rc}`}`;

describe("the README's lab walkthrough, pasted into bash on a lab whose canaries hold indexes 1 and 2", () => {
  it('makes its calls: tenant, admissions, enrollment, delete, tenantctl, and each of the tenant resources', () => {
    const curls = calls.filter((c) => c.tool === 'curl');
    expect(curls.length, output.slice(-3000)).toBeGreaterThanOrEqual(25);
    expect(calls.filter((c) => c.tool === 'tenantctl').length).toBeGreaterThanOrEqual(8);
  });

  it('every curl answers 2xx and every tenantctl exits 0', () => {
    const failed = calls.filter((c) => (c.tool === 'curl' ? !/^2\d\d$/.test(c.status) || c.rc !== 0 : c.rc !== 0));
    expect(failed.map(described), output.slice(-3000)).toEqual([]);
  });

  it('leaves acme with the published name, device address, key, account and certificate it asked for', async () => {
    const acme = await site.call('GET', '/v1/tenants/acme');
    expect(acme.status).toBe(200);
    expect(acme.body.index).toBeGreaterThan(2);
    const www = await site.call('GET', '/v1/tenants/acme/records');
    expect(www.body.records).toEqual([expect.objectContaining({ name: 'www', address: acme.body.network.subnet.replace(/0\/24$/, '50') })]);
    for (const path of ['workloads/web', 'devices/probe1/address', 'wifi-keys/sensors', 'broker-accounts/probe1', 'certificates/web']) {
      const r = await site.call('GET', `/v1/tenants/acme/${path}`);
      expect(r.status, `${path}: ${r.text}`).toBe(200);
    }
  });
});
