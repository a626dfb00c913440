#!/usr/bin/env node
// tenantctl: the compiled CLI when built (dist/), else its TypeScript source through tsx.
//
// Installed from a checkout (`npm install -g .` or `npm link`: a link to the checkout), this file
// runs on the machine's `node`, whichever it is (npm checks `engines` against the Node npm runs on,
// never the bin's). The checkout pins the Node the project runs on (the `node` devDependency, what
// `npx` and npm scripts put first on PATH), so the CLI runs itself again on that one when it is not
// already it: the same CLI on the same Node, from anywhere. Without it (an install of the package
// alone), it runs on the Node it was given.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { existsSync, realpathSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';

const pinned = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
if (existsSync(pinned) && realpathSync(pinned) !== realpathSync(process.execPath)) {
  const child = spawn(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  // Ctrl-C reaches the child from the terminal itself (same process group); this process only waits
  // for it. A signal sent to this process alone is passed on.
  process.on('SIGINT', () => {});
  for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15);
  });
} else {
  const built = new URL('../dist/cli/tenantctl.js', import.meta.url);
  if (existsSync(built)) {
    await import(built.href);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import(new URL('../cli/tenantctl.ts', import.meta.url).href);
  }
}
