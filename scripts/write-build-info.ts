import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { headCommit, type BakedBuildInfo } from '../apps/api/build-info.js';

/**
 * `npm run build` ends here: it writes `<outDir>/build-info.json` with the release (package.json's
 * version), the commit HEAD names and the build's time, so a production build (the image's
 * included) answers /version with them without any hand-passed build argument.
 */
const outDir = process.argv[2] ?? 'dist';
const root = join(import.meta.dirname, '..');
const commit = headCommit(join(root, '.git'));
const info: BakedBuildInfo = {
  version: (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version,
  ...(commit ? { commit } : {}),
  built: new Date().toISOString(),
};
writeFileSync(join(outDir, 'build-info.json'), JSON.stringify(info) + '\n');
console.log(`build-info: ${info.version} ${info.commit ?? '(no commit known)'} ${info.built}`);
