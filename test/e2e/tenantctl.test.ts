import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cuttingProxy, type CuttingProxy } from '../support/cutting-proxy.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { faulted } from '../support/lab-calls.js';
import { waitFor } from '../support/wait-for.js';
import { COMMANDS } from '../../cli/commands.js';
import { expectStatus } from '../support/answer.js';

/**
 * tenantctl through its real process (`bin/tenantctl.mjs`, the package's bin), spawned against a
 * lab site: exit codes, progress per step, secrets only in a 0600 file, the Idempotency-Key it
 * sends on its own and its one repeat when the connection drops.
 */
let site: TestSite;
let dir: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function tenantctl(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runProcess(process.execPath, ['bin/tenantctl.mjs', ...args], env);
}

/** A command line as a person types it, run by a shell that finds `tenantctl` on its PATH (the package's bin). */
function shell(line: string, env: Record<string, string> = {}): Promise<Run> {
  const bin = join(dir, 'bin');
  if (!existsSync(bin)) {
    mkdirSync(bin);
    writeFileSync(join(bin, 'tenantctl'), `#!/bin/sh\nexec '${process.execPath}' '${resolve('bin/tenantctl.mjs')}' "$@"\n`, { mode: 0o755 });
  }
  return runProcess('sh', ['-c', line], { PATH: `${bin}:${process.env.PATH ?? ''}`, ...env });
}

/** tenantctl running, its stderr readable while it runs (what a person watching the terminal sees). */
function tenantctlLive(args: string[]): { stderr(): string; done: Promise<Run> } {
  const child = spawn(process.execPath, ['bin/tenantctl.mjs', ...args], {
    env: { PATH: process.env.PATH ?? '', TENANT_API_URL: site.url, TENANT_API_TOKEN: site.operatorToken },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return { stderr: () => stderr, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))) };
}

function runProcess(command: string, args: string[], env: Record<string, string>, cwd?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '', TENANT_API_URL: site.url, TENANT_API_TOKEN: site.operatorToken, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const SECRETS = (body: { api_token: string; dns: { tsig_secret: string }; state: { secret_key: string } }) => [
  body.api_token,
  body.dns.tsig_secret,
  body.state.secret_key,
];

beforeAll(async () => {
  site = await startTestSite({ minimal: true });
  dir = mkdtempSync(join(tmpdir(), 'tenantctl-'));
});
afterAll(async () => {
  await site?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('tenantctl tenant create', () => {
  it('shows each step as it passes, writes the secrets to a 0600 file only, and exits 0', async () => {
    const file = join(dir, 'ctla.json');
    const r = await tenantctl(['tenant', 'create', 'ctla', '--secrets-file', file, '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    for (const step of ['dns', 'resolver', 'state', 'network']) expect(r.stderr).toContain(`✓ ${step}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    expect(kept.name).toBe('ctla');
    for (const secret of SECRETS(kept)) {
      expect(secret).toEqual(expect.any(String));
      expect(r.stdout + r.stderr).not.toContain(secret);
    }
    const shown = JSON.parse(r.stdout);
    expect(shown.api_token).toBe(`<in ${file}>`);
    expect(shown.index).toBe(kept.index);

    // The token in the file is the tenant's: it reads its own tenant.
    const own = await tenantctl(['tenant', 'get', 'ctla', '--output', 'json'], { TENANT_API_TOKEN: kept.api_token });
    expect(own.code, own.stderr).toBe(0);
    expect(JSON.parse(own.stdout).name).toBe('ctla');
  });

  it('refuses to run a call that issues secrets with nowhere to put them: exit 2, nothing sent', async () => {
    const r = await tenantctl(['tenant', 'create', 'ctlnone']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--secrets-file');
    expectStatus(await site.call('GET', '/v1/tenants/ctlnone'), 404, site.logs);
  });

  it('prints the secrets when asked with --show-secrets', async () => {
    const r = await tenantctl(['tenant', 'create', 'ctlshow', '--show-secrets', '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).api_token).toMatch(/^dvt1\.ctlshow\./);
  });

  it('repeats once with its own Idempotency-Key when the connection drops, and gets the secrets', async () => {
    // The create's connection; tenantctl reads the tenant first (its progress) on another.
    const proxy: CuttingProxy = await cuttingProxy(new URL(site.url), 1, (head) => head.startsWith('POST '));
    try {
      const file = join(dir, 'ctldrop.json');
      const r = await tenantctl(['tenant', 'create', 'ctldrop', '--secrets-file', file, '--output', 'json'], { TENANT_API_URL: proxy.url });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('repeating once with the same Idempotency-Key');
      expect(r.stderr).toContain('replayed');
      const kept = JSON.parse(readFileSync(file, 'utf8'));
      const read = await site.call('GET', '/v1/tenants/ctldrop', { token: kept.api_token });
      expect(read.status, read.text).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  it('a failed backend step exits 4, keeps the partial secrets, says how to resume; the same command resumes', async () => {
    const file = join(dir, 'ctlfail.json');
    const args = ['tenant', 'create', 'ctlfail', '--secrets-file', file, '--output', 'json'];
    const failed = await faulted(site.backends.pdns.faults, { failNext: 1000, status: 500, match: '/zones' }, () => tenantctl(args));
    expect(failed.code, failed.stderr).toBe(4);
    expect(failed.stderr).toContain('backend step "dns" failed');
    expect(failed.stderr).toContain('✗ dns failed (run tenant-create/ctlfail)');
    expect(failed.stderr).toContain(`tenantctl ${args.join(' ')}`);
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const resumed = await tenantctl(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('✓ dns');
    expect(JSON.parse(resumed.stdout).outcome).toBe('resumed');
  });

  it("tenant runs lists the tenant's runs as a table, the resumed create with the step that failed", async () => {
    let r: Run;
    const deadline = Date.now() + 15_000;
    do r = await tenantctl(['tenant', 'runs', 'ctlfail', '--output', 'table']);
    while (!/FAILED STEPS/.test(r.stdout) && Date.now() < deadline);
    expect(r.code, r.stderr).toBe(0);
    const [head, ...rows] = r.stdout.trim().split('\n');
    expect(head!.split(/\s{2,}/)).toEqual(['STARTED', 'OPERATION', 'OBJECT', 'STATUS', 'OUTCOME', 'FAILED STEPS', 'FAILURE']);
    expect(
      rows.some((row) => /tenant-create\s+tenants\/ctlfail\s+(running|completed)\s+resumed\s+dns/.test(row)),
      r.stdout,
    ).toBe(true);
    expect((await tenantctl(['tenant', 'runs', 'ctlfail', '--limit', 'x'])).code).toBe(2);
    const bad = await tenantctl(['tenant', 'runs', 'ctlfail', '--status', 'sleeping']);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/status/);
  });
});

// Secrets are shown once: a file that holds some is never written over by another object's answer.
describe('tenantctl and a secrets file that already exists', () => {
  it("another tenant's secrets file: exit 2 before any call, nothing created, the file as it was", async () => {
    const file = join(dir, 'ctlo.json');
    expect((await tenantctl(['tenant', 'create', 'ctlo', '--secrets-file', file])).code).toBe(0);
    const before = readFileSync(file, 'utf8');
    const r = await tenantctl(['tenant', 'create', 'ctlq', '--secrets-file', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--secrets-file ${file} holds the secrets of "ctlo", not the secrets of tenant "ctlq"`);
    expect(r.stderr).not.toContain('running');
    expect(readFileSync(file, 'utf8')).toBe(before);
    expectStatus(await site.call('GET', '/v1/tenants/ctlq'), 404, site.logs);
  });

  it('a folder that does not exist, or a file that is not a secrets file: exit 2 before any call', async () => {
    const other = join(dir, 'notes.txt');
    writeFileSync(other, 'not secrets\n');
    for (const [file, said] of [
      [join(dir, 'nowhere', 'x.json'), 'its folder cannot be written (ENOENT)'],
      [other, 'exists and is not a secrets file tenantctl can write (not JSON)'],
    ] as const) {
      const r = await tenantctl(['tenant', 'create', 'ctlr', '--secrets-file', file]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(said);
    }
    expect(readFileSync(other, 'utf8')).toBe('not secrets\n');
    expectStatus(await site.call('GET', '/v1/tenants/ctlr'), 404, site.logs);
  });
});

describe('tenantctl certificate put --out', () => {
  it('never writes over what is not certificates (the private key beside it): exit 2, nothing sent, the key as it was', async () => {
    const key = join(dir, 'web.key');
    const pem = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n';
    writeFileSync(key, pem, { mode: 0o600 });
    writeFileSync(join(dir, 'web.csr'), 'not read: refused before\n');
    const sent = () => site.logs.filter((l) => l.includes('"method":"PUT"') && l.includes('/certificates/')).length;
    const before = sent();
    for (const [out, said] of [
      [key, `--out ${key} exists and holds something other than certificates (a private key?)`],
      [join(dir, 'nowhere', 'web.crt'), 'its folder cannot be written (ENOENT)'],
    ] as const) {
      const r = await tenantctl(['certificate', 'put', 'ctla', 'web', '--csr-file', join(dir, 'web.csr'), '--out', out]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(said);
    }
    expect(readFileSync(key, 'utf8')).toBe(pem);
    expect(sent()).toBe(before);
  });
});

describe('tenantctl tenant create with an enrollment token', () => {
  it("a failed step prints the command that resumes it with the tenant's own token; exactly that command resumes (200 resumed)", async () => {
    const admitted = await site.call('POST', '/v1/admissions', { body: { name: 'ctlenr' } });
    expect(admitted.status, admitted.text).toBe(201);
    // The person's environment, as README shows it: the enrollment token in TENANT_API_TOKEN.
    const person = { TENANT_API_TOKEN: admitted.body.enrollment_token as string };
    const file = join(dir, 'ctlenr.json');
    const args = ['tenant', 'create', 'ctlenr', '--secrets-file', file, '--output', 'json'];
    const failed = await faulted(site.backends.pdns.faults, { failNext: 1000, status: 500, match: '/zones' }, () => tenantctl(args, person));
    expect(failed.code, failed.stderr).toBe(4);
    expect(failed.stderr).toContain('backend step "dns" failed');
    const lines = failed.stderr.split('\n');
    const said = lines.findIndex((l) => l.includes('The enrollment token was spent by this create'));
    expect(lines[said], failed.stderr).toBe(
      `The work is kept where it stopped. The enrollment token was spent by this create; resume it with the tenant's own token, kept in ${file}:`,
    );
    const printed = lines[said + 1]!.trim();
    expect(printed).toBe(`tenantctl ${args.join(' ')} --token-file ${file}`);
    expect(failed.stderr + failed.stdout).not.toContain(person.TENANT_API_TOKEN);

    // The same command again, with the spent enrollment token: 401, saying how to resume.
    const same = await tenantctl(args, person);
    expect(same.code, same.stderr).toBe(3);
    expect(same.stderr).toContain(
      "refused (401): unauthorized: this enrollment token was spent; resume with the tenant's own token (api_token in the 502 answer)",
    );

    const resumed = await shell(printed, person);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('✓ dns');
    expect(JSON.parse(resumed.stdout).outcome).toBe('resumed');
    // The resume issued the tenant a new token, written over the file it was read from.
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    const own = await tenantctl(['--token-file', file, 'tenant', 'get', 'ctlenr', '--output', 'json'], person);
    expect(own.code, own.stderr).toBe(0);
    expect(JSON.parse(own.stdout)).toMatchObject({ name: 'ctlenr', status: 'ready', index: kept.index });
  });
});

describe('tenantctl workload create', () => {
  it('prints each step activity its run ran; a failed one names the run; the same command resumes it', async () => {
    expect((await tenantctl(['tenant', 'create', 'ctlw', '--secrets-file', join(dir, 'ctlw.json')])).code).toBe(0);
    const args = ['workload', 'create', 'ctlw', 'web', '--output', 'json'];
    const failed = await faulted(site.backends.proxmox.faults, { failNext: 1000, status: 500, match: '/clone', method: 'POST' }, () => tenantctl(args));
    expect(failed.code, failed.stderr).toBe(4);
    expect(failed.stderr).toContain('✓ dns.check-name');
    expect(failed.stderr).toContain('✓ hypervisor.template-disk');
    expect(failed.stderr).toContain('✗ hypervisor.ensure-vm failed (run workload-create/ctlw/web)');
    expect(failed.stderr).not.toContain('dns.publish-workload');
    // What the backend answered, as the 502 carries it: the step, the product, its answer.
    expect(failed.stderr).toContain('step hypervisor (hypervisor.ensure-vm): proxmox answered 500, failed after its retries');
    expect(failed.stderr).toMatch(/\n {2}POST \/nodes\/\S+\/qemu\/\d+\/clone -> 500/);
    // A read while its run is parked says why it is not ready and what to do.
    const read = await tenantctl(['workload', 'get', 'ctlw', 'web', '--output', 'json']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toContain('not ready: its run workload-create/ctlw/web is parked since ');
    expect(read.stderr).toContain('; repeat the workload create to resume\nstep hypervisor (hypervisor.ensure-vm): proxmox answered 500');

    const resumed = await tenantctl(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('✓ hypervisor.ensure-vm');
    expect(resumed.stderr).toContain('✓ dns.publish-workload');
    expect(JSON.parse(resumed.stdout)).toMatchObject({ name: 'web', status: 'ready' });
  });
});

describe('tenantctl shows live step progress for every object command', () => {
  it('workload create says which step its run is at while it runs, before the answer and its steps', async () => {
    expect((await tenantctl(['tenant', 'create', 'ctll', '--secrets-file', join(dir, 'ctll.json')])).code).toBe(0);
    // The VM's clone held at Proxmox: the run sits at its hypervisor step until the test lets it go.
    const hold = site.backends.proxmox.faults.hold({ match: '/clone', method: 'POST' });
    const live = tenantctlLive(['workload', 'create', 'ctll', 'web', '--output', 'json']);
    try {
      await hold.reached;
      await waitFor(() => live.stderr().includes('\n  … hypervisor\n'), 15_000);
      // Said while the call runs: no answer yet, so no step activity reported.
      expect(live.stderr()).not.toContain('✓');
    } finally {
      hold.release();
    }
    const r = await live.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^workload create ctll web: running \(Idempotency-Key [0-9a-f-]{36}\)\n/);
    expect(r.stderr.indexOf('  … hypervisor')).toBeLessThan(r.stderr.indexOf('  ✓ hypervisor.ensure-vm'));
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'web', status: 'ready' });
  });

  it("every command that runs an object's steps names the run it watches", () => {
    const runs = COMMANDS.filter((c) => /^(create|put|delete)$/.test(c.words[1]) && !['admission', 'device', 'certificate'].includes(c.words[0]));
    expect(runs.map((c) => c.words.join(' ')).sort()).toEqual(
      [
        'broker-account create',
        'broker-account delete',
        'device-address create',
        'device-address delete',
        'record delete',
        'record put',
        'tenant create',
        'tenant delete',
        'wifi-key create',
        'wifi-key delete',
        'workload create',
        'workload delete',
      ].sort(),
    );
    for (const c of runs) expect(c.progress ?? c.run, c.words.join(' ')).toBeDefined();
    expect(COMMANDS.find((c) => c.words.join(' ') === 'tenant reconcile')!.run!(['acme'], {})).toEqual({
      tenant: 'acme',
      operation: 'tenant-reconcile',
      object: 'tenants/acme',
    });
  });
});

describe('tenantctl installed from the checkout (README, "Install tenantctl")', () => {
  it('runs from any directory after the one install step, into a prefix of its own', async () => {
    // The machine's PATH (no node_modules/.bin: the machine's own Node first), npm's settings of
    // this test run dropped, an empty cache: as a person's shell. Nothing is fetched (--offline).
    const PATH = (process.env.PATH ?? '')
      .split(delimiter)
      .filter((p) => !p.includes('node_modules/.bin'))
      .join(delimiter);
    const prefix = mkdtempSync(join(tmpdir(), 'tenantctl-prefix-'));
    const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))), PATH, npm_config_cache: join(prefix, 'cache') };
    const install = await promisify(execFile)('npm', ['install', '-g', '--ignore-scripts', '--offline', '--prefix', prefix, '.'], {
      cwd: resolve('.'),
      env,
      timeout: 120_000,
    });
    expect(install.stdout + install.stderr).toMatch(/added 1 package/);
    // The only warning npm may give is the true one: the project's Node floor, when npm runs on an older Node.
    expect(install.stderr.split('\n').filter((l) => /npm warn/i.test(l) && !/EBADENGINE/.test(l))).toEqual([]);
    // Elsewhere, by name, from the prefix's bin on PATH.
    const elsewhere = mkdtempSync(join(tmpdir(), 'tenantctl-elsewhere-'));
    const help = await runProcess('tenantctl', ['--help'], { PATH: `${join(prefix, 'bin')}${delimiter}${PATH}` }, elsewhere);
    expect(help.stdout).toMatch(/^usage: tenantctl/);
    const list = await runProcess('tenantctl', ['tenant', 'list', '--output', 'json'], { PATH: `${join(prefix, 'bin')}${delimiter}${PATH}` }, elsewhere);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveProperty('tenants');
    rmSync(prefix, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });
});

describe('tenantctl exit codes and output', () => {
  it('a refusal (4xx) exits 3 with the service’s reason', async () => {
    const r = await tenantctl(['tenant', 'get', 'nosuch']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('refused (404): tenant not found');
  });

  it('usage errors exit 2: unknown command, missing argument, unknown flag, bad output', async () => {
    for (const args of [
      ['bogus', 'thing'],
      ['tenant', 'get'],
      ['tenant', 'list', '--nope'],
      ['tenant', 'list', '--output', 'xml'],
      // A file named by a slip is refused at once, not read until memory runs out.
      ['--token-file', '/dev/zero', 'tenant', 'list'],
      ['tenant', 'create', 'ctlz', '--secrets-file', '/dev/zero'],
      ['certificate', 'put', 'ctla', 'web', '--csr-file', '/dev/zero'],
    ]) {
      const r = await tenantctl(args);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect((await tenantctl(['tenant', 'list'], { TENANT_API_URL: '' })).code).toBe(2);
  });

  it('an unreachable API exits 1', async () => {
    const r = await tenantctl(['tenant', 'list'], { TENANT_API_URL: 'http://127.0.0.1:9' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot reach the API');
  });

  it('reconcile --plan prints what a reconcile would change as a table, needs no secrets file, changes nothing', async () => {
    expect((await tenantctl(['tenant', 'create', 'ctlp', '--secrets-file', join(dir, 'ctlp.json')])).code).toBe(0);
    const zone = `ctlp.${site.config.site!.domain}.`;
    const pdns = site.backends.pdns;
    // Drift behind the service: the zone's NS set changed through PowerDNS's API.
    const patch = await fetch(`${pdns.apiUrl}/servers/localhost/zones/${zone}`, {
      method: 'PATCH',
      headers: { 'x-api-key': pdns.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        rrsets: [{ name: zone, type: 'NS', ttl: 3600, changetype: 'REPLACE', records: [{ content: 'ns.elsewhere.example.', disabled: false }] }],
      }),
    });
    expect(patch.status).toBe(204);
    const r = await tenantctl(['tenant', 'reconcile', 'ctlp', '--plan']);
    expect(r.code, r.stderr).toBe(0);
    const [head, howTo, , columns, first] = r.stdout.trim().split('\n');
    const id = /^plan (plan-\S+) for tenant ctlp: nothing was changed; applying it would act on 1 of \d+ objects$/.exec(head!)?.[1];
    expect(id, head).toBeDefined();
    expect(howTo).toMatch(new RegExp(`^apply it until \\S+: tenantctl tenant reconcile ctlp --apply ${id}$`));
    expect(columns!.split(/\s+/)).toEqual(['AREA', 'OBJECT', 'PLAN', 'FIELDS']);
    expect(first!.split(/\s{2,}/)).toEqual(['dns', `zone ${zone}`, 'correct', 'NS']);
    // Nothing changed: a second plan finds the same (under its own id).
    const second = await tenantctl(['tenant', 'reconcile', 'ctlp', '--plan']);
    expect(second.stdout.split('\n').slice(2)).toEqual(r.stdout.split('\n').slice(2));
    expect((await tenantctl(['tenant', 'reconcile', 'ctlp', '--prune'])).code).toBe(2);
    expect((await tenantctl(['tenant', 'reconcile', 'ctlp', '--apply', id!, '--plan'])).code).toBe(2);
    // Applied by its id, exactly the plan: the NS set is put back; the same id again is refused.
    const applied = await tenantctl(['tenant', 'reconcile', 'ctlp', '--apply', id!, '--secrets-file', join(dir, 'ctlp-applied.json'), '--output', 'table']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(new RegExp(`^applied plan ${id}: reconciled tenant ctlp: 1 of \\d+ objects were not in place`));
    const again = await tenantctl(['tenant', 'reconcile', 'ctlp', '--apply', id!, '--secrets-file', join(dir, 'ctlp-again.json')]);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/was applied at/);
  });

  it('lists tenants as a table or as JSON', async () => {
    const t = await tenantctl(['tenant', 'list', '--output', 'table']);
    expect(t.code, t.stderr).toBe(0);
    const [head, ...rows] = t.stdout.trim().split('\n');
    expect(head).toMatch(/^NAME\s+INDEX\s+STATUS/);
    expect(rows.some((row) => /^ctla\s+\d+\s+ready/.test(row))).toBe(true);
    const j = await tenantctl(['tenant', 'list', '--output', 'json', '--api', site.url]);
    expect(JSON.parse(j.stdout).tenants.map((x: { name: string }) => x.name)).toContain('ctla');
  });

  it('in a terminal, answers as a table by default; piped, as JSON', async () => {
    // util-linux `script` gives the process a pseudo-terminal, as an operator's shell would.
    const tty = await new Promise<Run>((resolve) => {
      const child = spawn('script', ['-qec', `${process.execPath} bin/tenantctl.mjs tenant list`, '/dev/null'], {
        env: { PATH: process.env.PATH ?? '', TENANT_API_URL: site.url, TENANT_API_TOKEN: site.operatorToken },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr: '' }));
    });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(/NAME\s+INDEX\s+STATUS/);
    const piped = await tenantctl(['tenant', 'list']);
    expect(JSON.parse(piped.stdout)).toHaveProperty('tenants');
  });
});
