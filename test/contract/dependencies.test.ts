import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleFiles, packagesLoadedBy } from '../support/import-cycles.js';
import { packageOf, packagesNamed } from '../support/package-imports.js';

/**
 * Every package the code names is one package.json declares. A package that is only another's
 * dependency is found today because npm hoists it to the top of node_modules, and is gone the day
 * that other package drops it or npm nests a second version (`@temporalio/proto` was named by five
 * modules and declared nowhere). What the API, the worker and tenantctl load as they run must be a
 * production dependency: the image installs no devDependencies (Dockerfile, `npm ci --omit=dev`).
 */
const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const production = new Set(Object.keys(manifest.dependencies));
const declared = new Set([...production, ...Object.keys(manifest.devDependencies)]);

describe('declared dependencies', () => {
  it('every package a module or test names is declared in package.json', () => {
    const files = execFileSync('git', ['ls-files', '*.ts', '*.mts', '*.mjs'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files.length).toBeGreaterThan(300);
    const undeclared = files.flatMap((file) =>
      packagesNamed(readFileSync(join(root, file), 'utf8'), file)
        .filter((p) => !declared.has(p))
        .map((p) => `${file}: ${p}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('what the API, the worker and tenantctl load as they run is a production dependency', () => {
    const files = moduleFiles(root, ['activities', 'apps', 'backends', 'cli', 'client', 'contracts', 'core', 'db', 'temporal', 'workflows']);
    const entries = ['apps/api/main.ts', 'apps/worker/main.ts', 'apps/worker/run.ts', 'cli/tenantctl.ts'];
    const loaded = new Set([...packagesLoadedBy(root, entries, files)].map(packageOf));
    expect(loaded).toContain('@temporalio/worker');
    expect([...loaded].filter((p) => p !== undefined && !production.has(p))).toEqual([]);
  });

  it('reads a package from every form of import, and nothing from a relative path or a Node built-in', () => {
    const source = [
      "import a from '@scope/pkg/deep/path.js';",
      "import type { T } from 'typed';",
      "export { x } from 'reexported/sub';",
      "import './local.js';",
      "import { readFile } from 'node:fs/promises';",
      "import { join } from 'path';",
      "const lazy = await import('lazy');",
      "type U = import('in-a-type').U;",
    ].join('\n');
    expect(packagesNamed(source, 'x.ts')).toEqual(['@scope/pkg', 'in-a-type', 'lazy', 'reexported', 'typed']);
  });
});
