import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PDF_WASM, pdfAssetDir, pdfAssetFiles } from './pdf-assets.ts';

const ROOT = resolve(import.meta.dirname, '..');

describe('PDF decoder assets', () => {
  const files = pdfAssetFiles(ROOT);

  it('finds pdf.js’s wasm decoders in node_modules', () => {
    expect(files.map((f) => f.name)).toEqual([...PDF_WASM]);
    for (const f of files) expect(existsSync(f.source) && statSync(f.source).size > 0, f.source).toBe(true);
  });

  it('names the directory after the contents, under /assets/ and apart from the precache', () => {
    const dir = pdfAssetDir(files);
    expect(dir).toMatch(/^assets\/pdfjs-[0-9a-f]{10}$/);
    expect(pdfAssetDir(files)).toBe(dir);
    expect(pdfAssetDir(files.slice(1))).not.toBe(dir);
  });
});
