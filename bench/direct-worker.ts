/**
 * The direct reference's process (issue 48 item 4): the create's steps called directly, in a
 * process of their own as the worker's are, while the lab's simulators stay in the bench process.
 * So neither the steps nor the simulators share a thread with the other, as in the service, and
 * this process's CPU is the steps' alone.
 *
 * Configured by the site's environment; takes one JSON line per create on stdin (`{ id, name }`)
 * and answers one per create on stdout (`{ id, ms, steps, sample }` or `{ id, error }`), any number
 * in flight. Prints `ready` once its registry answers.
 */
import { createInterface } from 'node:readline';
import { directCreator } from './direct-steps.js';

async function main(): Promise<void> {
  const direct = await directCreator(process.env);
  const answer = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
  answer({ ready: true });
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const { id, name } = JSON.parse(line) as { id: number; name: string };
    direct.create(name).then(
      (created) => answer({ id, ...created }),
      (err: unknown) => answer({ id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
  lines.once('close', () => void direct.close().then(() => process.exit(0)));
}

void main().catch((err: unknown) => {
  process.stderr.write(`direct steps process: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
