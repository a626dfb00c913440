import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Issue 27 item 9: the README's Layout section names each folder of the project once: every
 * top-level folder git tracks and every folder of `apps/`, none twice, none that is not there.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');
const layout = readme.slice(readme.indexOf('\n## Layout\n'), readme.indexOf('\n## ', readme.indexOf('\n## Layout\n') + 1));
/** The folders the section's list items are about: the first `code` of each item. */
const listed = [...layout.matchAll(/^- `([^`]+\/)`/gm)].map((m) => m[1]!);
const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const folders = new Set(
  tracked.flatMap((f) => {
    const parts = f.split('/');
    if (parts.length < 2 || parts[0]!.startsWith('.')) return [];
    return parts[0] === 'apps' && parts.length > 2 ? [`apps/${parts[1]}/`] : parts[0] === 'apps' ? [] : [`${parts[0]}/`];
  }),
);

describe('README layout', () => {
  it('lists each folder once', () => {
    const twice = listed.filter((f, i) => listed.indexOf(f) !== i);
    expect(twice, 'listed more than once').toEqual([]);
  });
  it('lists every folder there is, and only those', () => {
    expect([...listed].sort()).toEqual([...folders].sort());
  });
});
