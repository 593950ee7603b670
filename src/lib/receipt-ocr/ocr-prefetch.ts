/**
 * Receipt OCR's warm-up (use-ocr-warmup.ts, use-receipt-ocr.ts): a module of its own so the shell's
 * idle-time warm-up loads only this and the asset URLs, not the receipt parser (issue 33: importing
 * recognize-receipt.ts there was a long main-thread task while the transactions page loaded).
 */
import assets from 'virtual:ledgerline-ocr-assets';

/** Whether this browser validates a wasm SIMD module (the probe wasm-feature-detect uses). */
export function hasWasmSimd(): boolean {
  const probe = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11];
  try {
    return WebAssembly.validate(new Uint8Array(probe));
  } catch {
    return false;
  }
}

/**
 * Fetches the engine and model through the service worker so they are cached before the person
 * goes offline (the first scan does the same by itself). Cheap when already cached. The bytes are
 * read in a worker of their own (ocr-prefetch-worker.ts): read here, ~6 MB of body chunks held a
 * phone's main thread for about a second while the page loaded (issue 33).
 */
export async function prefetchReceiptOcr(): Promise<void> {
  const core = hasWasmSimd() ? assets.cores.simd : assets.cores.plain;
  const urls = [assets.workerPath, core, core.replace(/\.js$/, '.wasm'), `${assets.langPath}/eng.traineddata.gz`];
  const worker = new Worker(new URL('./ocr-prefetch-worker.ts', import.meta.url), { type: 'module', name: 'ocr-prefetch' });
  try {
    const ok = await new Promise<boolean>((resolve) => {
      worker.addEventListener('message', (e: MessageEvent<unknown>) => resolve(e.data === true));
      worker.addEventListener('error', () => resolve(false));
      worker.postMessage(urls);
    });
    if (!ok) throw new Error('The OCR engine could not be fetched for offline use');
  } finally {
    worker.terminate();
  }
}
