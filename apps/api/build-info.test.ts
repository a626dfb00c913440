import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildInfo, type Git } from './build-info.js';
import { loadConfig } from '../config/env.js';

/**
 * /version names the running build (spec: Versioning 2). Run from a checkout, nothing bakes the
 * commit in, and it used to answer `commit: unknown, built: unknown` (issue 16 item 12).
 */
const required = { OPERATOR_TOKEN: 'op-token-0123456789abcdef', DATABASE_URL: 'postgres://svc@db/registry' };
const SHA = 'a'.repeat(40);
const fakeGit =
  (answers: Record<string, string | undefined>): Git =>
  (args) =>
    answers[args.join(' ')];
const clean = fakeGit({ 'rev-parse HEAD': SHA, 'status --porcelain --untracked-files=no': '', 'show -s --format=%cI HEAD': '2026-11-20T08:00:00+00:00' });
const dirty = fakeGit({
  'rev-parse HEAD': SHA,
  'status --porcelain --untracked-files=no': ' M apps/api/app.ts',
  'show -s --format=%cI HEAD': '2026-11-20T08:00:00+00:00',
});
const noGit: Git = () => undefined;
const START = new Date('2026-11-25T01:00:00Z');

describe('buildInfo', () => {
  it.each([
    [
      'baked in: taken as given, git not asked',
      { SERVICE_COMMIT: 'c0ffee1', SERVICE_BUILT: '2026-11-21T10:00:00Z' },
      noGit,
      { commit: 'c0ffee1', built: '2026-11-21T10:00:00Z' },
    ],
    ['a clean checkout: the commit and its time', {}, clean, { commit: SHA, built: '2026-11-20T08:00:00+00:00' }],
    ['a dirty checkout: the commit marked dirty, built when started', {}, dirty, { commit: `${SHA}-dirty`, built: START.toISOString() }],
    [
      "an image's unknown default counts as not baked in",
      { SERVICE_COMMIT: 'unknown', SERVICE_BUILT: 'unknown' },
      clean,
      { commit: SHA, built: '2026-11-20T08:00:00+00:00' },
    ],
    ['no git and nothing baked in: unknown', {}, noGit, { commit: 'unknown', built: 'unknown' }],
  ] as [string, Record<string, string>, Git, { commit: string; built: string }][])('%s', (_reason, env, git, want) => {
    expect(buildInfo(loadConfig({ ...required, ...env }), git, () => START)).toMatchObject(want);
  });

  it('run from this checkout, names its HEAD commit', () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const info = buildInfo(loadConfig(required));
    expect(info.commit).toMatch(new RegExp(`^${head}(-dirty)?$`));
    expect(Number.isNaN(Date.parse(info.built))).toBe(false);
  });
});
