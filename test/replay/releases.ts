import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { releasesReplayed } from '../../contracts/compatibility.js';

const root = join(import.meta.dirname, '..', '..');

/** Where the recorded histories are kept: one folder per release, named `0.15`. */
export const HISTORIES = join(import.meta.dirname, 'histories');

/**
 * The release this tree builds, as `major.minor`: package.json's version once it is released (the
 * CHANGELOG's first section names it), the next minor while the CHANGELOG's first section is
 * `## Unreleased` (the work after a release ships as the next one).
 */
export function treeRelease(version = readPackageVersion(), changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8')): string {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  const first = /^## (.+)$/m.exec(changelog)?.[1] ?? '';
  return first.startsWith('Unreleased') ? `${major}.${minor + 1}` : `${major}.${minor}`;
}

function readPackageVersion(): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The releases whose recorded histories this tree must replay (docs/decisions.md, the release rule). */
export const replayedReleases = (): string[] => releasesReplayed(treeRelease());
