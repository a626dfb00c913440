/**
 * The log gateway as a Debian site runs it: from a Caddyfile, reloaded by its service manager
 * (`systemctl reload caddy`, whose ExecReload is `caddy reload --config /etc/caddy/Caddyfile`). A
 * reload POSTs the adapted Caddyfile to the admin API's /load, which replaces the whole running
 * config: the routes written through the admin API are gone. Caddy 2.6 names a Caddyfile's servers
 * srv0, srv1, ... (the `name` server option came in 2.7), so such a site sets SITE_LOG_SERVER=srv0.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunningCaddy } from './caddy.js';

/** The Caddyfile of the gateway's bootstrap: the admin API, and one server refusing every request with 401. */
export function gatewayCaddyfile(adminUrl: string, logsUrl: string): string {
  const admin = new URL(adminUrl);
  const logs = new URL(logsUrl);
  return [
    '{',
    `\tadmin ${admin.hostname}:${admin.port}`,
    '\tauto_https off',
    '}',
    `:${logs.port} {`,
    `\tbind ${logs.hostname}`,
    '\theader WWW-Authenticate "Bearer realm=\\"logs\\""',
    '\trespond "unauthorized" 401',
    '}',
    '',
  ].join('\n');
}

/** `caddy reload --config <Caddyfile>` against this Caddy's admin API, as the service manager runs it. */
export async function reloadFromCaddyfile(caddy: RunningCaddy, text: string): Promise<void> {
  const file = join(caddy.dir, 'Caddyfile');
  await writeFile(file, text);
  const admin = new URL(caddy.adminUrl);
  await new Promise<void>((resolve, reject) => {
    execFile(
      'caddy',
      ['reload', '--config', file, '--adapter', 'caddyfile', '--address', `${admin.hostname}:${admin.port}`],
      { env: { ...process.env, XDG_CONFIG_HOME: join(caddy.dir, 'config'), XDG_DATA_HOME: join(caddy.dir, 'data'), HOME: caddy.dir }, timeout: 30_000 },
      (err, _stdout, stderr) => (err ? reject(new Error(`caddy reload failed: ${stderr.trim().split('\n').slice(-3).join(' | ')}`)) : resolve()),
    );
  });
}
