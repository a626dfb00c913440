import { fork } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The backend transport's own CPU per call, apart from the fill: `npx tsx bench/backend-http.ts
 * [path/to/http.ts] [calls]` sends GETs and PUTs through BackendHttp, one at a time and 8 at once,
 * to a node:http server in another process, and prints this process's CPU per call. The path lets
 * another version of backends/http/client.ts (a checkout of an earlier commit) be measured beside it.
 */
const impl = resolve(process.argv[2] ?? 'backends/http/client.ts');
const calls = Number(process.argv[3] ?? 4000);
const { BackendHttp } = (await import(pathToFileURL(impl).href)) as typeof import('../backends/http/client.js');

const serverFile = join(tmpdir(), `backend-http-bench-${process.pid}.mjs`);
writeFileSync(
  serverFile,
  `
import { createServer } from 'node:http';
const body = JSON.stringify({ data: Array.from({ length: 12 }, (_, i) => ({ id: 'obj-' + i, name: 'tenant-object-' + i, enabled: true, vlan: 100 + i })) });
const server = createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); }); });
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
`,
);
const server = fork(serverFile);
const port = await new Promise<number>((r) => server.once('message', (m) => r(m as number)));
const http = new BackendHttp('bench', `http://127.0.0.1:${port}/api`, { authorization: 'Bearer bench' }, 10_000);

async function run(n: number, concurrency: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < n) {
        const r =
          next % 2
            ? await http.call({ path: 'objects', query: { n: next } })
            : await http.call({ method: 'PUT', path: 'objects/1', json: { name: 'x', vlan: 101 } });
        if (r.status !== 200 || !r.json()) throw new Error(`unexpected answer ${r.status}`);
      }
    }),
  );
}

try {
  await run(2_000, 8);
  for (const concurrency of [1, 8]) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await run(calls, concurrency);
    const cpu = process.cpuUsage(cpu0);
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      JSON.stringify({ impl, concurrency, calls, cpuMicrosPerCall: Math.round((cpu.user + cpu.system) / calls), callsPerSecond: Math.round(calls / seconds) }),
    );
  }
} finally {
  server.kill();
  rmSync(serverFile, { force: true });
}
process.exit(0);
