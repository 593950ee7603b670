import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';
import { hashedAssetDir, hashedAssets, type AssetFile } from './hashed-assets.ts';

/**
 * Serves tesseract.js's engine from our own origin (never a CDN, issue 9 §2): its worker script,
 * the LSTM-only wasm cores and the English model from npm, emitted as static files in one
 * content-hashed directory `assets/ocr-<hash>/` (under /assets/ the server caches them forever).
 * Nothing imports them: the app reaches them through the small `virtual:ledgerline-ocr-assets`
 * module, itself loaded only when a person scans a receipt, so the main bundle does not grow.
 *
 * One directory because the Emscripten core looks for its `.wasm` beside the script that runs it
 * (tesseract's worker), not beside itself. The separate `.js` + `.wasm` cores are used rather than
 * the `.wasm.js` ones with the binary inlined as base64: 1.06 MB gzip instead of 1.46 MB, and the
 * wasm compiles while it streams. The service worker does not precache them (vite.config.ts).
 */
export const OCR_VIRTUAL_ID = 'virtual:ledgerline-ocr-assets';

/**
 * The model: `4.0.0_best_int` (2.9 MB gzip), the LSTM network tesseract.js itself picks for an
 * LSTM-only engine. `4.0.0` is 10.9 MB gzip because it also carries the legacy engine's data, which
 * the LSTM-only core never reads. Measured in Chromium on the 12 generated receipts (bench/ocr.ts,
 * 2026-11-23): both read 12/12 amounts, dates and merchants; best_int starts in 0.9 s (4.0.0:
 * 2.5 s) and reads a receipt in 292 ms median (4.0.0: 355 ms).
 */
export const OCR_MODEL = '4.0.0_best_int';

/** SIMD build for every current browser; the plain one for the rest. Relaxed SIMD is not shipped. */
export const OCR_CORES = ['tesseract-core-simd-lstm', 'tesseract-core-lstm'] as const;

export type OcrAssetFile = AssetFile;

/** The files, from node_modules (resolved like any dependency). */
export function ocrAssetFiles(root: string): OcrAssetFile[] {
  const require = createRequire(join(root, 'package.json'));
  const tesseract = dirname(require.resolve('tesseract.js/package.json'));
  const core = dirname(require.resolve('tesseract.js-core/package.json', { paths: [tesseract] }));
  const data = dirname(require.resolve('@tesseract.js-data/eng/package.json'));
  return [
    { name: 'worker.min.js', source: join(tesseract, 'dist/worker.min.js') },
    ...OCR_CORES.flatMap((c) => [
      { name: `${c}.js`, source: join(core, `${c}.js`) },
      { name: `${c}.wasm`, source: join(core, `${c}.wasm`) },
    ]),
    { name: 'eng.traineddata.gz', source: join(data, OCR_MODEL, 'eng.traineddata.gz') },
  ];
}

/** The directory's name: a hash of every file, so a new engine or model is a new URL. */
export const ocrAssetDir = (files: readonly OcrAssetFile[]): string => hashedAssetDir('ocr', files);

export const ocrAssets = (): Plugin => hashedAssets({
  name: 'ledgerline:ocr-assets',
  prefix: 'ocr',
  virtualId: OCR_VIRTUAL_ID,
  files: ocrAssetFiles,
  manifest: (base) => ({
    workerPath: `${base}worker.min.js`,
    cores: { simd: `${base}${OCR_CORES[0]}.js`, plain: `${base}${OCR_CORES[1]}.js` },
    langPath: base.slice(0, -1),
  }),
});
