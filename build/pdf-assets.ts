import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

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
const RESOLVED_ID = `\0${PDF_VIRTUAL_ID}`;

export const PDF_WASM = ['jbig2.wasm', 'openjpeg.wasm', 'qcms_bg.wasm'] as const;

export interface PdfAssetFile {
  name: string;
  source: string;
}

export function pdfAssetFiles(root: string): PdfAssetFile[] {
  const require = createRequire(join(root, 'package.json'));
  const dist = dirname(require.resolve('pdfjs-dist/package.json'));
  return PDF_WASM.map((name) => ({ name, source: join(dist, 'wasm', name) }));
}

/** The directory's name: a hash of every file, so a new pdf.js is a new URL. */
export function pdfAssetDir(files: PdfAssetFile[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(f.name).update(readFileSync(f.source));
  return `assets/pdfjs-${hash.digest('hex').slice(0, 10)}`;
}

export function pdfAssets(): Plugin {
  let files: PdfAssetFile[] = [];
  let dir = '';
  return {
    name: 'ledgerline:pdf-assets',
    configResolved(config) {
      files = pdfAssetFiles(config.root);
      dir = pdfAssetDir(files);
    },
    resolveId(id) {
      return id === PDF_VIRTUAL_ID ? RESOLVED_ID : null;
    },
    load(id) {
      if (id !== RESOLVED_ID) return null;
      return `export default ${JSON.stringify({ wasmUrl: `/${dir}/` })};`;
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
        res.setHeader('content-type', 'application/wasm');
        res.end(readFileSync(file.source));
      });
    },
  };
}
