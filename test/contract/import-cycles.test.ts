import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, moduleFiles, packagesLoadedBy, runtimeGraph } from '../support/import-cycles.js';

/**
 * No production module takes part in a runtime import cycle. In a cycle, whichever module loads
 * first sees the others' exports still undefined while its own body runs, so the code around one
 * has to read them late (a registry filled on first use) and breaks when someone reads them early.
 * Type-only imports do not count: they are gone from the JavaScript that runs.
 */
const root = join(import.meta.dirname, '..', '..');
const PRODUCTION = ['activities', 'apps', 'backends', 'cli', 'client', 'contracts', 'core', 'db', 'scripts', 'temporal', 'workflows'];

describe('runtime import cycles', () => {
  it('the production modules have none', () => {
    const files = moduleFiles(root, PRODUCTION);
    expect(files.length).toBeGreaterThan(100);
    const cycles = importCycles(runtimeGraph(root, files)).map((loop) => loop.join(' → '));
    expect(cycles).toEqual([]);
  });

  it("the worker's --check-backends starts without Temporal's SDK, the telemetry or the registry's driver (the worker loads them only to run)", () => {
    const files = moduleFiles(root, PRODUCTION);
    const loaded = [...packagesLoadedBy(root, 'apps/worker/main.ts', files)];
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.filter((p) => /^@temporalio\/(worker|client)|^@opentelemetry\/sdk|^postgres$|^drizzle-orm/.test(p))).toEqual([]);
    // What the worker runs with does load them: the check above would see them if main imported it.
    const run = [...packagesLoadedBy(root, 'apps/worker/run.ts', files)];
    expect(run).toEqual(expect.arrayContaining(['@temporalio/worker', 'postgres']));
  });

  describe('the check itself, on modules written for it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const cyclesOf = (modules: Record<string, string>) => {
      const sub = mkdtempSync(join(dir, 'case-'));
      for (const [file, code] of Object.entries(modules)) {
        mkdirSync(dirname(join(sub, file)), { recursive: true });
        writeFileSync(join(sub, file), code);
      }
      return importCycles(runtimeGraph(sub, moduleFiles(sub, ['.'])));
    };

    it('finds a loop of value imports, re-exports included, and names it in order', () => {
      const cycles = cyclesOf({
        'a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
        'b.ts': "export { c as b } from './dir/c.js';\n",
        'dir/c.ts': "import { a } from '../a.js';\nexport const c = () => a;\n",
      });
      expect(cycles).toEqual([['a.ts', 'b.ts', 'dir/c.ts', 'a.ts']]);
    });

    it('does not count `import type`, a type-only name, a type re-export or a dynamic import', () => {
      const cycles = cyclesOf({
        'a.ts': "import { b } from './b.js';\nexport const a = () => b;\nexport type A = string;\n",
        'b.ts': "import type { A } from './a.js';\nexport const b: A = 'b';\n",
        'c.ts': "import { a } from './a.js';\nimport { A } from './d.js';\nexport const c: A = String(a);\n",
        'd.ts': "import { type A } from './c.js';\nexport type { A } from './a.js';\nexport const d = () => import('./c.js');\n",
      });
      expect(cycles).toEqual([]);
    });
  });
});
