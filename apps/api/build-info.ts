import { execFileSync } from 'node:child_process';
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
 * What /version answers. A release image has its commit and build time baked in (SERVICE_COMMIT,
 * SERVICE_BUILT); run from a checkout (`npm start`, tests) they come from git when the process
 * starts: the commit, marked `-dirty` when tracked files differ from it, and the commit's time, or
 * the start time for a dirty tree (that code was built from nothing committed). `unknown` is left
 * only where neither exists, such as an image built without the build arguments.
 */
export function buildInfo(config: Config, run: Git = git, now: () => Date = () => new Date()): BuildInfo {
  const env = config.env;
  const baked = (v: string | undefined) => (v && v !== 'unknown' ? v : undefined);
  let commit = baked(env.SERVICE_COMMIT);
  let built = baked(env.SERVICE_BUILT);
  if (!commit || !built) {
    const head = run(['rev-parse', 'HEAD']);
    const status = head === undefined ? undefined : run(['status', '--porcelain', '--untracked-files=no']);
    const dirty = status !== undefined && status !== '';
    commit ??= head ? `${head}${dirty ? '-dirty' : ''}` : undefined;
    built ??= head ? (dirty ? now().toISOString() : run(['show', '-s', '--format=%cI', 'HEAD'])) : undefined;
  }
  return {
    version: env.SERVICE_VERSION ?? process.env.npm_package_version ?? '0.1.0',
    commit: commit ?? 'unknown',
    built: built ?? 'unknown',
  };
}
