import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { PurchaseOrder } from '../../../schema/entities/purchase-order.ts';
import type { VendorAddress } from '../../../schema/entities/vendor.ts';
import { minorToDecimal } from '../../../schema/money.ts';
import type { ActingUser } from '../../core/actor.ts';
import type { Queryable } from '../../db/db.ts';
import { findPurchaseOrder } from './purchase-orders.ts';

/**
 * A purchase order as a PDF to send to the vendor (issue 28): the business, the PO number and
 * date, the vendor's name, address and email, the lines (description, quantity, unit price,
 * amount) and the total, in the PO's currency. pdf-lib writes it (Letter, Helvetica; a classic
 * cross-reference table, no object streams, so any reader opens it); a long order flows onto
 * further pages with the table's heading repeated.
 */
export type PoPdfData = {
  businessName: string;
  po: PurchaseOrder;
  vendor: { name: string; address: VendorAddress | null; email: string | null };
};

/** What the PDF needs, read for a user who may see the PO (else 404). */
export async function poPdfData(db: Queryable, user: ActingUser, id: string): Promise<PoPdfData> {
  const po = await findPurchaseOrder(db, user, id);
  const [row] = await db.query<{ business_name: string; name: string; address: VendorAddress | null; email: string | null }>(
    `SELECT b.name AS business_name, v.name, v.address, v.email FROM businesses b JOIN vendors v ON v.business_id = b.id
      WHERE b.id = $1 AND v.id = $2`,
    [user.business_id, po.vendor_id],
  );
  return { businessName: row!.business_name, po, vendor: { name: row!.name, address: row!.address, email: row!.email } };
}

/** `1234567` USD → `12,345.67 USD`: exact (minor units), grouped, with the code. */
export function formatAmount(minor: number, currency: string): string {
  const [whole, frac] = minorToDecimal(minor, currency).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${frac === undefined ? grouped : `${grouped}.${frac}`} ${currency}`;
}

const PAGE: [number, number] = [612, 792];
const MARGIN = 50;
const COLUMNS = { description: MARGIN, quantityRight: 370, unitRight: 460, amountRight: PAGE[0] - MARGIN };
const ROW = 16;

type Fonts = { regular: PDFFont; bold: PDFFont };

/**
 * The standard fonts speak WinAnsi only: a character outside it would make pdf-lib throw, so it
 * becomes its unaccented letter when it has one (NFKD), else `?`.
 */
function printable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  let out = '';
  for (const ch of text.replace(/[\r\n\t]+/g, ' ')) {
    if (known.has(ch.codePointAt(0)!)) out += ch;
    else {
      const base = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      out += base.length > 0 && [...base].every((c) => known.has(c.codePointAt(0)!)) ? base : '?';
    }
  }
  return out;
}

/** `text` cut (with an ellipsis) to fit `width` points. */
function fitted(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 0 && font.widthOfTextAtSize(`${cut}...`, size) > width) cut = cut.slice(0, -1);
  return `${cut}...`;
}

function text(page: PDFPage, font: PDFFont, s: string, x: number, y: number, size = 10, maxWidth = PAGE[0] - MARGIN - x) {
  page.drawText(fitted(font, printable(font, s), size, maxWidth), { x, y, size, font, color: rgb(0, 0, 0) });
}

function right(page: PDFPage, font: PDFFont, s: string, xRight: number, y: number, size = 10) {
  const t = printable(font, s);
  page.drawText(t, { x: xRight - font.widthOfTextAtSize(t, size), y, size, font });
}

function addressLines(v: PoPdfData['vendor']): string[] {
  const a = v.address;
  const lines = a ? [a.line1, a.line2, [a.city, a.state, a.postal_code].filter(Boolean).join(', '), a.country] : [];
  return [...lines, v.email].filter((l): l is string => typeof l === 'string' && l.trim().length > 0);
}

function tableHeading(page: PDFPage, f: Fonts, y: number): number {
  text(page, f.bold, 'Description', COLUMNS.description, y, 10, COLUMNS.quantityRight - 60 - MARGIN);
  right(page, f.bold, 'Quantity', COLUMNS.quantityRight, y);
  right(page, f.bold, 'Unit price', COLUMNS.unitRight, y);
  right(page, f.bold, 'Amount', COLUMNS.amountRight, y);
  page.drawLine({ start: { x: MARGIN, y: y - 5 }, end: { x: PAGE[0] - MARGIN, y: y - 5 }, thickness: 0.5 });
  return y - ROW - 4;
}

/** The first page's head: business, title, number, date, vendor. Answers where the table starts. */
function head(page: PDFPage, f: Fonts, d: PoPdfData): number {
  const top = PAGE[1] - MARGIN;
  text(page, f.bold, d.businessName, MARGIN, top - 16, 16, 300);
  right(page, f.bold, 'PURCHASE ORDER', COLUMNS.amountRight, top - 16, 16);
  right(page, f.regular, d.po.po_number, COLUMNS.amountRight, top - 34, 12);
  right(page, f.regular, `Date: ${d.po.created_at.slice(0, 10)}`, COLUMNS.amountRight, top - 50);
  let y = top - 84;
  text(page, f.bold, 'Vendor', MARGIN, y);
  y -= 14;
  for (const line of [d.vendor.name, ...addressLines(d.vendor)]) {
    text(page, f.regular, line, MARGIN, y, 10, 300);
    y -= 13;
  }
  return tableHeading(page, f, y - 20);
}

export async function renderPoPdf(d: PoPdfData): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${d.po.po_number} ${d.businessName}`.trim());
  doc.setCreator('Ledgerline');
  doc.setProducer('Ledgerline');
  doc.setCreationDate(new Date(d.po.created_at));
  doc.setModificationDate(new Date(d.po.created_at));
  const f: Fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  let page = doc.addPage(PAGE);
  let y = head(page, f, d);
  const cur = d.po.currency;
  for (const line of d.po.lines) {
    if (y < MARGIN + 40) {
      page = doc.addPage(PAGE);
      text(page, f.regular, `${d.po.po_number} (continued)`, MARGIN, PAGE[1] - MARGIN - 12);
      y = tableHeading(page, f, PAGE[1] - MARGIN - 40);
    }
    text(page, f.regular, line.description, COLUMNS.description, y, 10, COLUMNS.quantityRight - 60 - MARGIN);
    right(page, f.regular, String(line.quantity), COLUMNS.quantityRight, y);
    right(page, f.regular, formatAmount(line.unit_price, cur), COLUMNS.unitRight, y);
    right(page, f.regular, formatAmount(line.quantity * line.unit_price, cur), COLUMNS.amountRight, y);
    y -= ROW;
  }
  if (y < MARGIN + 30) {
    page = doc.addPage(PAGE);
    y = PAGE[1] - MARGIN - 20;
  }
  page.drawLine({ start: { x: COLUMNS.unitRight - 80, y: y + 8 }, end: { x: PAGE[0] - MARGIN, y: y + 8 }, thickness: 0.5 });
  right(page, f.bold, 'Total', COLUMNS.unitRight, y - 6, 11);
  right(page, f.bold, formatAmount(d.po.amount, cur), COLUMNS.amountRight, y - 6, 11);
  return doc.save({ useObjectStreams: false });
}
