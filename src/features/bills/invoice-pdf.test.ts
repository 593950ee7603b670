/**
 * A text PDF invoice read on the device (src/lib/pdf-text with the real pdf.js, Node's legacy
 * build) fills what the invoice parser reads from an image: vendor, number, dates, total.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestPdf, textPage } from '../../lib/pdf-text/make-test-pdf.ts';
import { nodePdfJs } from '../../lib/pdf-text/node-pdfjs.ts';
import { readPdf, type PdfJs } from '../../lib/pdf-text/read-pdf.ts';
import { parseInvoiceText } from './invoice-text.ts';

let pdfjs: PdfJs;
beforeAll(async () => {
  pdfjs = await nodePdfJs();
});

describe('a PDF invoice read on the device', () => {
  it('gives the invoice parser the vendor, number, dates and total', async () => {
    const pdf = makeTestPdf([textPage([
      'Northwind Traders',
      '12 Harbour Road, Seattle WA 98101',
      [[72, 'Invoice #'], [130, 'INV-4471'], [400, 'Invoice date'], [480, 'Nov 3, 2026']],
      [[400, 'Due date'], [480, 'Dec 3, 2026']],
      'Bill to: Ledgerline Inc',
      [[72, 'Consulting, October'], [480, '$1,200.00']],
      [[72, 'Total due'], [480, '$1,200.00']],
    ])]);
    const reading = await readPdf(pdfjs, pdf);
    expect(parseInvoiceText(reading.text, { defaultCurrency: 'USD', today: '2026-11-30' })).toEqual({
      vendorName: 'Northwind Traders',
      invoiceNumber: 'INV-4471',
      invoiceDate: '2026-11-03',
      dueDate: '2026-12-03',
      total: { minor: 120000, currency: 'USD' },
    });
  });
});
