import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, constants } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entryScriptPath, firstLoadScripts, mainJsGzipKb, modulePreloadPaths, scriptList, staticImportClosure } from './bundle-size.ts';

const INDEX_HTML = `<!doctype html><html><head>
<script type="module" crossorigin src="/assets/index-A.js"></script>
<link rel="modulepreload" crossorigin href="/assets/react-B.js">
<link rel="stylesheet" crossorigin href="/assets/index-C.css">
<link crossorigin rel="modulepreload" href="/assets/router-D.js">
<link rel="manifest" href="/manifest.webmanifest"></head><body></body></html>`;

/** The shape Vite writes to dist/.vite/manifest.json: chunks keyed by source or `_name`. */
const MANIFEST = {
  'index.html': { file: 'assets/index-A.js', isEntry: true, imports: ['_react-B.js', '_router-D.js', '_zod-E.js'], dynamicImports: ['src/page.tsx'] },
  '_react-B.js': { file: 'assets/react-B.js', imports: ['_runtime-F.js'] },
  '_router-D.js': { file: 'assets/router-D.js', imports: ['_react-B.js'] },
  '_zod-E.js': { file: 'assets/zod-E.js' },
  '_runtime-F.js': { file: 'assets/runtime-F.js' },
  'src/page.tsx': { file: 'assets/page-G.js', isDynamicEntry: true, imports: ['_react-B.js', '_table-H.js'] },
  '_table-H.js': { file: 'assets/table-H.js' },
};

describe('first-load scripts', () => {
  it('reads the entry and the modulepreloads from index.html', () => {
    expect(entryScriptPath(INDEX_HTML)).toBe('assets/index-A.js');
    expect(entryScriptPath('<script src="/x.js" type="module"></script>')).toBe('x.js');
    expect(modulePreloadPaths(INDEX_HTML)).toEqual(['assets/react-B.js', 'assets/router-D.js']);
    expect(() => entryScriptPath('<html></html>')).toThrow(/no module script/);
  });

  it('walks static imports transitively, once each, never dynamic imports', () => {
    expect(staticImportClosure(MANIFEST, 'assets/index-A.js')).toEqual(['assets/index-A.js', 'assets/react-B.js', 'assets/runtime-F.js', 'assets/router-D.js', 'assets/zod-E.js']);
    expect(() => staticImportClosure(MANIFEST, 'assets/missing.js')).toThrow(/no chunk/);
  });

  it.each([
    { name: 'with a manifest: entry, preloads, then the rest of the static graph', manifest: MANIFEST, want: ['assets/index-A.js', 'assets/react-B.js', 'assets/router-D.js', 'assets/runtime-F.js', 'assets/zod-E.js'] },
    { name: 'without one: entry and preloads', manifest: null, want: ['assets/index-A.js', 'assets/react-B.js', 'assets/router-D.js'] },
  ])('$name', ({ manifest, want }) => {
    expect(firstLoadScripts(INDEX_HTML, manifest)).toEqual(want);
  });
});

describe('mainJsGzipKb on a dist directory', () => {
  let dist: string;
  const gzKb = (text: string) => gzipSync(text, { level: constants.Z_BEST_COMPRESSION }).length / 1024;
  /** Distinct, poorly compressible contents so every file weighs something different. */
  const body = (name: string, n: number) => Array.from({ length: n }, (_, i) => `export const ${name}${i} = ${(i * 7919) % 104729};`).join('\n');
  const FILES: Record<string, string> = {
    'assets/index-A.js': body('a', 400),
    'assets/react-B.js': body('b', 300),
    'assets/router-D.js': body('d', 200),
    'assets/zod-E.js': body('e', 100),
    'assets/runtime-F.js': body('f', 50),
    'assets/page-G.js': body('g', 900),
    'assets/table-H.js': body('h', 900),
    'assets/index-C.css': 'body{}',
  };

  beforeEach(async () => {
    dist = await mkdtemp(join(tmpdir(), 'bundle-size-'));
    await mkdir(join(dist, 'assets'));
    await mkdir(join(dist, '.vite'));
    await writeFile(join(dist, 'index.html'), INDEX_HTML);
    for (const [file, text] of Object.entries(FILES)) await writeFile(join(dist, file), text);
  });
  afterEach(() => rm(dist, { recursive: true, force: true }));

  it('sums every statically loaded script and lists them, lazy chunks left out', async () => {
    await writeFile(join(dist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    const counted = ['assets/index-A.js', 'assets/react-B.js', 'assets/router-D.js', 'assets/runtime-F.js', 'assets/zod-E.js'];
    const result = await mainJsGzipKb(dist);
    expect(result.file).toBe('assets/index-A.js');
    expect(result.files.map((f) => f.file)).toEqual(counted);
    const exact = counted.reduce((sum, f) => sum + gzKb(FILES[f]!), 0);
    expect(result.kb).toBeCloseTo(exact, 1);
    expect(result.kb).toBeGreaterThan(Math.round(gzKb(FILES['assets/index-A.js']!) * 10) / 10);
  });

  it('without a manifest counts the entry and the preloads', async () => {
    const result = await mainJsGzipKb(dist);
    expect(result.files.map((f) => f.file)).toEqual(['assets/index-A.js', 'assets/react-B.js', 'assets/router-D.js']);
  });
});

describe('scriptList', () => {
  it('names each counted script with its KiB', () => {
    expect(scriptList([{ file: 'assets/index-A.js', kb: 40.1 }, { file: 'assets/react-B.js', kb: 68.3 }])).toBe('assets/index-A.js 40.1, assets/react-B.js 68.3');
  });
});
