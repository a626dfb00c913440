import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md names the files and folders a newcomer opens: every repository path it
 * quotes in backticks exists. A path from a top-level entry (`core/step-table.ts`, `openapi.yaml`)
 * must exist as written; a partial one (`grafana/routes.ts`, `qemu.ts`, `names/`), read in its
 * sentence's folder, must end some path of the tree. Patterns (`activities/<area>/`, `apps/api/**`) and run ids (`wifi-key/…`) are
 * not paths and are skipped.
 */
const root = join(import.meta.dirname, '..', '..');
const page = 'docs/architecture.md';

/** Named in the page on purpose though absent from the tree. */
const NOT_IN_THE_TREE: Record<string, string> = {
  'activities/files/area.ts': 'the throwaway `files` step a count was measured on (its branch is gone)',
  'backends/minio/buckets.ts': "the throwaway `files` step's adapter",
  'tenants/acme/workloads/db': "an object's path below /v1/, not a file",
};

const SKIPPED_DIRS = new Set(['.git', 'node_modules', 'dist', '.tools', '.lab', '.test-run']);

/** Every file and folder of the tree, relative to the root; folders also with a trailing slash. */
function treePaths(): Set<string> {
  const paths = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('.scratch-')) continue;
      const path = join(dir, entry.name);
      const rel = relative(root, path);
      paths.add(rel);
      if (entry.isDirectory()) {
        paths.add(`${rel}/`);
        walk(path);
      }
    }
  };
  walk(root);
  return paths;
}

/** The backticked spans of the page that read as repository paths. */
function quotedPaths(text: string): string[] {
  // Code blocks (also indented in a list) hold commands, whose backticks would pair with the prose's.
  const prose = text.replace(/^[ \t]*```[^\n]*\n[\s\S]*?^[ \t]*```[ \t]*$/gm, '');
  const spans = [...prose.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.trim());
  const pathLike = (s: string) => /^[\w.@][\w.@/-]*$/.test(s) && (s.includes('/') || /\.(ts|js|mjs|md|ya?ml|json|sql)$/.test(s)) && !s.startsWith('@');
  return [...new Set(spans.filter(pathLike))].sort();
}

describe(page, () => {
  it('names only paths that exist', () => {
    const tree = treePaths();
    const all = [...tree];
    const topLevel = new Set(readdirSync(root));
    // From a top-level entry: as written. Else the tail of some path (read in its sentence's folder).
    const exists = (p: string) => (topLevel.has(p.split('/')[0]!) ? tree.has(p) : all.some((t) => t.endsWith(`/${p}`)));
    const quoted = quotedPaths(readFileSync(join(root, page), 'utf8'));
    expect(quoted.length).toBeGreaterThan(100);
    const missing = quoted.filter((p) => !(p in NOT_IN_THE_TREE) && !exists(p));
    expect(missing).toEqual([]);
  });

  it('still names what it says is absent, and that is absent', () => {
    const tree = treePaths();
    const quoted = new Set(quotedPaths(readFileSync(join(root, page), 'utf8')));
    for (const p of Object.keys(NOT_IN_THE_TREE)) {
      expect(quoted.has(p), p).toBe(true);
      expect(tree.has(p), p).toBe(false);
    }
  });
});
