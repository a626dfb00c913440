import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config/env.js';
import type { BuildInfo } from './context.js';

/** Runs git in the checkout this code lives in; undefined when there is no git or no checkout. */
export type Git = (args: string[]) => string | undefined;

const checkout = fileURLToPath(new URL('../..', import.meta.url));

export const git: Git = (args) => {
  try {
    return execFileSync('git', args, { cwd: checkout, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 }).trim();
  } catch {
    return undefined;
  }
};

/**
 * The commit a checkout's HEAD names, read from the files of its `.git` directory alone (HEAD, a
 * loose ref, or packed-refs), so an image build with no git binary and only those files in its
 * context still knows what it was built from. Undefined when they do not say.
 */
export function headCommit(gitDir: string): string | undefined {
  const read = (f: string) => (existsSync(join(gitDir, f)) ? readFileSync(join(gitDir, f), 'utf8').trim() : undefined);
  const head = read('HEAD');
  if (!head) return undefined;
  if (/^[0-9a-f]{40}$/.test(head)) return head; // a detached HEAD
  const ref = /^ref: (refs\/[\w./-]+)$/.exec(head)?.[1];
  if (!ref) return undefined;
  const loose = read(ref);
  if (loose && /^[0-9a-f]{40}$/.test(loose)) return loose;
  for (const line of (read('packed-refs') ?? '').split('\n')) {
    const [sha, name] = line.split(' ');
    if (name === ref && sha && /^[0-9a-f]{40}$/.test(sha)) return sha;
  }
  return undefined;
}

/** What a build writes beside its code (`dist/build-info.json`, scripts/write-build-info.ts), for /version. */
export interface BakedBuildInfo {
  version: string;
  commit?: string;
  built: string;
}

/** The build info baked beside the compiled code; undefined when run from source (tsx). */
export function readBaked(path = fileURLToPath(new URL('../../build-info.json', import.meta.url))): BakedBuildInfo | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as BakedBuildInfo;
  } catch {
    return undefined;
  }
}

/** The release package.json names, from a checkout (two levels up) or a build's parent (three). */
function packageVersion(): string | undefined {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      return (JSON.parse(readFileSync(fileURLToPath(new URL(up, import.meta.url)), 'utf8')) as { version?: string }).version;
    } catch {
      // not there: the next place
    }
  }
  return undefined;
}

/**
 * What /version answers: the release (CHANGELOG.md) and the commit and time of the build. A
 * production build (`npm run build`, the image's too) bakes them in beside its code
 * (`dist/build-info.json`), with no build argument to pass; SERVICE_VERSION, SERVICE_COMMIT and
 * SERVICE_BUILT override it. Run from a checkout (`npm start`, tests) they come from git when the
 * process starts: the commit, marked `-dirty` when tracked files differ from it, and the commit's
 * time, or the start time for a dirty tree (that code was built from nothing committed).
 * `unknown` is left only where none of these exists.
 */
export function buildInfo(config: Config, run: Git = git, now: () => Date = () => new Date(), baked: BakedBuildInfo | undefined = readBaked()): BuildInfo {
  const env = config.env;
  const given = (v: string | undefined) => (v && v !== 'unknown' ? v : undefined);
  let commit = given(env.SERVICE_COMMIT) ?? given(baked?.commit);
  let built = given(env.SERVICE_BUILT) ?? given(baked?.built);
  if (!commit || !built) {
    const head = run(['rev-parse', 'HEAD']);
    const status = head === undefined ? undefined : run(['status', '--porcelain', '--untracked-files=no']);
    const dirty = status !== undefined && status !== '';
    commit ??= head ? `${head}${dirty ? '-dirty' : ''}` : undefined;
    built ??= head ? (dirty ? now().toISOString() : run(['show', '-s', '--format=%cI', 'HEAD'])) : undefined;
  }
  return {
    version: given(env.SERVICE_VERSION) ?? baked?.version ?? process.env.npm_package_version ?? packageVersion() ?? 'unknown',
    commit: commit ?? 'unknown',
    built: built ?? 'unknown',
  };
}
