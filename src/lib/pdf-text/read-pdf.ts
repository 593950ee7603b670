/**
 * Reads a PDF's text on this device: each page's text layer rebuilt into lines (text-lines.ts);
 * a page without one (a scan) rendered and read by OCR, for the first few such pages only.
 * Platform-neutral: pdf.js and the page OCR are passed in (the browser entry, pdf-reader.ts, passes
 * pdfjs-dist with its worker and tesseract; the Node tests the legacy build and a fake OCR).
 * Nothing leaves the device: pdf.js parses the bytes in its worker, the OCR runs in tesseract's.
 */
import type { DocumentInitParameters, PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import { linesFromItems, MIN_PAGE_CHARS, textWeight, type PdfJsTextItem } from './text-lines.ts';

/** What this module needs of pdf.js (the modern build in browsers, the legacy build in Node). */
export interface PdfJs {
  getDocument(params: DocumentInitParameters): { promise: Promise<PDFDocumentProxy>; destroy(): Promise<void> };
  OPS: Record<string, number>;
}

/** Text pages read at most: a longer PDF is read from its first pages, and says so. */
export const MAX_TEXT_PAGES = 20;
/** Scanned pages read by OCR at most (each takes seconds on a phone). */
export const MAX_SCAN_PAGES = 3;

export type PdfProgress =
  | { step: 'text'; page: number; pages: number }
  /** `page` of `pages` scanned pages, `progress` 0..1 within that page's OCR. */
  | { step: 'scan'; page: number; pages: number; progress: number };

export interface PdfReading {
  /** The lines of every page read, pages apart by an empty line. */
  text: string;
  pageCount: number;
  /** The first `pagesRead` pages were looked at (MAX_TEXT_PAGES at most). */
  pagesRead: number;
  /** Pages read by OCR (no text layer). */
  scannedPages: number;
  /** Pages without a text layer that were not read (over MAX_SCAN_PAGES, or no OCR here). */
  skippedScans: number;
}

/** `unavailable`: the reader itself could not be loaded (offline before it was ever cached). */
export type PdfFailure = 'password' | 'broken' | 'unreadable' | 'unavailable';

/** Why a PDF could not be read; `pdfFailureText` has the words. */
export class PdfReadError extends Error {
  constructor(readonly reason: PdfFailure, options?: { cause?: unknown }) {
    super(`PDF not read: ${reason}`, options);
    this.name = 'PdfReadError';
  }
}

export interface ReadPdfOptions {
  maxPages?: number;
  maxScanPages?: number;
  /** Renders a page and reads it by OCR (progress 0..1); absent, scanned pages are skipped. */
  ocrPage?: (page: PDFPageProxy, onProgress: (progress: number) => void) => Promise<string>;
  onProgress?: (p: PdfProgress) => void;
  /** More of pdf.js's options (the worker, the wasm decoders' URL). */
  params?: Partial<DocumentInitParameters>;
}

const IMAGE_OPS = ['paintImageXObject', 'paintInlineImageXObject', 'paintImageMaskXObject', 'paintImageXObjectRepeat', 'paintInlineImageXObjectGroup', 'paintImageMaskXObjectGroup', 'paintImageMaskXObjectRepeat', 'paintJpegXObject'];

/** Whether a page paints any image: a page with neither text nor an image is blank, not a scan. */
async function paintsImage(pdfjs: PdfJs, page: PDFPageProxy): Promise<boolean> {
  const ops = new Set(IMAGE_OPS.map((name) => pdfjs.OPS[name]).filter((n): n is number => n !== undefined));
  try {
    const list = await page.getOperatorList();
    return list.fnArray.some((fn) => ops.has(fn));
  } catch {
    return true; // could not tell: let the OCR look
  }
}

function failureOf(error: unknown): PdfReadError {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'PasswordException') return new PdfReadError('password', { cause: error });
  if (name === 'InvalidPDFException' || name === 'FormatError') return new PdfReadError('broken', { cause: error });
  return new PdfReadError('unreadable', { cause: error });
}

/** Reads `data` (the PDF's bytes; pdf.js takes them over, pass a copy you can lose). */
export async function readPdf(pdfjs: PdfJs, data: Uint8Array, opts: ReadPdfOptions = {}): Promise<PdfReading> {
  const maxPages = opts.maxPages ?? MAX_TEXT_PAGES;
  const maxScans = opts.ocrPage ? (opts.maxScanPages ?? MAX_SCAN_PAGES) : 0;
  // CSP: pdf.js 6 has no eval path left (its `isEvalSupported` option is gone: PostScript functions
  // compile to wasm, under the 'wasm-unsafe-eval' the OCR already needs). Warnings stay quiet.
  const task = pdfjs.getDocument({ verbosity: 0, ...opts.params, data });
  try {
    let doc: PDFDocumentProxy;
    try {
      doc = await task.promise;
    } catch (error) {
      throw failureOf(error);
    }
    const pagesRead = Math.min(doc.numPages, maxPages);
    const texts: string[] = [];
    const scans: { index: number; page: PDFPageProxy }[] = [];
    let blankish = 0;
    for (let n = 1; n <= pagesRead; n += 1) {
      opts.onProgress?.({ step: 'text', page: n, pages: pagesRead });
      const page = await doc.getPage(n).catch((error: unknown) => Promise.reject(failureOf(error)));
      const content = await page.getTextContent();
      const lines = linesFromItems(content.items as PdfJsTextItem[], page.getViewport({ scale: 1 }).transform);
      texts.push(lines.join('\n'));
      if (textWeight(lines) >= MIN_PAGE_CHARS || !(await paintsImage(pdfjs, page))) {
        page.cleanup();
        continue;
      }
      blankish += 1;
      if (scans.length < maxScans) scans.push({ index: n - 1, page });
      else page.cleanup();
    }
    for (const [i, { index, page }] of scans.entries()) {
      const report = (progress: number) => opts.onProgress?.({ step: 'scan', page: i + 1, pages: scans.length, progress });
      report(0);
      const read = await opts.ocrPage!(page, report);
      // A scan's few stamped words (a page number) come again in its OCR: the OCR's text stands.
      texts[index] = read.trim();
      page.cleanup();
    }
    return {
      text: texts.filter((t) => t !== '').join('\n\n'),
      pageCount: doc.numPages,
      pagesRead,
      scannedPages: scans.length,
      skippedScans: blankish - scans.length,
    };
  } finally {
    await task.destroy();
  }
}

/** The note shown when a PDF could not be read (the manual paths stay). */
export function pdfFailureText(error: unknown): string {
  const reason = error instanceof PdfReadError ? error.reason : 'unreadable';
  return `This PDF could not be read on this device: ${FAILURE_WORDS[reason]}.`;
}

const FAILURE_WORDS: Record<PdfFailure, string> = {
  password: 'it is protected by a password',
  broken: 'the file is damaged or is not a PDF',
  unreadable: 'its pages could not be read',
  unavailable: 'the PDF reader could not be loaded (connect once so this device keeps it)',
};

/** "Only the first 20 of its 48 pages were read." / "2 scanned pages were not read …" — or null. */
export function pdfLimitText(r: PdfReading): string | null {
  const parts: string[] = [];
  if (r.pagesRead < r.pageCount) parts.push(`Only the first ${r.pagesRead} of its ${r.pageCount} pages were read.`);
  if (r.skippedScans > 0) {
    const pages = r.skippedScans === 1 ? '1 scanned page was' : `${r.skippedScans} scanned pages were`;
    parts.push(r.scannedPages > 0
      ? `${pages} not read: only the first ${r.scannedPages} are read on this device.`
      : `${pages} not read on this device.`);
  }
  return parts.length > 0 ? parts.join(' ') : null;
}
