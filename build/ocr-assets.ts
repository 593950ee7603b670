import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

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
const RESOLVED_ID = `\0${OCR_VIRTUAL_ID}`;

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

export interface OcrAssetFile {
  name: string;
  source: string;
}

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
export function ocrAssetDir(files: OcrAssetFile[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(f.name).update(readFileSync(f.source));
  return `assets/ocr-${hash.digest('hex').slice(0, 10)}`;
}

export function ocrAssets(): Plugin {
  let files: OcrAssetFile[] = [];
  let dir = '';
  return {
    name: 'ledgerline:ocr-assets',
    configResolved(config) {
      files = ocrAssetFiles(config.root);
      dir = ocrAssetDir(files);
    },
    resolveId(id) {
      return id === OCR_VIRTUAL_ID ? RESOLVED_ID : null;
    },
    load(id) {
      if (id !== RESOLVED_ID) return null;
      const base = `/${dir}/`;
      return `export default ${JSON.stringify({
        workerPath: `${base}worker.min.js`,
        cores: { simd: `${base}${OCR_CORES[0]}.js`, plain: `${base}${OCR_CORES[1]}.js` },
        langPath: base.slice(0, -1),
      })};`;
    },
    generateBundle() {
      for (const f of files) this.emitFile({ type: 'asset', fileName: `${dir}/${f.name}`, source: readFileSync(f.source) });
    },
    configureServer(server) {
      // `vite` dev: the same URLs, straight from node_modules.
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        const file = path.startsWith(`/${dir}/`) ? files.find((f) => path === `/${dir}/${f.name}`) : undefined;
        if (!file) return next();
        const type = file.name.endsWith('.js') ? 'text/javascript' : file.name.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
        res.setHeader('content-type', type);
        res.end(readFileSync(file.source));
      });
    },
  };
}
