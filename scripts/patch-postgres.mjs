#!/usr/bin/env node
// Mends postgres.js 3.4.9's write scheduler, run by npm after every install (`postinstall`).
//
// Upstream (porsager/postgres#1154, #1208; fix proposed in #1209, unreleased at 3.4.9): a small write
// is batched behind a setImmediate, and when the connection closes meanwhile the driver
//  - cancels the immediate but leaves `nextWriteTimer` set and keeps the buffered bytes, so the
//    connection never flushes again: its next query, on the reconnected socket, hangs unsent (the
//    registry's statement timeout never sees it), or the stale bytes of the dead session are sent
//    ahead of the new one's;
//  - or calls `socket.write` on the null socket, an uncaught TypeError that ends the process.
// The TypeError was met when the registry's connections were reset under load (database-cut test,
// docs/decisions.md "postgres.js, mended at install"); the stale bytes come from the same lines. The mend forgets the buffered bytes when the
// socket goes (a query still waiting is re-sent whole after the reconnect, or failed with
// CONNECTION_CLOSED, as the driver already does), and a write with no socket fails its queries
// with CONNECTION_CLOSED instead of throwing. Idempotent; refuses any other version, so an upgrade
// is a decision: drop this script once a release carries the fix.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';

const VERSION = '3.4.9';
const MARK = '/* svc: mended, scripts/patch-postgres.mjs */';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'postgres');

const EDITS = [
  {
    from: `  function nextWrite(fn) {
    const x = socket.write(chunk, fn)`,
    to: `  function nextWrite(fn) {
    ${MARK}
    if (!socket) {
      chunk = nextWriteTimer = null
      error(Errors.connection('CONNECTION_CLOSED', options))
      return false
    }
    const x = socket.write(chunk, fn)`,
  },
  {
    // terminate()
    from: `      error(Errors.connection('CONNECTION_DESTROYED', options))

    clearImmediate(nextWriteTimer)
`,
    to: `      error(Errors.connection('CONNECTION_DESTROYED', options))

    clearImmediate(nextWriteTimer)
    chunk = nextWriteTimer = null
`,
  },
  {
    // closed()
    from: `    incomings = null
    clearImmediate(nextWriteTimer)
`,
    to: `    incomings = null
    clearImmediate(nextWriteTimer)
    chunk = nextWriteTimer = null
`,
  },
];

function fail(message) {
  process.stderr.write(`patch-postgres: ${message}\n`);
  process.exit(1);
}

if (!existsSync(join(root, 'package.json'))) process.exit(0); // not installed (yet): nothing to mend
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
if (version !== VERSION) {
  fail(
    `postgres ${version} is installed; this mend is for ${VERSION}. Check whether the release fixes nextWrite after a close (porsager/postgres#1208), then update or drop scripts/patch-postgres.mjs.`,
  );
}

for (const flavour of ['src', 'cjs/src', 'cf/src']) {
  const file = join(root, flavour, 'connection.js');
  if (!existsSync(file)) continue;
  let text = readFileSync(file, 'utf8');
  if (text.includes(MARK)) continue;
  for (const { from, to } of EDITS) {
    const at = text.indexOf(from);
    if (at < 0 || text.indexOf(from, at + 1) >= 0) fail(`${flavour}/connection.js: the text to mend is not there exactly once`);
    text = text.slice(0, at) + to + text.slice(at + from.length);
  }
  writeFileSync(file, text);
  process.stderr.write(`patch-postgres: mended ${flavour}/connection.js\n`);
}
