import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './testing/import-graph.ts';

const ROOT = resolve(import.meta.dirname, '..');

describe('import graph (issue 26)', () => {
  it('has no import loop under workers/, sync/ and schema/ (type-only imports count)', () => {
    const graph = importGraph(ROOT, ['workers', 'sync', 'schema']);
    expect(graph.size).toBeGreaterThan(100);
    expect(importCycles(graph)).toEqual([]);
  });

  it('finds a loop and a self-import, not a file that only leads into one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  });

  it('reads the edges the loops of issue 26 went through', () => {
    const graph = importGraph(ROOT, ['workers']);
    // The contract imports its domains' types (derived from their call definitions)...
    expect(graph.get('workers/api.ts')).toContain('workers/handlers/vendors.ts');
    expect(graph.get('workers/api.ts')).toContain('workers/collections/worker-collection.ts');
    // ...and the mirror's side reads its shared shapes from the leaf, not from the contract.
    expect(graph.get('workers/reference-cache.ts')).toContain('workers/contracts/views.ts');
    expect(graph.get('workers/reference-cache.ts')).not.toContain('workers/api.ts');
    expect(graph.get('workers/mirror-host.ts')).not.toContain('workers/worker-context.ts');
    expect(graph.get('workers/worker-context.ts')).toContain('workers/mirror-host.ts');
  });
});
