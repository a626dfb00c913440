import { randomUUID } from 'node:crypto';
import { createTenantClient } from '../client/index.js';
import { parseCommandLine, UsageError, type Flags } from './args.js';
import { COMMANDS, usage, type Answer, type Command } from './commands.js';
import { credentialOf, resumeCommand } from './credential.js';
import { conditionLine, failureLine, printable, redact, table } from './output.js';
import { checkSecretsFile, writeSecretsFile } from './secrets-file.js';
import { reportRanSteps, watchSteps } from './progress.js';
import { watchRun } from './run-progress.js';

/**
 * tenantctl: the tenant provisioning API from a terminal, on the typed client (`client/`).
 * Exit codes say what happened: 0 done, 1 unavailable/unreachable, 2 usage, 3 refused (4xx),
 * 4 a backend step failed (502: the same command resumes), 5 an isolation check that did not pass.
 */
export const EXIT = { done: 0, unavailable: 1, usage: 2, refused: 3, stepFailed: 4, notPassed: 5 } as const;

const out = (s: string) => process.stdout.write(printable(s.endsWith('\n') ? s : `${s}\n`));
const err = (s: string) => process.stderr.write(printable(s.endsWith('\n') ? s : `${s}\n`));

function pick(words: string[]): { command: Command; args: string[] } {
  const command = COMMANDS.find((c) => c.words[0] === words[0] && c.words[1] === words[1]);
  if (!command) throw new UsageError(words.length ? `unknown command: ${words.slice(0, 2).join(' ')}` : 'no command given');
  const args = words.slice(2);
  if (args.length !== command.args.length) {
    throw new UsageError(`tenantctl ${command.words.join(' ')} takes ${command.args.map((a) => `<${a}>`).join(' ') || 'no arguments'}`);
  }
  return { command, args };
}

/** A dropped connection (the answer never arrived), as fetch reports it. */
const dropped = (e: unknown) => e instanceof TypeError;

async function callWithRepeat(command: Command, call: () => Promise<Answer>): Promise<Answer> {
  try {
    return await call();
  } catch (e) {
    if (!command.idempotent || !dropped(e)) throw e;
    err('the connection dropped before the answer arrived; repeating once with the same Idempotency-Key');
    return call();
  }
}

/** Writes the secrets to `file`, saying so; false (and why) when it could not. */
function writtenTo(file: string, body: unknown): boolean {
  try {
    const kept = writeSecretsFile(file, body);
    err(`secrets written to ${file} (mode 0600)${kept.length ? `; kept the ones it held that this answer does not carry: ${kept.join(', ')}` : ''}`);
    return true;
  } catch (e) {
    err(`tenantctl: could not write ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): the secrets are printed below, shown nowhere else`);
    return false;
  }
}

export async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let words: string[];
  let flags: Flags;
  let picked: { command: Command; args: string[] };
  let token: string | undefined;
  try {
    ({ words, flags } = parseCommandLine(argv));
    if (flags.help) {
      out(usage());
      return EXIT.done;
    }
    picked = pick(words);
    if (flags.output !== undefined && flags.output !== 'json' && flags.output !== 'table') throw new UsageError('--output must be json or table');
    const secrets = picked.command.secrets?.none?.(flags) ? undefined : picked.command.secrets;
    if (secrets && !flags['secrets-file'] && !flags['show-secrets']) {
      throw new UsageError(
        `${picked.command.words.join(' ')} can issue secrets: name a file for them with --secrets-file FILE (mode 0600), or pass --show-secrets`,
      );
    }
    // Before the call: its answer's secrets are shown once, and must have somewhere to go.
    if (secrets && flags['secrets-file'] !== undefined && !flags['show-secrets']) checkSecretsFile(flags['secrets-file'], secrets.of(picked.args));
    if (!(flags.api ?? env.TENANT_API_URL)) throw new UsageError('the API address: --api URL or TENANT_API_URL');
    token = credentialOf(flags, env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`tenantctl: ${e.message}\n(tenantctl --help lists every command)`);
    return EXIT.usage;
  }
  const { command, args } = picked;
  // A plan is read by a person: a table unless JSON is asked for.
  const output = flags.output ?? (process.stdout.isTTY || flags.plan ? 'table' : 'json');
  const api = createTenantClient({ baseUrl: (flags.api ?? env.TENANT_API_URL)!, token });
  const header = { 'Idempotency-Key': randomUUID() };

  const progress = command.progress ? await watchSteps(api, command.progress(args), err) : undefined;
  // Every other call that runs an object's steps says which step its run is at, as it gets there.
  const watched = progress ? undefined : command.run?.(args, flags);
  const live = watched ? watchRun(api, watched, err) : undefined;
  if (progress || live)
    err(`${command.words.join(' ')} ${args.join(' ')}: running${command.idempotent ? ` (Idempotency-Key ${header['Idempotency-Key']})` : ''}`);
  let answer: Answer;
  try {
    answer = await callWithRepeat(command, () => command.call({ api, args, flags, header }));
  } catch (e) {
    await progress?.finish(undefined);
    await live?.finish();
    if (e instanceof UsageError) {
      err(`tenantctl: ${e.message}`);
      return EXIT.usage;
    }
    err(`tenantctl: cannot reach the API (${(e as Error).message})`);
    return EXIT.unavailable;
  }
  const status = answer.response.status;
  const body = answer.data ?? answer.error;
  await live?.finish();
  if (progress) await progress.finish(body, answer.response);
  else reportRanSteps(answer.response, err);
  if (answer.response.headers.get('idempotent-replayed') === 'true') err('(the answer kept for this Idempotency-Key, replayed)');

  const file = flags['secrets-file'];
  const shown = flags['show-secrets'] ? { value: body, found: false } : redact(body, file ? `<in ${file}>` : '<hidden: --show-secrets>');
  if (shown.found && file && !writtenTo(file, body)) {
    // The file could not be written after all (the disk filled, it was removed meanwhile): the
    // secrets are shown once, so they go to the screen rather than nowhere.
    shown.value = body;
  }
  const print = (v: unknown) => (v === undefined ? undefined : out(output === 'table' ? table(v) : JSON.stringify(v, null, 2)));

  if (status >= 200 && status < 300) {
    print(shown.value);
    const notReady = conditionLine(body);
    if (notReady) err(notReady);
    if (status === 204) err('done');
    const notPassed = command.notPassed?.(body);
    if (notPassed) {
      err(notPassed);
      return EXIT.notPassed;
    }
    return EXIT.done;
  }
  const message = (body as { error?: string } | undefined)?.error ?? answer.response.statusText;
  if (status === 502) {
    err(`tenantctl: ${message} (502)`);
    const failure = (body as { failure?: Parameters<typeof failureLine>[0] } | undefined)?.failure;
    if (failure) err(failureLine(failure));
    const { error: _e, failure: _f, ...partial } = (shown.value ?? {}) as Record<string, unknown>;
    if (Object.keys(partial).length) print(partial);
    const resume = resumeCommand(argv, flags, env, body);
    err(`${resume.say}\n  tenantctl ${resume.line}`);
    return EXIT.stepFailed;
  }
  if (status >= 400 && status < 500) {
    err(`tenantctl: refused (${status}): ${message}`);
    return EXIT.refused;
  }
  err(`tenantctl: the service answered ${status}: ${message}`);
  return EXIT.unavailable;
}
