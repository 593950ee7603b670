/**
 * A text PDF statement read on the device (src/lib/pdf-text with the real pdf.js, Node's legacy
 * build) reaches the statement parser as OCR'd text would: the table drawn column by column comes
 * back row by row, and the lines, signs and period are read from it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestPdf, textPage, type TestPage } from '../../lib/pdf-text/make-test-pdf.ts';
import { nodePdfJs } from '../../lib/pdf-text/node-pdfjs.ts';
import { readPdf, type PdfJs } from '../../lib/pdf-text/read-pdf.ts';
import { parseStatementText } from './statement-lines.ts';

let pdfjs: PdfJs;
beforeAll(async () => {
  pdfjs = await nodePdfJs();
});

/** A statement's table drawn column by column, as statement generators often do. */
function statementPage(): TestPage {
  const rows = [
    ['10/02', 'ACH deposit Acme payroll', '', '2,500.00', '3,750.00'],
    ['10/05', 'Card purchase Blue Bottle', '4.50', '', '3,745.50'],
    ['10/09', 'Check #1043', '450.00', '', '3,295.50'],
  ];
  const header = textPage([
    'First Federal Bank',
    'Business checking 4242',
    'Statement period: 10/01/2026 - 10/31/2026',
    [[72, 'Date'], [130, 'Description'], [330, 'Withdrawals'], [410, 'Deposits'], [490, 'Balance']],
    [[72, 'Beginning balance'], [490, '1,250.00']],
  ]);
  const columns = [72, 130, 330, 410, 490];
  const runs = columns.flatMap((x, c) => rows.map((row, r) => ({ x, y: 740 - 14 * (5 + r), text: row[c]! })).filter((run) => run.text !== ''));
  return { kind: 'text', runs: [...(header.kind === 'text' ? header.runs : []), ...runs] };
}

describe('a PDF statement read on the device', () => {
  it('gives the statement parser its lines, signed by the running balance, and its period', async () => {
    const reading = await readPdf(pdfjs, makeTestPdf([statementPage()]));
    expect(reading).toMatchObject({ pageCount: 1, pagesRead: 1, scannedPages: 0, skippedScans: 0 });
    expect(reading.text.split('\n')).toContain('10/05 Card purchase Blue Bottle 4.50 3,745.50');
    const parsed = parseStatementText(reading.text, { today: '2026-11-30' });
    expect(parsed.period_start).toBe('2026-10-01');
    expect(parsed.period_end).toBe('2026-10-31');
    expect(parsed.lines).toEqual([
      { date: '2026-10-02', description: 'ACH deposit Acme payroll', amount: 250000, sign: 'balance' },
      { date: '2026-10-05', description: 'Card purchase Blue Bottle', amount: -450, sign: 'balance' },
      { date: '2026-10-09', description: 'Check #1043', amount: -45000, sign: 'balance' },
    ]);
  });

  it('reads lines across pages (the second page continues the table)', async () => {
    const pdf = makeTestPdf([
      textPage(['Statement period: 10/01/2026 - 10/31/2026', '10/02 Wire in from Acme 100.00 CR']),
      textPage(['Page 2 of 2', '10/20 Service charge 12.00 DR']),
    ]);
    const parsed = parseStatementText((await readPdf(pdfjs, pdf)).text, { today: '2026-11-30' });
    expect(parsed.lines.map((l) => [l.date, l.amount])).toEqual([['2026-10-02', 10000], ['2026-10-20', -1200]]);
  });
});
