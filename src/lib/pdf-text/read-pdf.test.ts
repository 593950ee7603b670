/**
 * The real pdf.js (the legacy build, which runs in Node with its worker in-process) over PDFs
 * written by hand (make-test-pdf.ts): rows rebuilt from runs drawn in any order; scans go to the
 * OCR (a fake here: the real one is tested in receipt-ocr), three at most; password-protected and
 * broken files fail with their reason. The statement and invoice parsers over a PDF's text are
 * tested beside them (features/banking/statement-pdf.test.ts, features/bills/invoice-pdf.test.ts).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { nodePdfJs } from './node-pdfjs.ts';
import { makeTestPdf, passwordPdf, textPage, type TestPage } from './make-test-pdf.ts';
import { pdfFailureText, pdfLimitText, PdfReadError, readPdf, type PdfJs, type PdfProgress } from './read-pdf.ts';

let pdfjs: PdfJs;
beforeAll(async () => {
  pdfjs = await nodePdfJs();
});

describe('readPdf with pdf.js (Node, legacy build)', () => {
  it('reads a table drawn column by column as rows, pages apart by an empty line', async () => {
    const page: TestPage = { kind: 'text', runs: [
      { x: 72, y: 700, text: '10/03' }, { x: 72, y: 686, text: '10/04' },
      { x: 300, y: 700, text: '-4.50' }, { x: 300, y: 686, text: '1,000.00' },
      { x: 120, y: 686, text: 'Mobile deposit' }, { x: 120, y: 700, text: 'Coffee' },
    ] };
    const reading = await readPdf(pdfjs, makeTestPdf([page, textPage(['Page 2 (end)'])]));
    expect(reading).toEqual({ text: '10/03 Coffee -4.50\n10/04 Mobile deposit 1,000.00\n\nPage 2 (end)', pageCount: 2, pagesRead: 2, scannedPages: 0, skippedScans: 0 });
    expect(pdfLimitText(reading)).toBeNull();
  });

  it('reads a page shown turned (/Rotate 90) upright', async () => {
    const page: TestPage = { kind: 'text', rotate: 90, runs: [{ x: 300, y: 500, text: '4.50' }, { x: 72, y: 500, text: '10/05 Coffee' }, { x: 72, y: 486, text: '10/06 Tea' }] };
    const reading = await readPdf(pdfjs, makeTestPdf([page]));
    expect(reading.text).toBe('10/05 Coffee 4.50\n10/06 Tea');
  });

  it('reads scanned pages by OCR, in page order, and leaves blank pages alone', async () => {
    const ocrPage = vi.fn(async (_page: unknown, progress: (p: number) => void) => {
      progress(0.5);
      return `10/0${ocrPage.mock.calls.length} Scanned line ${ocrPage.mock.calls.length} 1.00\n`;
    });
    const seen: PdfProgress[] = [];
    const pdf = makeTestPdf([textPage(['10/01 Typed line one 9.99', 'Page 1 of 4']), { kind: 'image' }, { kind: 'blank' }, { kind: 'image' }]);
    const reading = await readPdf(pdfjs, pdf, { ocrPage, onProgress: (p) => seen.push(p) });
    expect(ocrPage).toHaveBeenCalledTimes(2);
    expect(reading).toMatchObject({ pageCount: 4, pagesRead: 4, scannedPages: 2, skippedScans: 0 });
    expect(reading.text).toBe('10/01 Typed line one 9.99\nPage 1 of 4\n\n10/01 Scanned line 1 1.00\n\n10/02 Scanned line 2 1.00');
    expect(seen.filter((p) => p.step === 'text').map((p) => p.page)).toEqual([1, 2, 3, 4]);
    expect(seen.filter((p) => p.step === 'scan')).toEqual([
      { step: 'scan', page: 1, pages: 2, progress: 0 },
      { step: 'scan', page: 1, pages: 2, progress: 0.5 },
      { step: 'scan', page: 2, pages: 2, progress: 0 },
      { step: 'scan', page: 2, pages: 2, progress: 0.5 },
    ]);
  });

  it('reads the first three scanned pages only, and says how many were left', async () => {
    const ocrPage = vi.fn(async () => 'scanned');
    const reading = await readPdf(pdfjs, makeTestPdf(Array.from({ length: 5 }, (): TestPage => ({ kind: 'image' }))), { ocrPage });
    expect(ocrPage).toHaveBeenCalledTimes(3);
    expect(reading).toMatchObject({ scannedPages: 3, skippedScans: 2 });
    expect(pdfLimitText(reading)).toBe('2 scanned pages were not read: only the first 3 are read on this device.');
  });

  it('without an OCR, a scanned page is skipped and said so', async () => {
    const reading = await readPdf(pdfjs, makeTestPdf([{ kind: 'image' }]));
    expect(reading).toMatchObject({ text: '', scannedPages: 0, skippedScans: 1 });
    expect(pdfLimitText(reading)).toBe('1 scanned page was not read on this device.');
  });

  it('reads the first 20 pages of a longer PDF, and says so', async () => {
    const pages = Array.from({ length: 22 }, (_, i) => textPage([`10/${String(i + 1).padStart(2, '0')} Line on page ${i + 1} 1.00`]));
    const reading = await readPdf(pdfjs, makeTestPdf(pages));
    expect(reading).toMatchObject({ pageCount: 22, pagesRead: 20 });
    expect(reading.text).toContain('page 20 ');
    expect(reading.text).not.toContain('page 21 ');
    expect(pdfLimitText(reading)).toBe('Only the first 20 of its 22 pages were read.');
  });

  it.each<[string, Uint8Array, string, string]>([
    ['a password-protected PDF', passwordPdf('secret'), 'password', 'This PDF could not be read on this device: it is protected by a password.'],
    ['a file that is not a PDF', new TextEncoder().encode('%PDF-1.4 but nothing after'), 'broken', 'This PDF could not be read on this device: the file is damaged or is not a PDF.'],
    ['an empty file', new Uint8Array(0), 'broken', 'This PDF could not be read on this device: the file is damaged or is not a PDF.'],
  ])('%s fails with its reason and words', async (_, data, reason, words) => {
    const error = await readPdf(pdfjs, data).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PdfReadError);
    expect((error as PdfReadError).reason).toBe(reason);
    expect(pdfFailureText(error)).toBe(words);
  });
});
