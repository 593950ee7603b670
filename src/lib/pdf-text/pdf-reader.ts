/**
 * The browser entry of on-device PDF reading, loaded only through a dynamic import
 * (use-pdf-text.ts): pdf.js (~140 KB gzip) and its worker (~380 KB gzip, a file of our own origin,
 * precached by the service worker) never enter the first load. A scanned page is rendered to a
 * canvas here and read by the receipts' OCR (tesseract.js in its own worker).
 *
 * CSP (server/http/headers.ts): pdf.js 6 evaluates no strings (read-pdf.ts); its worker is
 * started from its same-origin URL (worker-src 'self'), never a blob:; its wasm (image decoders,
 * PostScript functions) compiles under the 'wasm-unsafe-eval' the OCR already needs. Nothing
 * else is allowed.
 */
import { getDocument, GlobalWorkerOptions, OPS } from 'pdfjs-dist';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import assets from 'virtual:ledgerline-pdf-assets';
import { MAX_SIDE, recognizeReceipt } from '../receipt-ocr/recognize-receipt.ts';
import { overallProgress } from '../receipt-ocr/use-receipt-ocr.ts';
import { readPdf, type PdfReading, type ReadPdfOptions } from './read-pdf.ts';

GlobalWorkerOptions.workerSrc = workerUrl;

async function canvasBlob(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The page could not be drawn.'))), 'image/png');
  });
}

/**
 * One page drawn at about 220 dpi on a letter page (its longest side at the OCR's MAX_SIDE) and
 * read by tesseract. The canvas is let go at once: a 2400 px page holds ~20 MB.
 */
async function ocrPage(page: PDFPageProxy, onProgress: (progress: number) => void): Promise<string> {
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: MAX_SIDE / Math.max(base.width, base.height) });
  const canvas = document.createElement('canvas');
  canvas.width = Math.floor(viewport.width);
  canvas.height = Math.floor(viewport.height);
  try {
    await page.render({ canvas, viewport }).promise;
    const image = await canvasBlob(canvas);
    const result = await recognizeReceipt(image, { onProgress: (p) => onProgress(overallProgress(p)) });
    return result.text;
  } finally {
    canvas.width = 0;
    canvas.height = 0;
  }
}

export type ReadPdfFileOptions = Pick<ReadPdfOptions, 'maxPages' | 'maxScanPages' | 'onProgress'>;

/** Reads a PDF file's text on this device (text layer, or OCR of its first scanned pages). */
export async function readPdfFile(file: Blob, opts: ReadPdfFileOptions = {}): Promise<PdfReading> {
  const data = new Uint8Array(await file.arrayBuffer());
  return readPdf({ getDocument, OPS }, data, {
    ...opts,
    ocrPage,
    params: { wasmUrl: assets.wasmUrl },
  });
}
