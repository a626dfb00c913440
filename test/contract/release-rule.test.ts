import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMER_ACTIVITY_NAMES, PATCHES, releasesReplayed } from '../../contracts/compatibility.js';
import { HISTORIES, treeRelease } from '../replay/releases.js';

/**
 * The release rule (docs/decisions.md, "Releases: pinned runs, and the code kept for runs begun
 * before"): compatibility code serves the runs of a release this tree still replays, and goes with
 * the first release that no longer does. Every run is pinned to the build that began it, so a
 * release replays its own runs only, and the first versioned one (0.15) also the last unversioned
 * one's (0.14), which move to it. Bumping package.json's version, or opening the CHANGELOG's
 * `## Unreleased` after a release, makes this fail until the code for the release left behind is gone.
 */
const root = join(import.meta.dirname, '..', '..');
const tree = treeRelease();
const replayed = releasesReplayed(tree);
const earlier = replayed.filter((r) => r !== tree);

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ path: join(dir, f), text: readFileSync(join(root, dir, f), 'utf8') }));
}

describe(`the release rule, for release ${tree}`, () => {
  it('takes the release from package.json and the CHANGELOG: the next minor while the CHANGELOG opens with Unreleased', () => {
    expect(treeRelease('0.14.0', '# Changelog\n\n## Unreleased\n\n- a fix\n\n## 0.14.0 (2026-11-27)\n')).toBe('0.15');
    expect(treeRelease('0.15.0', '# Changelog\n\n## 0.15.0 (2026-12-01)\n\n- a fix\n')).toBe('0.15');
    expect(releasesReplayed('0.15')).toEqual(['0.14', '0.15']);
    expect(releasesReplayed('0.16')).toEqual(['0.16']);
  });

  it('keeps a patch only for the runs of a release this tree replays', () => {
    const expired = Object.entries(PATCHES)
      .filter(([, p]) => !earlier.includes(p.runsOf))
      .map(([id, p]) => `${id} (runs of ${p.runsOf})`);
    expect(expired, `release ${tree} replays runs of ${replayed.join(' and ')}: remove these patches`).toEqual([]);
  });

  it('keeps a former activity name only for the runs of a release this tree replays', () => {
    const expired = Object.entries(FORMER_ACTIVITY_NAMES)
      .filter(([, f]) => !earlier.includes(f.runsOf))
      .map(([name, f]) => `${name} (runs of ${f.runsOf})`);
    expect(expired, `release ${tree} replays runs of ${replayed.join(' and ')}: remove these names`).toEqual([]);
  });

  it('checks patches only through workflows/patches.ts, each one of the table, each used where its runs reach it', () => {
    const workflows = sources('workflows');
    const direct = workflows.filter((f) => f.path !== join('workflows', 'patches.ts') && /\b(patched|deprecatePatch)\(/.test(f.text)).map((f) => f.path);
    expect(direct, 'call begunWith() or deprecated() (workflows/patches.ts) instead').toEqual([]);
    const used = new Set(workflows.flatMap((f) => [...f.text.matchAll(/\b(?:begunWith|deprecated)\('([^']+)'\)/g)].map((m) => m[1]!)));
    expect([...used].sort()).toEqual(Object.keys(PATCHES).sort());
  });

  it('holds recorded histories of exactly the releases it replays (test/replay/histories/<release>/)', () => {
    const folders = readdirSync(HISTORIES).filter((f) => !f.startsWith('.'));
    expect(folders.sort(), `release ${tree}: record its own with \`npm run histories:record\`, remove the others`).toEqual([...replayed].sort());
    for (const release of replayed) {
      const dir = join(HISTORIES, release);
      expect(existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.json')), `${relative(root, dir)} holds histories`).toBe(true);
    }
  });
});
