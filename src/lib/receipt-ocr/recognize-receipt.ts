/**
 * The browser entry of receipt OCR. Loaded only through a dynamic import (`use-receipt-ocr.ts`):
 * it pulls tesseract.js's client (the engine itself runs in tesseract's own Web Worker) and the
 * asset URLs the build emitted (build/ocr-assets.ts), none of which belongs in the main bundle.
 */
import assets from 'virtual:ledgerline-ocr-assets';
import { createOcrEngine, type OcrProgress, type ReceiptOcrResult } from './ocr-engine.ts';
import type { ParseReceiptOptions } from './parse-receipt-text.ts';
import { hasWasmSimd } from './ocr-prefetch.ts';

// The warm-up lives in its own small module (the shell loads it without this one's dependencies).
export { prefetchReceiptOcr } from './ocr-prefetch.ts';

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

/**
 * The longest side OCR gets. A 12-megapixel phone photo of a receipt still has ~30 px letters at
 * this size, and tesseract's time and memory grow with the pixel count.
 */
export const MAX_SIDE = 2400;

/**
 * A large photo scaled down (and turned upright by its EXIF orientation, which createImageBitmap
 * applies and tesseract's own decoder does not); anything small, or undecodable here, as it is.
 */
async function fitForOcr(image: Blob): Promise<Blob> {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function') return image;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(image);
  } catch {
    return image; // tesseract may still read a format the browser cannot decode
  }
  try {
    const scale = MAX_SIDE / Math.max(bitmap.width, bitmap.height);
    if (scale >= 1) return image;
    const canvas = new OffscreenCanvas(Math.round(bitmap.width * scale), Math.round(bitmap.height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) return image;
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return await canvas.convertToBlob({ type: 'image/png' });
  } finally {
    bitmap.close();
  }
}

/** Reads a receipt image (a photo, a scan, a PNG) into text and the form's fields. */
export async function recognizeReceipt(image: Blob, opts: RecognizeReceiptOptions = {}): Promise<ReceiptOcrResult> {
  const parse: ParseReceiptOptions = {
    defaultCurrency: opts.defaultCurrency ?? 'USD',
    today: opts.today ?? localToday(),
    ...(opts.dateOrder ? { dateOrder: opts.dateOrder } : {}),
  };
  const t0 = performance.now();
  const result = await getEngine().recognize(await fitForOcr(image), parse, opts.onProgress);
  return { ...result, ms: performance.now() - t0 };
}

/** Ends the OCR worker now (it also ends by itself after a minute without a receipt). */
export async function stopReceiptOcr(): Promise<void> {
  await engine?.terminate();
}
