import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * A small import graph of TypeScript sources: every relative `import … from`, `export … from`,
 * `import('…')` and side-effect `import '…'`, type-only imports included (a cycle through types
 * is still a cycle to read). Test files are left out; tests may import what they test from both sides.
 */
const SPECIFIER = /(?:\bimport\s+(?:type\s+)?(?:[\w*${}\s,]+\s+from\s+)?|\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s+from\s+|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules') sourceFiles(path, out);
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

/** Strips comments (a `from '…'` in a doc comment is no import). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Relative imports of each file under `dirs` (paths relative to `root`), to files under `dirs` only. */
export function importGraph(root: string, dirs: string[]): Map<string, string[]> {
  const files = dirs.flatMap((d) => sourceFiles(resolve(root, d)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const edges: string[] = [];
    for (const m of code(readFileSync(file, 'utf8')).matchAll(SPECIFIER)) {
      const target = resolve(dirname(file), m[1]!);
      const hit = [target, `${target}.ts`, `${target}.tsx`, join(target, 'index.ts')].find((t) => known.has(t));
      if (hit) edges.push(relative(root, hit));
    }
    graph.set(relative(root, file), [...new Set(edges)]);
  }
  return graph;
}

/** Every strongly connected component with more than one file (or a file importing itself): the import loops. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}
