#!/usr/bin/env node
// Mends postgres.js 3.4.9's write scheduler, its close and its type fetch, run by npm after every install (`postinstall`).
// Hand-written: npm has no patch step, and patch-package brings a dozen dependencies for what these guarded edits do.
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
// with CONNECTION_CLOSED instead of throwing.
//
// And its type fetch (porsager/postgres#1192, #1205, #1223, open at 3.4.9): a new connection first
// asks for the array types, from ReadyForQuery, which drops that query's promise. A connection reset
// during it rejects the promise with no handler: an unhandled rejection, which ends a Node process
// (met in the database-cut test, in CI). The mend handles it: the connection's own close has
// already failed or re-queued its queries, and the next connection fetches the types again.
//
// Idempotent, edit by edit; refuses any other version, so an upgrade is a decision: drop this
// script once a release carries the fixes.
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
  {
    // closed(): a query sent between the socket's error and its close (a caller retrying at once on
    // the error) was never failed when the close had an error, and the connection kept its `query`:
    // after the reconnect those queries waited forever, and the next answers could be matched to the
    // wrong query. Every query still on the connection is failed at its close, error or not.
    from: `    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))
`,
    to: `    ;(query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket)) ${MARK}
    query = null
`,
  },
  {
    // ReadyForQuery(): the array-types query a new connection runs first; its promise was dropped.
    from: `        return fetchArrayTypes()
`,
    to: `        return fetchArrayTypes().catch(() => {}) ${MARK}
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
  const before = readFileSync(file, 'utf8');
  let text = before;
  // Edit by edit, so a copy mended by an earlier version of this script gets the edits added since.
  for (const { from, to } of EDITS) {
    if (text.includes(to)) continue;
    const at = text.indexOf(from);
    if (at < 0 || text.indexOf(from, at + 1) >= 0) fail(`${flavour}/connection.js: the text to mend is not there exactly once`);
    text = text.slice(0, at) + to + text.slice(at + from.length);
  }
  if (text === before) continue;
  writeFileSync(file, text);
  process.stderr.write(`patch-postgres: mended ${flavour}/connection.js\n`);
}
