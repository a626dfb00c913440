import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { ConfigError, loadConfig, serviceSchema } from '../../apps/config/env.js';
import { siteSchema } from '../../activities/site.js';
import { routes as codecRoutes } from '../../apps/api/routes/temporal/codec.js';
import { SEARCH_ATTRIBUTES } from '../../core/search-attributes.js';

/**
 * The production shape (docker-compose.yml, Dockerfile, .env.example, docs/production.md) checked
 * without a Docker engine: the Debian docker-compose validates and renders the file offline, and the
 * rendered services are held against what the code reads and what the docs promise.
 */
const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const COMPOSE = '/usr/bin/docker-compose';
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const CORE = ['postgres', 'temporal', 'temporal-ui', 'api', 'worker'];
const KEYS_32 = new Set(['SITE_TOKEN_KEY', 'SITE_SECRETS_KEY', 'TEMPORAL_CODEC_KEY']);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv, timeout = 30_000): Promise<Run> {
  return new Promise((done) => {
    execFile(file, args, { cwd: ROOT, env, timeout }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      done({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

// A clean environment: the caller's shell (DATABASE_URL of the test machine, ...) must not leak into
// the rendering, since docker-compose prefers the process environment over the env file.
function compose(envFile: string, ...args: string[]): Promise<Run> {
  return run(COMPOSE, ['--env-file', envFile, '-f', join(ROOT, 'docker-compose.yml'), ...args], {
    PATH: process.env.PATH,
    HOME: tmpdir(),
  });
}

type Service = {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  command?: string[] | string;
  entrypoint?: string[];
  environment?: Record<string, string | null>;
  ports?: (string | { published: number | string; target: number | string })[];
  healthcheck?: { test?: string[]; disable?: boolean };
  restart?: string;
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
};
type Rendered = { services: Record<string, Service> };

/** `KEY=value` lines of an env file, commented out (`# KEY=value`) or not. */
function envLines(text: string): Map<string, { value: string; active: boolean }> {
  const out = new Map<string, { value: string; active: boolean }>();
  for (const line of text.split('\n')) {
    const m = /^(#\s?)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) out.set(m[2]!, { value: m[3]!.replace(/^'(.*)'$/, '$1'), active: !m[1] });
  }
  return out;
}

/** The variable names a source file declares as schema keys (`  NAME: z...`) or reads as process.env.NAME. */
function namesIn(file: string): string[] {
  const text = read(file);
  const keys = [...text.matchAll(/^\s{2,}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);
  const reads = [...text.matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!);
  return [...keys, ...reads];
}

function publishedPorts(s: Service): { published: number; target: number }[] {
  return (s.ports ?? []).map((p) => {
    if (typeof p !== 'string') return { published: Number(p.published), target: Number(p.target) };
    const parts = p.replace(/\/\w+$/, '').split(':');
    return { published: Number(parts.at(-2)), target: Number(parts.at(-1)) };
  });
}

// docker-compose renders `$` as `$$`; the container sees one.
const unescape = (s: string) => s.replaceAll('$$', '$');

function dockerfileHealthcheck(): string[] {
  const m = /^HEALTHCHECK\b[^\n]*\\\n\s*CMD (\[[^\n]*\])$/m.exec(read('Dockerfile')) ?? /^HEALTHCHECK\b.*?CMD (\[.*\])$/m.exec(read('Dockerfile'));
  if (!m) throw new Error('Dockerfile has no HEALTHCHECK in exec form');
  return JSON.parse(m[1]!) as string[];
}

const CODE_SCHEMAS: Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }> = {
  ...serviceSchema.shape,
  ...siteSchema.in.shape,
};

describe('production shape: docker-compose.yml, Dockerfile, .env.example', () => {
  let dir: string;
  let example: Rendered;
  let filled: Rendered;
  let filledEnvFile: string;
  const exampleText = read('.env.example');
  const exampleVars = envLines(exampleText);
  const composeText = read('docker-compose.yml');
  const dockerfile = read('Dockerfile');

  beforeAll(async () => {
    if (!existsSync(COMPOSE)) {
      throw new Error(`${COMPOSE} is missing: scripts/setup.sh installs Debian's docker-compose (apt-get install docker-compose)`);
    }
    dir = await mkdtemp(join(tmpdir(), 'compose-test-'));
    // The example with its placeholders replaced by valid secrets, as an operator would fill it in.
    const secrets = exampleText.replace(
      /^([A-Z][A-Z0-9_]*)=CHANGE_ME$/gm,
      (_l, name: string) => `${name}=${KEYS_32.has(name) ? randomBytes(32).toString('base64') : randomBytes(24).toString('hex')}`,
    );
    filledEnvFile = join(dir, 'filled.env');
    await writeFile(filledEnvFile, secrets);
    const [a, b] = await Promise.all([compose(join(ROOT, '.env.example'), 'config'), compose(filledEnvFile, 'config')]);
    if (a.code !== 0) throw new Error(`docker-compose config failed with .env.example: ${a.stderr}`);
    if (b.code !== 0) throw new Error(`docker-compose config failed with filled settings: ${b.stderr}`);
    example = parse(a.stdout) as Rendered;
    filled = parse(b.stdout) as Rendered;
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe('docker-compose accepts the file offline', () => {
    it('validates with the example settings (config -q)', async () => {
      const r = await compose(join(ROOT, '.env.example'), 'config', '-q');
      expect(r.stderr).not.toMatch(/ERROR/);
      expect(r.code).toBe(0);
    });

    it('refuses to render when a required secret is missing, naming it', async () => {
      const without = join(dir, 'no-operator-token.env');
      await writeFile(without, exampleText.replace(/^OPERATOR_TOKEN=.*$/m, ''));
      const r = await compose(without, 'config', '-q');
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('OPERATOR_TOKEN');
    });

    it('passes an optional setting through only when .env sets it', async () => {
      const token = randomBytes(16).toString('hex');
      const withToken = join(dir, 'egress.env');
      await writeFile(withToken, `${read('.env.example')}\nEGRESS_AGENT_TOKEN=${token}\n`);
      const r = await compose(withToken, 'config');
      expect(r.code).toBe(0);
      const env = (parse(r.stdout) as Rendered).services.api!.environment!;
      expect(env.EGRESS_AGENT_TOKEN).toBe(token);
      expect(example.services.api!.environment!.EGRESS_AGENT_TOKEN ?? undefined).toBeUndefined();
    });
  });

  describe('services', () => {
    it('runs postgres, temporal, temporal-ui, api and worker; the rest are one-shot setup jobs', () => {
      const names = Object.keys(example.services);
      expect(names).toEqual(expect.arrayContaining(CORE));
      for (const name of names.filter((n) => !CORE.includes(n))) {
        const s = example.services[name]!;
        expect(s.restart, `${name} is a one-shot`).toBe('no');
        const waiters = Object.values(example.services).filter((o) => o.depends_on?.[name]);
        expect(waiters.length, `something waits for ${name}`).toBeGreaterThan(0);
        for (const w of waiters) expect(w.depends_on![name]!.condition).toBe('service_completed_successfully');
      }
    });

    it('pins every image to an explicit tag, never latest', () => {
      for (const [name, s] of Object.entries(example.services)) {
        expect(s.image, `${name} image`).toMatch(/^[a-z0-9./_-]+:[A-Za-z0-9._-]+$/);
        expect(s.image!.split(':').at(-1), `${name} tag`).not.toBe('latest');
      }
    });

    it('builds api and worker from the repository Dockerfile, tagged with the package version', () => {
      const version = (JSON.parse(read('package.json')) as { version: string }).version;
      for (const name of ['api', 'worker']) {
        const s = example.services[name]!;
        expect(s.build?.context).toBe(ROOT);
        expect(s.build?.dockerfile).toBe('Dockerfile');
        expect(s.build?.args?.SERVICE_VERSION).toBe(version);
        expect(s.image).toBe(`tenant-provisioning:${version}`);
      }
      expect(dockerfile).toMatch(new RegExp(`^ARG SERVICE_VERSION=${version.replaceAll('.', '\\.')}$`, 'm'));
      // The API runs with a bounded old generation (docs/performance.md), the same in both.
      expect(example.services.api!.command).toEqual(['node', '--max-old-space-size=128', 'dist/apps/api/main.js']);
      const lastCmd = [...dockerfile.matchAll(/^CMD (\[.*\])$/gm)].at(-1)?.[1];
      expect(JSON.parse(lastCmd ?? 'null')).toEqual(example.services.api!.command);
      // So does the worker (its own bound: a sweep's live heap is larger than the API's).
      expect(example.services.worker!.command).toEqual(['node', '--max-old-space-size=192', 'dist/apps/worker/main.js']);
    });

    it('publishes the API on 8080 and binds the Temporal UI and frontend to loopback', () => {
      expect(publishedPorts(example.services.api!)).toContainEqual({ published: 8080, target: 8080 });
      for (const name of ['temporal', 'temporal-ui']) {
        for (const p of example.services[name]!.ports ?? []) expect(String(p)).toMatch(/^127\.0\.0\.1:/);
      }
      expect(example.services.postgres!.ports ?? []).toEqual([]);
    });

    it('health-checks every long-running service; the worker relies on its restart policy', () => {
      for (const [name, s] of Object.entries(example.services)) {
        if (s.restart === 'no' || name === 'worker') continue;
        expect(s.healthcheck?.test?.length, `${name} healthcheck`).toBeGreaterThan(0);
        expect(s.healthcheck!.test![0]).not.toBe('NONE');
        expect(s.restart, `${name} restart`).toBe('unless-stopped');
      }
      const worker = example.services.worker!;
      // Rendered by docker-compose 1.29 as test: [NONE]; by Compose v2 as disable: true.
      expect(worker.healthcheck?.disable === true || worker.healthcheck?.test?.[0] === 'NONE').toBe(true);
      expect(worker.restart).toBe('unless-stopped');
      expect(worker.stop_grace_period).toBe('30s');
    });

    it("checks the API with the image's own HEALTHCHECK", () => {
      const test = example.services.api!.healthcheck!.test!.map(unescape);
      expect(test).toEqual(['CMD', ...dockerfileHealthcheck()]);
    });

    it('waits for a healthy database and Temporal before the API and worker start', () => {
      for (const name of ['api', 'worker']) {
        const deps = example.services[name]!.depends_on!;
        expect(deps.postgres?.condition).toBe('service_healthy');
        expect(deps.temporal?.condition).toBe('service_healthy');
      }
    });
  });

  describe('Temporal on PostgreSQL', () => {
    it('runs the server with the postgres12 persistence on the postgres service', () => {
      const env = example.services.temporal!.environment!;
      expect(env).toMatchObject({ DB: 'postgres12', DB_PORT: '5432', POSTGRES_SEEDS: 'postgres' });
      expect(env.POSTGRES_USER).toBe(example.services.postgres!.environment!.POSTGRES_USER);
      expect(env.POSTGRES_PWD).toBe(example.services.postgres!.environment!.POSTGRES_PASSWORD);
    });

    it('sets up the namespace and every search attribute the service writes', () => {
      const script = example.services['temporal-setup']!.command!.toString();
      for (const key of SEARCH_ATTRIBUTES) expect(script).toMatch(new RegExp(`\\b${key.name}\\b`));
      expect(example.services['temporal-setup']!.environment!.NAMESPACE).toBe(example.services.worker!.environment!.TEMPORAL_NAMESPACE);
    });

    it('gives the one-shot jobs shell scripts that parse', async () => {
      for (const name of ['temporal-schema', 'temporal-setup']) {
        const s = example.services[name]!;
        expect(s.entrypoint?.slice(0, 2)).toEqual(['/bin/sh', '-ec']);
        const script = unescape([s.command].flat().join('\n'));
        const r = await run('/bin/sh', ['-n', '-c', script], { PATH: process.env.PATH });
        expect(r.stderr, name).toBe('');
        expect(r.code, name).toBe(0);
      }
    });

    it("points the UI at the server and at the API's codec endpoint", () => {
      const ui = example.services['temporal-ui']!.environment!;
      expect(ui.TEMPORAL_ADDRESS).toBe('temporal:7233');
      const codec = new URL(ui.TEMPORAL_CODEC_ENDPOINT!);
      // The UI appends /encode and /decode; the API serves them under this base path.
      for (const route of codecRoutes) expect(route.path).toMatch(new RegExp(`^${codec.pathname}/(encode|decode)$`));
      expect(Number(codec.port)).toBe(publishedPorts(example.services.api!)[0]!.published);
      const origin = example.services.api!.environment!.TEMPORAL_UI_ORIGIN!;
      const uiPort = publishedPorts(example.services['temporal-ui']!)[0]!.published;
      expect(new URL(origin).port).toBe(String(uiPort));
    });
  });

  describe('environment of the API and worker', () => {
    // The site's variables: core/site.ts and each backend area's settings (activities/<area>/settings.ts).
    const settingsFiles = readdirSync(new URL('../../activities', import.meta.url), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(new URL(`../../activities/${d.name}/settings.ts`, import.meta.url)))
      .map((d) => `activities/${d.name}/settings.ts`);
    const codeNames = new Set([...namesIn('apps/config/env.ts'), ...namesIn('core/site.ts'), ...settingsFiles.flatMap(namesIn)]);
    const workerReads = new Set(['apps/worker/main.ts', 'apps/worker/run.ts'].flatMap(namesIn));
    // Baked into the image at build time (build args -> ENV), not set per container.
    const buildTime = ['SERVICE_VERSION', 'SERVICE_COMMIT', 'SERVICE_BUILT'];

    it('finds every variable the configuration schemas define', () => {
      expect([...codeNames].sort()).toEqual(Object.keys(CODE_SCHEMAS).sort());
    });

    it('passes only variables the code reads', () => {
      for (const name of ['api', 'worker']) {
        for (const key of Object.keys(example.services[name]!.environment!)) {
          const known = codeNames.has(key) || (name === 'worker' && workerReads.has(key));
          expect(known, `${name}: ${key} is read by apps/config/env.ts, core/site.ts, an area's settings.ts or the worker`).toBe(true);
        }
      }
    });

    it('passes every setting the code reads (build metadata comes from build args)', () => {
      const api = Object.keys(example.services.api!.environment!);
      for (const key of codeNames) {
        if (buildTime.includes(key)) {
          expect(example.services.api!.build!.args).toHaveProperty(key);
          expect(dockerfile).toMatch(new RegExp(`^ARG ${key}=`, 'm'));
          continue;
        }
        expect(api, `api environment lacks ${key}`).toContain(key);
      }
      expect(example.services.worker!.environment!.WORKFLOW_BUNDLE).toBe('/app/dist/workflow-bundle.js');
      expect(dockerfile).toContain('scripts/build-workflow-bundle.ts dist/workflow-bundle.js');
    });

    it('lists every variable in .env.example', () => {
      const code = composeText
        .split('\n')
        .filter((l) => !/^\s*#/.test(l))
        .join('\n');
      const interpolated = [...code.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!);
      const passed = ['api', 'worker'].flatMap((n) => Object.keys(example.services[n]!.environment!));
      for (const key of new Set([...interpolated, ...passed, ...buildTime])) {
        expect(exampleVars.has(key), `.env.example lists ${key}`).toBe(true);
      }
      const ui = example.services['temporal-ui']!.environment!;
      expect(exampleVars.get('TEMPORAL_CODEC_ENDPOINT')?.value).toBe(ui.TEMPORAL_CODEC_ENDPOINT);
    });

    it('documents the defaults that really apply', () => {
      const raw = parse(composeText) as { 'x-service-environment': Record<string, string | null> };
      for (const [key, value] of Object.entries(raw['x-service-environment'])) {
        const listed = exampleVars.get(key);
        const schema = CODE_SCHEMAS[key];
        if (!listed || listed.active || !schema) continue;
        const composeDefault = value === null ? undefined : /^\$\{[A-Z0-9_]+:-(.*)\}$/.exec(value)?.[1];
        if (value !== null && composeDefault === undefined) continue; // fixed or required: no default
        const codeDefault = schema.safeParse(undefined);
        if (composeDefault !== undefined) {
          expect(listed.value, `${key}: .env.example shows the compose default`).toBe(composeDefault);
          if (codeDefault.data !== undefined) {
            expect(schema.safeParse(composeDefault).data, `${key}: compose default = code default`).toEqual(codeDefault.data);
          }
        } else if (codeDefault.data !== undefined) {
          expect(schema.safeParse(listed.value).data, `${key}: .env.example shows the code default`).toEqual(codeDefault.data);
        }
      }
    });

    it('hands the API and worker a configuration the service accepts once the secrets are filled in', () => {
      for (const name of ['api', 'worker']) {
        const env = Object.fromEntries(Object.entries(filled.services[name]!.environment!).filter((e): e is [string, string] => e[1] !== null));
        const config = loadConfig(env);
        expect(config.site?.domain).toBe('lab.example.net');
        expect(config.listen.port).toBe(8080);
        expect(config.env.TEMPORAL_ADDRESS).toBe('temporal:7233');
        expect(new URL(config.env.DATABASE_URL).host).toBe('postgres:5432');
        expect(config.codecKey?.length).toBe(32);
      }
    });

    it('refuses to start on the unedited example, naming the variable and not its value', () => {
      const env = Object.fromEntries(Object.entries(example.services.api!.environment!).filter((e): e is [string, string] => e[1] !== null));
      let error: unknown;
      try {
        loadConfig(env);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('OPERATOR_TOKEN');
      expect((error as Error).message).not.toContain('CHANGE_ME');
    });
  });

  describe('Dockerfile', () => {
    const froms = () => {
      const args = new Map([...dockerfile.matchAll(/^ARG (\w+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
      return [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]!.replace(/\$\{(\w+)\}/g, (_x, a: string) => args.get(a) ?? ''));
    };

    it('builds every stage on Node 24', () => {
      expect(froms().length).toBeGreaterThanOrEqual(2);
      for (const image of froms()) expect(image).toMatch(/^node:24(\.\d+){0,2}-/);
    });

    it('runs the final stage as a non-root user in production mode with production dependencies only', () => {
      const final = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
      const user = /^USER (\S+)$/m.exec(final)?.[1];
      expect(user).toBeDefined();
      expect(['root', '0', '0:0']).not.toContain(user);
      expect(final).toMatch(/NODE_ENV=production/);
      const depsStage = /COPY --from=(\w+) \/app\/node_modules/.exec(final)?.[1];
      expect(dockerfile).toMatch(new RegExp(`FROM \\S+ AS ${depsStage}\\n[\\s\\S]*?npm ci --omit=dev`));
      expect(final).not.toMatch(/^COPY (apps|activities|workflows|test)\b/m);
    });

    it('ships the migrations where the compiled registry looks for them, and the workflow bundle', () => {
      expect(dockerfile).toMatch(/cp -r db\/migrations dist\/db\/migrations/);
      expect(dockerfile).toMatch(/npx tsx scripts\/build-workflow-bundle\.ts/);
      expect(read('db/registry.ts')).toContain("new URL('./migrations', import.meta.url)");
    });

    it('keeps secrets and local state out of the build context', () => {
      const ignored = read('.dockerignore')
        .split('\n')
        .map((l) => l.trim());
      for (const entry of ['.env', 'node_modules', 'dist', '.git']) expect(ignored).toContain(entry);
      expect(read('.gitignore').split('\n')).toContain('.env');
    });

    describe('HEALTHCHECK', () => {
      const servers: Server[] = [];
      let certDir: string;
      const serve = async (server: Server) => {
        servers.push(server);
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        return (server.address() as AddressInfo).port;
      };
      const answering = (status: number) => (_req: unknown, res: { writeHead(s: number): void; end(b: string): void }) => {
        res.writeHead(status);
        res.end('{}');
      };
      const check = (env: Record<string, string>) => {
        const [bin, ...args] = dockerfileHealthcheck();
        expect(bin).toBe('node');
        return run(process.execPath, args, { PATH: process.env.PATH, ...env }, 10_000);
      };

      beforeAll(async () => {
        certDir = await mkdtemp(join(tmpdir(), 'healthcheck-tls-'));
        const r = await run(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'ec',
            '-pkeyopt',
            'ec_paramgen_curve:prime256v1',
            '-nodes',
            '-days',
            '1',
            '-subj',
            '/CN=localhost',
            '-keyout',
            join(certDir, 'key.pem'),
            '-out',
            join(certDir, 'cert.pem'),
          ],
          { PATH: process.env.PATH },
        );
        if (r.code !== 0) throw new Error(`openssl could not make a test certificate: ${r.stderr}`);
      });
      afterAll(async () => {
        for (const s of servers) s.close();
        if (certDir) await rm(certDir, { recursive: true, force: true });
      });

      it('passes when /healthz answers 200 on the LISTEN_ADDRESS port', async () => {
        const port = await serve(createHttpServer(answering(200)));
        expect((await check({ LISTEN_ADDRESS: `127.0.0.1:${port}` })).code).toBe(0);
        expect((await check({ LISTEN_ADDRESS: `:${port}` })).code).toBe(0);
      });

      it('fails when /healthz answers an error or nothing listens', async () => {
        const port = await serve(createHttpServer(answering(503)));
        expect((await check({ LISTEN_ADDRESS: `127.0.0.1:${port}` })).code).toBe(1);
        const closed = createHttpServer();
        const freed = await serve(closed);
        await new Promise((r) => closed.close(r));
        expect((await check({ LISTEN_ADDRESS: `127.0.0.1:${freed}` })).code).toBe(1);
      });

      it('speaks HTTPS when TLS is on, accepting the service certificate', async () => {
        const key = readFileSync(join(certDir, 'key.pem'));
        const cert = readFileSync(join(certDir, 'cert.pem'));
        const port = await serve(createHttpsServer({ key, cert }, answering(200)));
        const tls = { TLS_CERT_FILE: join(certDir, 'cert.pem'), TLS_KEY_FILE: join(certDir, 'key.pem') };
        expect((await check({ LISTEN_ADDRESS: `127.0.0.1:${port}`, ...tls })).code).toBe(0);
        expect((await check({ LISTEN_ADDRESS: `127.0.0.1:${port}` })).code).toBe(1);
      });
    });
  });

  describe('docs/production.md', () => {
    const docs = read('docs/production.md');

    it('names every image the compose file runs', () => {
      for (const [name, s] of Object.entries(example.services)) {
        const image = s.build ? s.image!.split(':')[0]! : s.image!;
        expect(docs, `${name}: ${image}`).toContain(image);
      }
    });

    it('names every published port and the container port behind it', () => {
      for (const s of Object.values(example.services)) {
        for (const p of publishedPorts(s)) {
          expect(docs).toMatch(new RegExp(`\\b${p.published}\\b`));
          expect(docs).toMatch(new RegExp(`\\b${p.target}\\b`));
        }
      }
    });

    it('names every service', () => {
      for (const name of Object.keys(example.services)) expect(docs).toContain(`\`${name}\``);
    });
  });
});
