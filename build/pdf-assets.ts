import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';
import { hashedAssetDir, hashedAssets, type AssetFile } from './hashed-assets.ts';

/**
 * pdf.js's image decoders for scanned PDFs, served from our own origin: `jbig2.wasm` (JBIG2 and
 * CCITT fax, the usual compressions of a black-and-white scan), `openjpeg.wasm` (JPEG 2000) and
 * `qcms_bg.wasm` (ICC colour). pdf.js fetches them by name from one directory (its `wasmUrl`
 * option), so they are emitted as `assets/pdfjs-<content hash>/` and reached through the small
 * `virtual:ledgerline-pdf-assets` module, loaded only when a PDF is read (src/lib/pdf-text/).
 *
 * Not precached (vite.config.ts globIgnores): only a scanned page needs them, and a scanned page
 * also needs the OCR engine, which the service worker caches on first use; these go the same way
 * (workers/service-worker/sw.ts). pdf.js itself and its worker are precached: a text PDF is read
 * offline from the first visit. The `*_nowasm_fallback.js` decoders are left out: every browser
 * that runs the app runs wasm.
 */
export const PDF_VIRTUAL_ID = 'virtual:ledgerline-pdf-assets';

export const PDF_WASM = ['jbig2.wasm', 'openjpeg.wasm', 'qcms_bg.wasm'] as const;

export type PdfAssetFile = AssetFile;

export function pdfAssetFiles(root: string): PdfAssetFile[] {
  const require = createRequire(join(root, 'package.json'));
  const dist = dirname(require.resolve('pdfjs-dist/package.json'));
  return PDF_WASM.map((name) => ({ name, source: join(dist, 'wasm', name) }));
}

/** The directory's name: a hash of every file, so a new pdf.js is a new URL. */
export const pdfAssetDir = (files: readonly PdfAssetFile[]): string => hashedAssetDir('pdfjs', files);

export const pdfAssets = (): Plugin => hashedAssets({
  name: 'ledgerline:pdf-assets',
  prefix: 'pdfjs',
  virtualId: PDF_VIRTUAL_ID,
  files: pdfAssetFiles,
  manifest: (base) => ({ wasmUrl: base }),
});
