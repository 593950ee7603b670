import Papa from 'papaparse';
import { toMinorUnits } from '../../../schema/money.ts';
import { dateWithYear, type DayOrder } from '../../../schema/statement-dates.ts';
import { SWITCHING_MAX_ROWS, SWITCHING_MAX_UNREADABLE_SHARE, SWITCHING_SHOWN_ROW_PROBLEMS } from '../../../schema/switching.ts';

/**
 * A card statement CSV (any issuer's export: Amex, Chase, Capital One, Brex…) → its charges.
 * Columns are found by their header's words; a statement with one signed amount column has
 * charges as its majority sign (Amex writes purchases positive, Chase negative), one with debit
 * and credit columns has charges in the debit column. Payments, refunds and credits are counted,
 * not kept. Pure: the import (vendors.ts) stores what this answers.
 */

export interface StatementCharge {
  row: number;
  /** YYYY-MM-DD */
  charged_on: string;
  description: string;
  merchant_key: string;
  /** Positive minor units. */
  amount: number;
}

export interface RowProblem { row: number; message: string }

export type StatementRead =
  | { ok: true; charges: StatementCharge[]; credits: number; unreadable: number; problems: RowProblem[] }
  | { ok: false; message: string; problems: RowProblem[] };

const norm = (h: string) => h.trim().toLowerCase().replace(/[_\s]+/g, ' ');
const DATE_HEADERS = ['transaction date', 'trans date', 'trans. date', 'date', 'purchase date', 'posted date', 'post date', 'posting date'];
const TEXT_HEADERS = ['merchant', 'merchant name', 'description', 'transaction description', 'payee', 'name', 'details', 'vendor'];
const AMOUNT_HEADERS = ['amount', 'transaction amount', 'billing amount', 'amount (usd)'];
const DEBIT_HEADERS = ['debit', 'debits', 'charge', 'charges', 'withdrawal', 'withdrawals'];
const CREDIT_HEADERS = ['credit', 'credits', 'payment', 'payments'];

/** The first header (in the list's order of preference) the file has. */
function column(header: string[], names: string[]): number {
  for (const name of names) {
    const i = header.indexOf(name);
    if (i >= 0) return i;
  }
  return -1;
}

/** "$1,234.56", "(12.00)", "12.00-", "-12", "USD 9.99", "12.00 CR" → signed minor units, or null. */
export function statementAmount(text: string, currency: string): number | null {
  let t = text.trim().replace(/^[A-Z]{3}\s+|\s+[A-Z]{3}$/gi, '');
  let negative = false;
  if (/\s*CR$/i.test(t)) { negative = true; t = t.replace(/\s*CR$/i, ''); } else t = t.replace(/\s*DR$/i, '');
  t = t.replace(/[$€£¥\s]/g, '');
  if (t === '') return null;
  if (/^\(.*\)$/.test(t)) { negative = true; t = t.slice(1, -1); }
  if (t.endsWith('-')) { negative = true; t = t.slice(0, -1); }
  if (t.startsWith('-')) { negative = !negative; t = t.slice(1); }
  if (t.startsWith('+')) t = t.slice(1);
  const minor = toMinorUnits(t, currency);
  return minor === null || minor < 0 ? null : negative ? -minor : minor;
}

/** Processors that write themselves before the merchant: "SQ *BLUE BOTTLE", "PAYPAL *NOTION". */
const PROCESSOR = /^(SQ|TST|SP|PAYPAL|PP|PY|GOOGLE|GGL|APL|IN|WPY|DD|CKO)\s*\*\s*/;

/** A two-letter US state or Canadian province closing a description ("… LOS GATOS CA"). */
const REGION = /^[A-Z]{2}$/;

/**
 * The vendor a description names, the same for every charge of it: upper case; the processor's
 * prefix and everything after the first `*` dropped (a reference); cut at the first word with a
 * digit or `#` (a store, order or phone number: what follows is where); a closing region code
 * dropped; the first three words kept. "NETFLIX.COM 866-579-7172 CA" → "NETFLIX.COM";
 * "SQ *BLUE BOTTLE COFFEE #12 OAKLAND" → "BLUE BOTTLE COFFEE".
 */
export function merchantKey(description: string): string {
  let s = description.toUpperCase().trim().replace(PROCESSOR, '');
  s = s.split('*')[0]!;
  const words: string[] = [];
  for (const w of s.replace(/[^A-Z0-9.&'#-]+/g, ' ').split(/\s+/)) {
    if (w === '') continue;
    if (/[\d#]/.test(w)) break;
    if (/^[.&'-]+$/.test(w)) continue;
    words.push(w);
  }
  if (words.length > 1 && REGION.test(words[words.length - 1]!)) words.pop();
  return words.slice(0, 3).join(' ');
}

/** Day-first when any numeric date could only be read that way ("31/10/2026"). */
function dayOrder(cells: string[]): DayOrder {
  return cells.some((c) => { const m = /^(\d{1,2})[/.-](\d{1,2})[/.-]\d{2,4}$/.exec(c.trim()); return !!m && Number(m[1]) > 12; }) ? 'DMY' : 'MDY';
}

function headerOf(header: string[]) {
  const h = header.map(norm);
  return {
    date: column(h, DATE_HEADERS), text: column(h, TEXT_HEADERS),
    amount: column(h, AMOUNT_HEADERS), debit: column(h, DEBIT_HEADERS), credit: column(h, CREDIT_HEADERS),
  };
}

interface SignedRow { row: number; charged_on: string; description: string; amount: number }

export function readCardStatement(text: string, currency: string): StatementRead {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const broken = parsed.errors.find((e) => e.type !== 'Delimiter');
  if (broken) return { ok: false, message: `The file could not be read as CSV (row ${(broken.row ?? 0) + 1}: ${broken.message}).`, problems: [] };
  const [header, ...lines] = parsed.data;
  if (!header || lines.length === 0) return { ok: false, message: 'The file has no rows under its header row.', problems: [] };
  if (lines.length > SWITCHING_MAX_ROWS) return { ok: false, message: `The file has ${lines.length} rows; at most ${SWITCHING_MAX_ROWS} are read at a time.`, problems: [] };
  const cols = headerOf(header);
  if (cols.date < 0 || cols.text < 0 || (cols.amount < 0 && cols.debit < 0)) {
    const found = header.map((h) => `"${h.trim()}"`).join(', ');
    return { ok: false, message: `The header row needs a date, a description and an amount (or debit) column; it has ${found}.`, problems: [] };
  }
  const order = dayOrder(lines.map((l) => l[cols.date] ?? ''));
  const problems: RowProblem[] = [];
  const rows: SignedRow[] = [];
  let credits = 0;
  lines.forEach((cells, i) => {
    const row = i + 2;
    const charged_on = dateWithYear((cells[cols.date] ?? '').trim(), order);
    const description = (cells[cols.text] ?? '').trim();
    const debit = cols.debit >= 0 ? statementAmount(cells[cols.debit] ?? '', currency) : null;
    const credit = cols.credit >= 0 ? statementAmount(cells[cols.credit] ?? '', currency) : null;
    const amount = cols.amount >= 0 ? statementAmount(cells[cols.amount] ?? '', currency) : debit !== null ? Math.abs(debit) : credit !== null ? -Math.abs(credit) : null;
    if (!charged_on) problems.push({ row, message: `"${cells[cols.date] ?? ''}" is not a date.` });
    else if (amount === null) problems.push({ row, message: 'The row has no amount that reads as money.' });
    else if (description === '') problems.push({ row, message: 'The row has no description.' });
    else if (amount === 0) credits += 1;
    else rows.push({ row, charged_on, description, amount });
  });
  const unreadable = problems.length;
  if (unreadable > lines.length * SWITCHING_MAX_UNREADABLE_SHARE) {
    return { ok: false, message: `${unreadable} of ${lines.length} rows could not be read, so the file was not imported.`, problems: problems.slice(0, SWITCHING_SHOWN_ROW_PROBLEMS) };
  }
  // One signed column: charges are the sign most rows have (a statement is mostly purchases).
  const positives = rows.filter((r) => r.amount > 0).length;
  const sign = cols.amount < 0 || positives * 2 >= rows.length ? 1 : -1;
  const charges: StatementCharge[] = [];
  for (const r of rows) {
    if (Math.sign(r.amount) !== sign) { credits += 1; continue; }
    const key = merchantKey(r.description);
    if (key === '') { problems.push({ row: r.row, message: `"${r.description}" names no vendor.` }); continue; }
    charges.push({ row: r.row, charged_on: r.charged_on, description: r.description, merchant_key: key, amount: Math.abs(r.amount) });
  }
  if (charges.length === 0) return { ok: false, message: 'The file holds no charges (only payments, refunds or credits).', problems: problems.slice(0, SWITCHING_SHOWN_ROW_PROBLEMS) };
  return { ok: true, charges, credits, unreadable: problems.length, problems: problems.slice(0, SWITCHING_SHOWN_ROW_PROBLEMS) };
}
