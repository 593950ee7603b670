import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OCR_CORES, OCR_MODEL, ocrAssetDir, ocrAssetFiles } from './ocr-assets.ts';

const ROOT = resolve(import.meta.dirname, '..');

describe('OCR assets', () => {
  const files = ocrAssetFiles(ROOT);

  it('finds the worker, both LSTM-only cores (script + wasm) and the model in node_modules', () => {
    expect(files.map((f) => f.name).sort()).toEqual(
      ['worker.min.js', 'eng.traineddata.gz', ...OCR_CORES.flatMap((c) => [`${c}.js`, `${c}.wasm`])].sort(),
    );
    for (const f of files) expect(existsSync(f.source) && statSync(f.source).size > 0, f.source).toBe(true);
    expect(files.find((f) => f.name === 'eng.traineddata.gz')?.source).toContain(OCR_MODEL);
  });

  it('names the directory after the contents, under /assets/ (cached immutable by the server)', () => {
    const dir = ocrAssetDir(files);
    expect(dir).toMatch(/^assets\/ocr-[0-9a-f]{10}$/);
    expect(ocrAssetDir(files)).toBe(dir);
    expect(ocrAssetDir(files.slice(1))).not.toBe(dir);
  });
});
