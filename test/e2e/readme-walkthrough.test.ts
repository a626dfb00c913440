/**
 * The README's lab walkthrough, run as a person runs it: its `sh` blocks ("Use the lab", the
 * tenantctl lines, the tenant's resources, the temporal CLI's reads, the fault hook, the
 * Idempotency-Key repeat) pasted into bash in that order, against a lab site whose isolation-check
 * canaries already hold indexes 1 and 2, as `npm start`'s do. Only what `npm start` prints is
 * filled in (the placeholder `TOKEN=<operator token printed by npm start>`, the `export
 * TEMPORAL_...` line), `tenantctl` is the checkout's bin as its install links it, and `.lab/` and
 * `.tools/` are where the walkthrough reads them. Each call must answer what its comment says
 * (`# 502: ...`), else 2xx: an example that only works on an empty site (an address of tenant 1's
 * subnet, a create of a name the walkthrough already made) fails here.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * Before the README: every curl leaves its script line and HTTP status, every tenantctl its line
 * and exit code (tab-separated, in $WALK_LOG/calls). The temporal CLI, run as `$T`, logs itself
 * through the wrapper in .tools/ (its arguments: a binary does not know its caller's line).
 */
const PRELUDE = `
curl() {
  local h; h=$(mktemp "$WALK_LOG/headers.XXXXXX")
  command curl -D "$h" "$@"; local rc=$?
  printf 'curl\\t%s\\t%s\\t%s\\t\\n' "\${BASH_LINENO[0]}" "$(grep '^HTTP/' "$h" | tail -1 | cut -d' ' -f2)" "$rc" >> "$WALK_LOG/calls"
  return $rc
}
tenantctl() {
  "$WALK_NODE" "$WALK_ROOT/bin/tenantctl.mjs" "$@"; local rc=$?
  printf 'tenantctl\\t%s\\t-\\t%s\\t\\n' "\${BASH_LINENO[0]}" "$rc" >> "$WALK_LOG/calls"
  return $rc
}
`;
const TEMPORAL_WRAPPER = `#!/bin/bash
"$WALK_ROOT/.tools/venv/bin/temporal" "$@"; rc=$?
printf 'temporal\\t0\\t-\\t%s\\t%s\\n' "$rc" "$*" >> "$WALK_LOG/calls"
exit $rc
`;

interface Call {
  tool: string;
  line: number;
  status: string;
  rc: number;
  args: string;
}

let site: TestSite;
let dir: string;
let script: string[];
let calls: Call[];
let output = '';

beforeAll(async () => {
  site = await startTestSite();
  dir = mkdtempSync(join(tmpdir(), 'readme-walk-'));
  // `npm start` runs the isolation check as it starts: its canaries take the first indexes.
  const check = await site.call('POST', '/v1/isolation-checks');
  expect(check.status, check.text).toBeLessThan(300);
  // The walkthrough's `source .lab/site.env` (the lab's settings file) and `.tools/venv/bin/temporal`.
  mkdirSync(join(dir, '.lab'));
  const { SITE_PROXMOX_URL, SITE_MINIO_URL } = site.backends.env;
  writeFileSync(join(dir, '.lab/site.env'), `SITE_PROXMOX_URL='${SITE_PROXMOX_URL}'\nSITE_MINIO_URL='${SITE_MINIO_URL}'\n`);
  mkdirSync(join(dir, '.tools/venv/bin'), { recursive: true });
  writeFileSync(join(dir, '.tools/venv/bin/temporal'), TEMPORAL_WRAPPER);
  chmodSync(join(dir, '.tools/venv/bin/temporal'), 0o755);

  const temporalLine =
    `export TEMPORAL_ADDRESS=${site.config.env.TEMPORAL_ADDRESS} TEMPORAL_NAMESPACE=${site.namespace} ` +
    `TEMPORAL_CODEC_ENDPOINT=${site.url}/codec TEMPORAL_CODEC_AUTH='Bearer ${site.codecToken}'`;
  script = [
    ...PRELUDE.split('\n'),
    ...blockWith(PLACEHOLDER).replace(PLACEHOLDER, `export API=${site.url} TOKEN=${site.operatorToken}`).split('\n'),
    ...blockWith(/^tenantctl tenant create acme /m).split('\n'),
    // The sentence before the resources block: `T=$(jq -r .api_token acme.json)`.
    'T=$(jq -r .api_token acme.json)',
    ...blockWith(/^tauth="Authorization: Bearer \$T"$/m).split('\n'),
    // "Paste the `export TEMPORAL_...` line `npm start` printed".
    temporalLine,
    ...blockWith(/^T=\.tools\/venv\/bin\/temporal /m).split('\n'),
    ...blockWith(/\/__lab\/faults/).split('\n'),
    ...blockWith(/^key=\$\(cat \/proc\/sys\/kernel\/random\/uuid\)$/m).split('\n'),
  ];
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
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [tool, line, status, rc, args] = l.split('\t');
      return { tool: tool!, line: Number(line), status: status!, rc: Number(rc), args: args ?? '' };
    });
}, 300_000);
afterAll(async () => {
  await site?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The README's line of a call. */
const lineOf = (c: Call) => (c.line > 0 ? (script[c.line - 1] ?? '').trim() : `$T ${c.args}`);
/** The status a curl line's comment promises (`# 204`, `# 502: ...`), else any 2xx. */
const promised = (c: Call) => /\s#\s*(\d{3})\b/.exec(lineOf(c))?.[1];
const answeredAsPromised = (c: Call) => c.rc === 0 && (c.tool !== 'curl' || (promised(c) ? c.status === promised(c) : /^2\d\d$/.test(c.status)));
const described = (c: Call) => `${lineOf(c)} -> ${c.tool === 'curl' ? `HTTP ${c.status}, curl exit ${c.rc}` : `exit ${c.rc}`}`;
const ofTool = (tool: string) => calls.filter((c) => c.tool === tool);

describe("the README's lab walkthrough, pasted into bash on a lab whose canaries hold indexes 1 and 2", () => {
  it('makes its calls: curl and tenantctl through every block, the temporal CLI reads', () => {
    expect(ofTool('curl').length, output.slice(-3000)).toBeGreaterThanOrEqual(30);
    expect(ofTool('tenantctl').length).toBeGreaterThanOrEqual(8);
    expect(ofTool('temporal').length).toBeGreaterThanOrEqual(8);
  });

  it('every call answers what its comment promises (502 for the fault, 204 for the delete), else 2xx; every tool exits 0', () => {
    expect(calls.filter((c) => !answeredAsPromised(c)).map(described), output.slice(-3000)).toEqual([]);
    // The promises are read, not skipped: the fault's 502 and the resume after it.
    expect(ofTool('curl').flatMap((c) => (promised(c) ? [`${promised(c)}:${c.status}`] : []))).toEqual(['204:204', '502:502', '200:200']);
  });

  it("the CLI lists the create's steps in order, and the repeated Idempotency-Key call is a replay", () => {
    expect(output).toContain('dns.ensure\nresolver.ensure\nstate.ensure\nnetwork.ensure\n');
    expect(output).toMatch(/^idempotent-replayed: true\r?$/im);
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
