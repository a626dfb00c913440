import { build, type Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The service's entry points the tests start as processes of their own. */
export const ENTRIES = { worker: 'apps/worker/main.ts', api: 'apps/api/main.ts' } as const;
export type EntryBundles = Record<keyof typeof ENTRIES, string>;

/**
 * Each entry point compiled once per test run into one ES module (the packages but drizzle-orm stay
 * imports from node_modules), so a test that starts a worker or an API process runs plain JavaScript.
 *
 * Why: under tsx a process resolves and compiles ~400 source files on every start, ~3 s of CPU of
 * the ~5 s a worker costs before it polls; the suite starts about ninety of them (crashes, faults,
 * check-backends, config). Compiled, a worker costs ~2 s. The code is the same source, stripped of
 * its types as tsx and tsc strip them; what the image ships (`npm run build`) is tested apart
 * (test/e2e/version-build.test.ts).
 */
export async function buildEntryBundles(root: string, outDir: string): Promise<EntryBundles> {
  const out = {} as EntryBundles;
  await Promise.all(
    Object.entries(ENTRIES).map(async ([name, entry]) => {
      out[name as keyof EntryBundles] = await buildEntry(root, entry, join(outDir, `${name}.mjs`));
    }),
  );
  return out;
}

/**
 * One entry point compiled into one ES module (the packages stay imports from node_modules), and
 * what it imports dynamically into chunks beside it (`<name>-chunks/`): loaded only when imported,
 * with the packages they import, as the unbundled build loads them (the worker's `--check-backends`
 * loads none of the worker's own modules).
 */
export async function buildEntry(root: string, entry: string, outfile: string): Promise<string> {
  const name = basename(outfile, '.mjs');
  await build({
    entryPoints: { [name]: join(root, entry) },
    outdir: dirname(outfile),
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: `${name}-chunks/[name]-[hash]`,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The packages stay imports from node_modules, but drizzle-orm: loaded as its hundreds of small
    // ES modules it costs a starting process ~0.55 s of CPU, half of all its imports; bundled ~0.05 s.
    // A workflow's type is its function's name (the client starts `brokerAccountEnsure` by the
    // function itself): esbuild renames one of two same-named functions of different files unless
    // told to keep names, and the API process then started a workflow type the worker does not
    // have (`brokerAccountEnsure2`, when a frozen copy of the workflows was still bundled).
    keepNames: true,
    logLevel: 'warning',
    plugins: [packagesExternalBut(['drizzle-orm']), keepModuleUrls(root)],
  });
  return outfile;
}

/** Every package import left to node_modules but those named, which are bundled. */
function packagesExternalBut(bundled: string[]): Plugin {
  return {
    name: 'packages-external-but',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        const pkg = args.path
          .split('/')
          .slice(0, args.path.startsWith('@') ? 2 : 1)
          .join('/');
        return bundled.includes(pkg) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

/**
 * A module that finds files beside itself (`new URL('./migrations', import.meta.url)`, the build
 * info, `createRequire`) must still see its own source location once it is inside one bundle: each
 * source file's `import.meta.url` becomes the URL of that file.
 */
function keepModuleUrls(root: string): Plugin {
  return {
    name: 'keep-module-urls',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!args.path.startsWith(root) || args.path.includes('/node_modules/')) return undefined;
        const source = await readFile(args.path, 'utf8');
        return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
      });
    },
  };
}
