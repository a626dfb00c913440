import ts from 'typescript';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The runtime import graph of TypeScript modules, and its cycles. An edge is an import or
 * re-export the compiled JavaScript still holds: each file is transpiled as tsc and tsx emit it
 * (`verbatimModuleSyntax` is off), so `import type`, `export type` and an import whose names are
 * used only as types are gone, as they are when the module runs. A dynamic `import()` is no edge:
 * it runs after every module has loaded.
 */

/** The `.ts` files below `dirs` of `root`, tests aside, as paths relative to `root`. */
export function moduleFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (/\.(m?ts)$/.test(entry.name) && !/\.(test|d)\.m?ts$/.test(entry.name)) out.push(path);
    }
  };
  for (const dir of dirs) if (existsSync(join(root, dir))) walk(dir);
  return out.sort();
}

const emit: ts.CompilerOptions = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, verbatimModuleSyntax: false };

/** The specifiers (relative, or a package's) a module's emitted JavaScript imports or re-exports at load. */
function runtimeSpecifiers(source: string, fileName: string): string[] {
  const js = ts.transpileModule(source, { compilerOptions: emit, fileName }).outputText;
  const out: string[] = [];
  for (const statement of ts.createSourceFile(fileName.replace(/\.m?ts$/, '.js'), js, ts.ScriptTarget.ES2023).statements) {
    const spec = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier;
    if (spec && ts.isStringLiteral(spec)) out.push(spec.text);
  }
  return out;
}

/** The packages a module (or several) loads as it starts: its own and its local modules' runtime imports, followed (a dynamic `import()` is not). */
export function packagesLoadedBy(root: string, entry: string | readonly string[], files: readonly string[]): Set<string> {
  const known = new Set(files);
  const packages = new Set<string>();
  const seen = new Set<string>();
  const queue = typeof entry === 'string' ? [entry] : [...entry];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of runtimeSpecifiers(readFileSync(join(root, file), 'utf8'), file)) {
      if (!spec.startsWith('.')) packages.add(spec);
      else {
        const local = resolveLocal(root, file, spec, known);
        if (local) queue.push(local);
      }
    }
  }
  return packages;
}

function resolveLocal(root: string, from: string, spec: string, known: ReadonlySet<string>): string | undefined {
  const base = resolve(root, dirname(from), spec);
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base, `${base}.ts`, join(base, 'index.ts')];
  return candidates.map((c) => relative(root, c)).find((c) => known.has(c));
}

/** Each module's runtime imports among `files` (paths relative to `root`). */
export function runtimeGraph(root: string, files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const specs = runtimeSpecifiers(readFileSync(join(root, file), 'utf8'), file).filter((s) => s.startsWith('.'));
    graph.set(file, [...new Set(specs.map((s) => resolveLocal(root, file, s, known)).filter((f): f is string => f !== undefined))]);
  }
  return graph;
}

/**
 * Every import cycle of the graph, one per strongly connected component, as one loop through it
 * (`a → b → c → a`, starting at the component's first file by name) so a reader can follow it.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components, iterative over the file names in order.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (start: string) => {
    const work: { node: string; edges: readonly string[]; i: number }[] = [];
    const open = (node: string) => {
      index.set(node, next);
      low.set(node, next++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: graph.get(node) ?? [], i: 0 });
    };
    open(start);
    while (work.length) {
      const top = work.at(-1)!;
      if (top.i < top.edges.length) {
        const to = top.edges[top.i++]!;
        if (!index.has(to)) open(to);
        else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
        } while (n !== top.node);
        const selfLoop = component.length === 1 && (graph.get(top.node) ?? []).includes(top.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((c) => loopThrough(graph, c)).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The shortest loop from a component's first file back to it (breadth first, inside the component). */
function loopThrough(graph: ReadonlyMap<string, readonly string[]>, component: readonly string[]): string[] {
  const inside = new Set(component);
  const start = component[0]!;
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!inside.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let n: string | undefined = node; n !== undefined && n !== start; n = from.get(n)) path.splice(1, 0, n);
        return [...path, start];
      }
      if (!from.has(to)) {
        from.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}
