import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { STATEMENT_INCLUDES } from '../../../schema/statements.ts';
import { formatAmount } from '../procurement/po-pdf.ts';
import type { StatementData } from './data.ts';

/**
 * The statement as a PDF (pdf-lib, Letter, Helvetica; no object streams, so any reader opens it):
 * the business, which card or the whole business, the month; per currency the opening balance,
 * charges, payments and closing balance; totals per card; every charge; every payment; and what
 * the statement includes. Tables flow onto further pages with their heading repeated.
 */
const PAGE: [number, number] = [612, 792];
const MARGIN = 50;
const ROW = 15;
const RIGHT = PAGE[0] - MARGIN;

type Fonts = { regular: PDFFont; bold: PDFFont };
type Column = { title: string; x: number; width: number; align?: 'right' };

/** WinAnsi only (the standard fonts): other characters become their unaccented letter, else `?`. */
function printable(font: PDFFont, s: string): string {
  const known = new Set(font.getCharacterSet());
  let out = '';
  for (const ch of s.replace(/[\r\n\t]+/g, ' ')) {
    if (known.has(ch.codePointAt(0)!)) out += ch;
    else {
      const base = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      out += base.length > 0 && [...base].every((c) => known.has(c.codePointAt(0)!)) ? base : '?';
    }
  }
  return out;
}

function fit(font: PDFFont, s: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(s, size) <= width) return s;
  let cut = s;
  while (cut.length > 0 && font.widthOfTextAtSize(`${cut}...`, size) > width) cut = cut.slice(0, -1);
  return `${cut}...`;
}

/** Writes downwards, adding a page (with `onNewPage`'s heading) when the space runs out. */
class Writer {
  page: PDFPage;
  y: number;
  private continued: (() => void) | null = null;
  constructor(private readonly doc: PDFDocument, readonly f: Fonts, private readonly runningTitle: string) {
    this.page = doc.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
  }
  need(space: number) {
    if (this.y - space >= MARGIN) return;
    this.page = this.doc.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
    this.text(`${this.runningTitle} (continued)`, MARGIN, 9);
    this.y -= ROW + 6;
    this.continued?.();
  }
  text(s: string, x: number, size = 10, bold = false, width = RIGHT - x, align: 'left' | 'right' = 'left') {
    const font = bold ? this.f.bold : this.f.regular;
    const t = fit(font, printable(font, s), size, width);
    const dx = align === 'right' ? width - font.widthOfTextAtSize(t, size) : 0;
    this.page.drawText(t, { x: x + dx, y: this.y, size, font });
  }
  /** Wrapped paragraph text. */
  paragraph(s: string, size = 9) {
    const words = printable(this.f.regular, s).split(' ');
    let line = '';
    for (const w of words) {
      const next = line ? `${line} ${w}` : w;
      if (this.f.regular.widthOfTextAtSize(next, size) > RIGHT - MARGIN && line) {
        this.need(ROW);
        this.text(line, MARGIN, size);
        this.y -= size + 4;
        line = w;
      } else line = next;
    }
    if (line) {
      this.need(ROW);
      this.text(line, MARGIN, size);
      this.y -= size + 4;
    }
  }
  heading(s: string) {
    this.need(ROW * 3);
    this.y -= 8;
    this.text(s, MARGIN, 12, true);
    this.y -= ROW + 2;
  }
  table(columns: Column[], rows: string[][]) {
    const head = () => {
      for (const c of columns) this.text(c.title, c.x, 9, true, c.width, c.align ?? 'left');
      this.page.drawLine({ start: { x: MARGIN, y: this.y - 4 }, end: { x: RIGHT, y: this.y - 4 }, thickness: 0.5 });
      this.y -= ROW + 2;
    };
    this.need(ROW * 2);
    head();
    this.continued = head;
    for (const r of rows) {
      this.need(ROW);
      columns.forEach((c, i) => this.text(r[i] ?? '', c.x, 9, false, c.width, c.align ?? 'left'));
      this.y -= ROW;
    }
    this.continued = null;
  }
}

export async function renderStatementPdf(s: StatementData, generatedAt: Date): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const scopeName = s.card ? `${s.card.name}${s.card.last_four ? ` ·· ${s.card.last_four}` : ''}` : 'All cards';
  doc.setTitle(`${s.title} ${s.monthLabel} ${s.businessName}`);
  doc.setCreator('Ledgerline');
  doc.setProducer('Ledgerline');
  doc.setCreationDate(generatedAt);
  doc.setModificationDate(generatedAt);
  const f: Fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  const w = new Writer(doc, f, `${s.title} · ${s.monthLabel}`);
  w.text(s.businessName, MARGIN, 16, true, 300);
  w.text(s.title.toUpperCase(), MARGIN + 300, 14, true, RIGHT - MARGIN - 300, 'right');
  w.y -= 22;
  w.text(`${s.monthLabel} (${s.period.start} to ${s.period.end}, UTC)`, MARGIN, 11);
  w.y -= 16;
  w.text(s.card ? `Card: ${scopeName}, cardholder ${s.card.cardholder}` : 'Every card of the business', MARGIN, 10);
  w.y -= 14;
  w.text(`Generated ${generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`, MARGIN, 9);
  w.y -= 10;

  w.heading('Summary');
  w.table(
    [
      { title: 'Currency', x: MARGIN, width: 60 },
      { title: 'Opening balance', x: 120, width: 100, align: 'right' },
      { title: 'Charges', x: 230, width: 100, align: 'right' },
      { title: 'Payments', x: 340, width: 100, align: 'right' },
      { title: 'Closing balance', x: 450, width: RIGHT - 450, align: 'right' },
    ],
    s.summaries.map((x) => [x.currency, formatAmount(x.opening, x.currency), formatAmount(x.charges, x.currency),
      formatAmount(-x.payments, x.currency), formatAmount(x.closing, x.currency)]),
  );

  if (!s.card) {
    w.heading('Totals per card');
    w.table(
      [
        { title: 'Card', x: MARGIN, width: 180 },
        { title: 'Cardholder', x: 240, width: 150 },
        { title: 'Charges', x: 390, width: 50, align: 'right' },
        { title: 'Total', x: 450, width: RIGHT - 450, align: 'right' },
      ],
      s.cardTotals.map((t) => [`${t.card_name}${t.last_four ? ` ·· ${t.last_four}` : ''}`, t.cardholder, String(t.count), formatAmount(t.total, t.currency)]),
    );
  }

  w.heading(`Charges (${s.charges.length})`);
  w.table(
    [
      { title: 'Date', x: MARGIN, width: 65 },
      { title: 'Merchant', x: 120, width: 170 },
      { title: 'Card', x: 295, width: 150 },
      { title: 'Amount', x: 450, width: RIGHT - 450, align: 'right' },
    ],
    s.charges.map((c) => [c.occurred_at.slice(0, 10), c.merchant, `${c.cardholder} ·· ${c.last_four ?? ''}`, formatAmount(c.amount, c.currency)]),
  );

  w.heading(`Payments (${s.payments.length})`);
  if (s.payments.length === 0) {
    w.text('No card payments settled this month.', MARGIN, 9);
    w.y -= ROW;
  } else {
    w.table(
      [
        { title: 'Date', x: MARGIN, width: 65 },
        { title: 'Description', x: 120, width: 320 },
        { title: 'Amount', x: 450, width: RIGHT - 450, align: 'right' },
      ],
      s.payments.map((p) => [p.settled_at.slice(0, 10), `Card payment (${p.charges} charge${p.charges === 1 ? '' : 's'})`, formatAmount(-p.amount, p.currency)]),
    );
  }

  w.heading('What this statement includes');
  w.paragraph(`${STATEMENT_INCLUDES} Amounts are in the currency stated beside each one; refunds show as negative charges.`);
  return doc.save({ useObjectStreams: false });
}
