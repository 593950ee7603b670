import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The server's modules import one another in one direction only (CONTEXT.md, "Module layout").
 * eslint's import-x/no-cycle looks at files and skips `import type`, so folders could still
 * import each other in circles through types (http ↔ auth, feed ↔ domain did): this reads every
 * import, types included, and fails on a cycle between modules. A module is a folder of server/,
 * or one file at its root.
 */
const ROOT = dirname(fileURLToPath(import.meta.url));
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

const moduleOf = (file: string) => {
  const rel = relative(ROOT, file);
  return rel.includes('/') ? `${rel.split('/')[0]}/` : rel;
};

/** Module → the modules it imports (within server/). */
function moduleGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(ROOT)) {
    const from = moduleOf(file);
    const out = graph.get(from) ?? new Set<string>();
    graph.set(from, out);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), spec!);
      if (!target.startsWith(`${ROOT}/`)) continue;
      const to = moduleOf(target);
      if (to !== from) out.add(to);
    }
  }
  return graph;
}

/** Every elementary cycle, each listed once from its smallest module. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  for (const start of [...graph.keys()].sort()) {
    const path = [start];
    const walk = (node: string) => {
      for (const next of graph.get(node) ?? []) {
        if (next === start) found.push([...path, start]);
        else if (next > start && !path.includes(next)) {
          path.push(next);
          walk(next);
          path.pop();
        }
      }
    };
    walk(start);
  }
  return found;
}

describe('server module layout', () => {
  it('has no import cycle between modules, type imports included', () => {
    expect(cycles(moduleGraph()).map((c) => c.join(' → '))).toEqual([]);
  });

  it('keeps core/ below everything but db/', () => {
    expect([...(moduleGraph().get('core/') ?? [])]).toEqual(['db/']);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([['a/', new Set(['b/'])], ['b/', new Set(['c/'])], ['c/', new Set(['a/'])]]);
    expect(cycles(graph)).toEqual([['a/', 'b/', 'c/', 'a/']]);
  });
});
