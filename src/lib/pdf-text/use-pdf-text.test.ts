import { describe, expect, it } from 'vitest';
import type { PdfReading } from './read-pdf.ts';
import { limitsText, pdfProgressText } from './use-pdf-text.ts';

const reading = (over: Partial<PdfReading> = {}): PdfReading => ({ text: '', pageCount: 2, pagesRead: 2, scannedPages: 0, skippedScans: 0, ...over });

describe('the PDF reader’s words', () => {
  it.each<[string, Parameters<typeof pdfProgressText>[0], string]>([
    ['before the first page', null, 'Opening the PDF on this device…'],
    ['a text page', { step: 'text', page: 3, pages: 12 }, 'Reading page 3 of 12 of the PDF on this device…'],
    ['a scanned page, with its OCR’s progress', { step: 'scan', page: 1, pages: 3, progress: 0.456 }, 'Reading scanned page 1 of 3 on this device… 46%'],
  ])('progress: %s', (_, progress, words) => {
    expect(pdfProgressText(progress)).toBe(words);
  });

  it.each<[string, PdfReading, number | null, string | null]>([
    ['nothing left unread', reading(), null, null],
    ['a long PDF', reading({ pageCount: 48, pagesRead: 20 }), null, 'Only the first 20 of its 48 pages were read.'],
    ['a file over the upload limit', reading({ pageCount: 9, pagesRead: 3 }), 15 * 1024 * 1024,
      'The file is over the 15 MB upload limit, so only its first pages were read here and it cannot be uploaded as it is. Only the first 3 of its 9 pages were read.'],
    ['scanned pages past the first three', reading({ pageCount: 5, pagesRead: 5, scannedPages: 3, skippedScans: 2 }), null,
      '2 scanned pages were not read: only the first 3 are read on this device.'],
  ])('limits: %s', (_, r, overLimit, words) => {
    expect(limitsText(r, overLimit)).toBe(words);
  });
});
