/**
 * Reads what a bill form wants from an invoice's OCR text: the vendor's name as printed, the
 * invoice number, the invoice and due dates (or the payment terms, "Net 30") and the total due.
 * Pure and cautious, as the receipt parser it builds on (src/lib/receipt-ocr/parse-receipt-text.ts,
 * whose line cleaning, amounts, currencies and dates it reuses): a field it is not sure of is left
 * out rather than guessed, since the person only checks what is filled.
 */
import {
  amountsIn, cleanLine, datesIn, parseReceiptText, type ReceiptFields,
} from '../../lib/receipt-ocr/parse-receipt-text.ts';

export interface InvoiceFields {
  /** The vendor's name as the invoice prints it (matched to a vendor by the form). */
  vendorName?: string;
  invoiceNumber?: string;
  /** YYYY-MM-DD. */
  invoiceDate?: string;
  /** YYYY-MM-DD; printed, or the invoice date + the terms' days. */
  dueDate?: string;
  /** "Net 30", "Payment due within 30 days". */
  termsDays?: number;
  /** The amount due, in minor units of its currency. */
  total?: { minor: number; currency: string };
}

export interface ParseInvoiceOptions {
  /** When the invoice names no currency (the business's or the vendor's). */
  defaultCurrency: string;
  /** YYYY-MM-DD: dates more than ten years away from it are misreads. */
  today: string;
  /** An ambiguous 03/04/2026: month first for USD, day first otherwise, unless given. */
  dateOrder?: 'mdy' | 'dmy';
}

const NUMBER_LABEL =
  /\b(?:invoice|inv|bill|rechnung(?:s)?|facture|factura)\s*(?:no\b\.?|nr\b\.?|num(?:ber)?\b\.?|n[°º]|#|id\b|-?nummer\b|number\s*#)\s*[:#.]?\s*/i;
/** "Invoice: 4471", "INVOICE # 2026-118" (the label alone, a colon or # right after it). */
const BARE_LABEL = /\b(?:invoice|inv)\s*[:#]\s*/i;
const INV_TOKEN = /\b(INV[-/_ ]?\d[\w\-/]*)/i;
const INVOICE_DATE = /invoice\s*date|date\s*of\s*(?:issue|invoice)|issue[d]?\s*(?:date|on)|\bdated?\b|rechnungsdatum|date\s*de\s*(?:la\s*)?facture|fecha/i;
const DUE_DATE = /\bdue\b|payment\s*due|pay\s*by|payable\s*(?:by|on)|f[äa]llig|[ée]ch[ée]ance|zahlbar\s*bis/i;
const TERMS = /\bnet\s*(\d{1,3})\b|(?:within|in)\s*(\d{1,3})\s*days|(\d{1,3})\s*days?\s*net|zahlbar\s*(?:innerhalb|in)\s*(\d{1,3})\s*tagen/i;
/** The customer's block: the vendor's name is never in it. */
const CUSTOMER = /\b(?:bill(?:ed)?\s*to|ship(?:ped)?\s*to|sold\s*to|customer|client|attn)\b/i;

export function parseInvoiceText(text: string, opts: ParseInvoiceOptions): InvoiceFields {
  const lines = text.split(/\r?\n/).map(cleanLine).filter((l) => l.length > 0);
  const order = opts.dateOrder ?? (opts.defaultCurrency === 'USD' ? 'mdy' : 'dmy');
  const fields: InvoiceFields = {};
  const invoiceNumber = findInvoiceNumber(lines);
  if (invoiceNumber) fields.invoiceNumber = invoiceNumber;
  const dates = findDates(lines, order, opts.today);
  Object.assign(fields, dates);
  const total = findTotal(lines, opts);
  if (total) fields.total = total;
  const vendorName = findVendorName(lines, opts);
  if (vendorName) fields.vendorName = vendorName;
  return fields;
}

// ---------------------------------------------------------------- invoice number

/** A value that can be an invoice number: has a digit, is not a date or an amount with cents. */
function asInvoiceNumber(raw: string | undefined): string | undefined {
  const token = raw?.trim().replace(/[.,;:]+$/, '');
  if (!token || !/\d/.test(token) || token.length > 64) return undefined;
  if (datesIn(token, 'mdy').length > 0 || amountsIn(token).some((a) => a.hasCents)) return undefined;
  return token;
}

/** The first word after the label on the same line, or the next line's first word (columns OCR'd apart). */
function afterLabel(lines: string[], i: number, label: RegExp): string | undefined {
  const line = lines[i]!;
  const m = label.exec(line);
  if (!m) return undefined;
  const rest = line.slice(m.index + m[0].length).trim();
  if (rest) return asInvoiceNumber(rest.split(/\s+/)[0]);
  return asInvoiceNumber(lines[i + 1]?.split(/\s+/)[0]);
}

function findInvoiceNumber(lines: string[]): string | undefined {
  for (let i = 0; i < lines.length; i++) {
    const found = afterLabel(lines, i, NUMBER_LABEL) ?? afterLabel(lines, i, BARE_LABEL);
    if (found) return found;
  }
  // No label: an "INV-1234"-style token anywhere.
  for (const line of lines) {
    const found = asInvoiceNumber(INV_TOKEN.exec(line)?.[1]?.replace(/\s/g, ''));
    if (found) return found;
  }
  return undefined;
}

// ---------------------------------------------------------------- dates and terms

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The dates on the line, or on the next one when the label stands alone. */
function datesNear(lines: string[], i: number, order: 'mdy' | 'dmy'): string[] {
  const own = datesIn(lines[i]!, order);
  if (own.length > 0 || i + 1 >= lines.length) return own;
  return datesIn(lines[i + 1]!, order);
}

function findDates(lines: string[], order: 'mdy' | 'dmy', today: string): Pick<InvoiceFields, 'invoiceDate' | 'dueDate' | 'termsDays'> {
  const year = Number(today.slice(0, 4));
  const plausible = (d: string) => Math.abs(Number(d.slice(0, 4)) - year) <= 10;
  let invoiceDate: string | undefined;
  let dueDate: string | undefined;
  let termsDays: number | undefined;
  let firstOther: string | undefined;
  lines.forEach((line, i) => {
    const due = DUE_DATE.test(line);
    const terms = TERMS.exec(line);
    if (terms && termsDays === undefined) {
      const days = Number(terms[1] ?? terms[2] ?? terms[3] ?? terms[4]);
      if (days > 0 && days <= 365) termsDays = days;
    }
    const found = (due || INVOICE_DATE.test(line) ? datesNear(lines, i, order) : datesIn(line, order)).find(plausible);
    if (!found) return;
    // A line naming the due date is the due date even when it also says "date".
    if (due) dueDate ??= found;
    else if (INVOICE_DATE.test(line)) invoiceDate ??= found;
    else firstOther ??= found;
  });
  invoiceDate ??= firstOther;
  if (!dueDate && invoiceDate && termsDays !== undefined) dueDate = addDays(invoiceDate, termsDays);
  // A due date before the invoice date is a misread of one of them: keep the invoice date only.
  if (dueDate && invoiceDate && dueDate < invoiceDate) dueDate = undefined;
  return {
    ...(invoiceDate ? { invoiceDate } : {}),
    ...(dueDate ? { dueDate } : {}),
    ...(termsDays !== undefined ? { termsDays } : {}),
  };
}

// ---------------------------------------------------------------- total and vendor

/**
 * The amount due: the receipt parser's total (it ranks "Amount due", "Balance due", "Total due"
 * over "Total" over a card payment, and skips subtotals, tax and discounts), read over the lines
 * without the dates' and terms' lines, whose "due" is not money ("Payment due 04/13/2026").
 */
function findTotal(lines: string[], opts: ParseInvoiceOptions): InvoiceFields['total'] {
  const money = lines.filter((l) => amountsIn(l).some((a) => a.hasCents) || !DUE_DATE.test(l));
  const read: ReceiptFields = parseReceiptText(money.join('\n'), { defaultCurrency: opts.defaultCurrency, today: opts.today });
  return read.amount;
}

/**
 * The vendor: the receipt parser's merchant (the first line of the header that is mostly letters
 * and no address, phone or "INVOICE" heading), looked for only above the customer's block.
 */
function findVendorName(lines: string[], opts: ParseInvoiceOptions): string | undefined {
  const end = lines.findIndex((l) => CUSTOMER.test(l));
  const header = (end === -1 ? lines : lines.slice(0, end)).filter((l) => !NUMBER_LABEL.test(l) && !DUE_DATE.test(l));
  if (header.length === 0) return undefined;
  return parseReceiptText(header.join('\n'), { defaultCurrency: opts.defaultCurrency, today: opts.today }).merchant;
}
