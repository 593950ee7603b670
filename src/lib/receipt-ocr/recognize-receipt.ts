/**
 * The browser entry of receipt OCR. Loaded only through a dynamic import (`use-receipt-ocr.ts`):
 * it pulls tesseract.js's client (the engine itself runs in tesseract's own Web Worker) and the
 * asset URLs the build emitted (build/ocr-assets.ts), none of which belongs in the main bundle.
 */
import assets from 'virtual:ledgerline-ocr-assets';
import { createOcrEngine, type OcrProgress, type ReceiptOcrResult } from './ocr-engine.ts';
import type { ParseReceiptOptions } from './parse-receipt-text.ts';

/** Whether this browser validates a wasm SIMD module (the probe wasm-feature-detect uses). */
function hasWasmSimd(): boolean {
  const probe = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11];
  try {
    return WebAssembly.validate(new Uint8Array(probe));
  } catch {
    return false;
  }
}

let engine: ReturnType<typeof createOcrEngine> | null = null;

function getEngine() {
  engine ??= createOcrEngine({
    load: async () => (await import('tesseract.js')).default,
    paths: {
      workerPath: assets.workerPath,
      // A file, not a directory: tesseract then skips its own detection and loads this core.
      corePath: hasWasmSimd() ? assets.cores.simd : assets.cores.plain,
      langPath: assets.langPath,
    },
  });
  return engine;
}

export type RecognizeReceiptOptions = Partial<ParseReceiptOptions> & {
  onProgress?: (p: OcrProgress) => void;
};

/** Today in the person's time zone, YYYY-MM-DD. */
export function localToday(d = new Date()): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Reads a receipt image (a photo, a scan, a PNG) into text and the form's fields. */
export function recognizeReceipt(image: Blob, opts: RecognizeReceiptOptions = {}): Promise<ReceiptOcrResult> {
  const parse: ParseReceiptOptions = {
    defaultCurrency: opts.defaultCurrency ?? 'USD',
    today: opts.today ?? localToday(),
    ...(opts.dateOrder ? { dateOrder: opts.dateOrder } : {}),
  };
  return getEngine().recognize(image, parse, opts.onProgress);
}

/**
 * Fetches the engine and model through the service worker so they are cached before the person
 * goes offline (the first scan does the same by itself). Cheap when already cached.
 */
export async function prefetchReceiptOcr(): Promise<void> {
  const core = hasWasmSimd() ? assets.cores.simd : assets.cores.plain;
  const urls = [assets.workerPath, core, core.replace(/\.js$/, '.wasm'), `${assets.langPath}/eng.traineddata.gz`];
  await Promise.all(urls.map(async (u) => (await fetch(u)).arrayBuffer()));
}

/** Ends the OCR worker now (it also ends by itself after a minute without a receipt). */
export async function stopReceiptOcr(): Promise<void> {
  await engine?.terminate();
}
