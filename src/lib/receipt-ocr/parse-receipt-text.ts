/**
 * Reads the fields a receipt form wants from OCR text: the total (integer minor units, with its
 * currency), the date and the merchant. Pure and forgiving: OCR text has misread characters,
 * split columns and stray symbols, so every rule here prefers "no answer" to a wrong one the
 * person might not notice; they confirm what is prefilled.
 */
import { currencyExponent, toMinorUnits } from '../../../schema/money.ts';

export interface ReceiptFields {
  amount?: { minor: number; currency: string };
  /** YYYY-MM-DD, never after `today`. */
  date?: string;
  merchant?: string;
}

export interface ParseReceiptOptions {
  /** Used when the receipt names no currency (and for a bare `$` outside the US dollar's zone). */
  defaultCurrency: string;
  /** YYYY-MM-DD in the person's time zone: a later date on the receipt is not the purchase date. */
  today: string;
  /** How to read an ambiguous 03/04/2026; default: month first for USD, day first otherwise. */
  dateOrder?: 'mdy' | 'dmy';
}

export function parseReceiptText(text: string, opts: ParseReceiptOptions): ReceiptFields {
  const lines = text.split(/\r?\n/).map(cleanLine).filter((l) => l.length > 0);
  const fields: ReceiptFields = {};
  const amount = findTotal(lines, opts.defaultCurrency);
  if (amount) fields.amount = amount;
  const date = findDate(lines, opts);
  if (date) fields.date = date;
  const merchant = findMerchant(lines);
  if (merchant) fields.merchant = merchant;
  return fields;
}

/** Undoes the usual OCR slips inside numbers: O for 0, l/I for 1, a space after the decimal point. */
export function cleanLine(line: string): string {
  return line
    .replace(/[\u2018\u2019\u201a\u00b4`]/g, "'")
    .replace(/(?<=\d)[Oo](?=[\d.,])|(?<=[\d][.,])[Oo]|(?<=[.,]\d)[Oo]\b/g, '0')
    .replace(/(?<=\d)[lI|](?=\d)/g, '1')
    .replace(/(?<=\d[.,]) (?=\d{2}\b)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

// ---------------------------------------------------------------- currency

const SYMBOLS: [RegExp, string][] = [
  [/€/, 'EUR'],
  [/£/, 'GBP'],
  [/[¥￥]/, 'JPY'],
  [/₹/, 'INR'],
  [/₩/, 'KRW'],
  [/\$/, 'USD'],
];

/** Codes we recognise on a receipt: common ones only, so ALL, TOP or CUP in a line are words. */
const CODES = new Set([
  'USD', 'EUR', 'GBP', 'CAD', 'AUD', 'NZD', 'CHF', 'JPY', 'CNY', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF',
  'INR', 'SGD', 'HKD', 'MXN', 'BRL', 'ZAR', 'AED', 'ILS', 'TRY', 'KRW', 'THB',
]);
const DOLLAR_CURRENCIES = new Set(['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'MXN']);

/** The currency a piece of text names, by ISO code first, then by symbol; null when none. */
export function currencyIn(text: string, defaultCurrency: string): string | null {
  for (const m of text.toUpperCase().matchAll(/(?<![A-Z])([A-Z]{3})(?![A-Z])/g)) {
    if (CODES.has(m[1]!) || m[1] === defaultCurrency) return m[1]!;
  }
  for (const [re, code] of SYMBOLS) {
    if (!re.test(text)) continue;
    // A bare $ (or ¥) belongs to the business's own dollar (yen/yuan) when it has one.
    if (code === 'USD' && DOLLAR_CURRENCIES.has(defaultCurrency)) return defaultCurrency;
    if (code === 'JPY' && defaultCurrency === 'CNY') return 'CNY';
    return code;
  }
  if (/\bkr\b/i.test(text) && ['SEK', 'NOK', 'DKK'].includes(defaultCurrency)) return defaultCurrency;
  return null;
}

// ---------------------------------------------------------------- amounts

interface Money {
  /** A decimal string with a dot ("1234.56") or an integer ("3480"). */
  decimal: string;
  hasCents: boolean;
  /** The line's text around the number (for its currency). */
  context: string;
}

/** A digit run with separators, not part of a date (12.11.2026), a time or a percentage. */
const NUMBER = /(?<![\d.,'/:-])-?\d[\d.,']*\d(?![\d.,]*\d)(?!\s?%)(?![/:]\d)|(?<![\d.,'/:-])\d(?![\d.,/:%])/g;

/** The money amounts written on one line, left to right. */
export function amountsIn(line: string): Money[] {
  const out: Money[] = [];
  for (const m of line.matchAll(NUMBER)) {
    const raw = m[0];
    if (raw.startsWith('-')) continue; // discounts and refunds are never the total
    const money = readNumber(raw);
    if (money) out.push({ ...money, context: line });
  }
  return out;
}

function readNumber(raw: string): Omit<Money, 'context'> | null {
  // 1,234.56 / 1.234,56 / 1'234.56 / 12.34 / 12,34
  let m = /^(\d{1,3}(?:([.,'])\d{3})*)([.,])(\d{2})$/.exec(raw);
  if (m && m[2] !== m[3]) return { decimal: `${m[1]!.replace(/[.,']/g, '')}.${m[4]}`, hasCents: true };
  m = /^(\d+)([.,])(\d{2})$/.exec(raw);
  if (m) return { decimal: `${m[1]}.${m[3]}`, hasCents: true };
  // 3,480 / 1.020 / 1,234,000 (whole units: yen, or a thousands group without cents)
  m = /^\d{1,3}(?:([.,'])\d{3})(?:\1\d{3})*$/.exec(raw);
  if (m) return { decimal: raw.replace(/[.,']/g, ''), hasCents: false };
  if (/^\d+$/.test(raw)) return { decimal: raw, hasCents: false };
  return null;
}

function toMinor(money: Money, currency: string): number | null {
  const exp = currencyExponent(currency);
  // Whole numbers are money only in a currency without minor units: elsewhere they are
  // quantities, store numbers, postcodes.
  if (!money.hasCents && exp !== 0) return null;
  const decimal = money.hasCents && exp === 0 ? money.decimal.replace(/\.00$/, '') : money.decimal;
  const minor = toMinorUnits(decimal, currency);
  return minor !== null && minor > 0 && minor < 10_000_000 * 10 ** exp ? minor : null;
}

const TOTAL = /t[o0]ta[l1i]/i;
const STRONG_TOTAL =
  /amount\s*due|balance\s*due|grand\s*t[o0]tal|t[o0]tal\s*(due|ttc|to\s*pay|payable)|amount\s*payable|gesamt|summe|montant|[àa]\s*payer|zu\s*zahlen|importe/i;
const NOT_TOTAL =
  /sub\s*-?\s*t[o0]ta|\btax\b|\bvat\b|\btva\b|mwst|\bhst\b|\bgst\b|\btips?\b|gratuity|\bchange\b|\bcash\b|tendered|saving|discount|\bnet(to)?\b|\bitems?\b|payments?\b|\bqty\b|points|r[uü]ckgeld|rendu/i;
const TAX_INCLUSIVE = /incl|inkl|ttc/i;
const PAID_BY = /\b(visa|master\s*card|amex|american express|debit|credit|card|contactless|girocard|cb|ec|maestro|paid)\b/i;

/** How strongly a line says "this is what was paid": 3 amount due, 2 total, 1 card payment, 0 none. */
function totalRank(line: string): number {
  const excluded = NOT_TOTAL.test(line) && !(TAX_INCLUSIVE.test(line) && !/sub/i.test(line));
  if (excluded) return 0;
  if (STRONG_TOTAL.test(line)) return 3;
  if (TOTAL.test(line) || /\bbalance\b/i.test(line)) return 2;
  if (PAID_BY.test(line)) return 1;
  return 0;
}

/**
 * The total: among the lines that name it (amount due > total > card payment) the largest amount
 * of the strongest rank (a bill can print "Total" before and after the tip); otherwise the largest
 * amount with cents on a line that is not cash handed over or change.
 */
function findTotal(lines: string[], defaultCurrency: string): ReceiptFields['amount'] | undefined {
  const documentCurrency = currencyIn(lines.join('\n'), defaultCurrency) ?? defaultCurrency;
  let best: { rank: number; minor: number; currency: string } | undefined;
  const consider = (rank: number, money: Money) => {
    const currency = currencyIn(money.context, defaultCurrency) ?? documentCurrency;
    const minor = toMinor(money, currency);
    if (minor === null) return;
    if (!best || rank > best.rank || (rank === best.rank && minor > best.minor)) best = { rank, minor, currency };
  };
  lines.forEach((line, i) => {
    const rank = totalRank(line);
    let amounts = amountsIn(line);
    // Columns OCR'd apart: "TOTAL" on one line and its amount alone on the next.
    if (rank > 0 && amounts.length === 0 && i + 1 < lines.length && /^[^A-Za-z]*$/.test(lines[i + 1]!)) {
      amounts = amountsIn(lines[i + 1]!).map((a) => ({ ...a, context: `${line} ${a.context}` }));
    }
    // The amount is the line's last number ("Omakase x4 1,020.00", "Tax 8.625% 0.86").
    const last = amounts.at(-1);
    if (last && rank > 0) consider(rank + 1, last);
    else if (last && !/\b(cash|change|tendered)\b|r[uü]ckgeld/i.test(line)) consider(0, last);
  });
  return best && { minor: best.minor, currency: best.currency };
}

// ---------------------------------------------------------------- dates

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
  // German and French spellings that differ in their first three letters
  mär: 3, mai: 5, okt: 10, dez: 12, fév: 2, fev: 2, avr: 4, jui: 7, aoû: 8, aou: 8, déc: 12,
};
const MONTH = '(jan|feb|m[aä]r|apr|ma[yi]|jun|jul|aug|sep|o[ck]t|nov|de[cz]|f[ée]v|avr|jui|ao[uû]|d[ée]c)[a-zéû]*\\.?';

function isoDate(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null; // 31/02
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const fullYear = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

/** Every date a line can mean, most likely reading first (an ambiguous one gives both). */
export function datesIn(line: string, order: 'mdy' | 'dmy'): string[] {
  const out: string[] = [];
  const push = (s: string | null) => s && out.push(s);
  for (const m of line.matchAll(/(?<!\d)(\d{4})\s?[-/.]\s?(\d{1,2})\s?[-/.]\s?(\d{1,2})(?!\d)/g)) {
    push(isoDate(Number(m[1]), Number(m[2]), Number(m[3])));
  }
  for (const m of line.matchAll(/(?<![\d.,])(\d{1,2})\s?([-/.])\s?(\d{1,2})\s?\2\s?(\d{4}|\d{2})(?![\d.,]\d)/g)) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const y = fullYear(m[4]!);
    // Dots are day-first everywhere they are used; slashes and dashes follow the currency's region.
    const dayFirst = m[2] === '.' || order === 'dmy';
    const first = dayFirst ? isoDate(y, b, a) : isoDate(y, a, b);
    const second = dayFirst ? isoDate(y, a, b) : isoDate(y, b, a);
    push(first);
    if (second !== first) push(second);
  }
  const lower = line.toLowerCase();
  for (const m of lower.matchAll(new RegExp(`(?<!\\d)(\\d{1,2})(?:st|nd|rd|th)?\\.?\\s?(?:de\\s)?${MONTH},?\\s?(\\d{4})`, 'g'))) {
    push(isoDate(Number(m[3]), MONTHS[m[2]!.slice(0, 3)] ?? 0, Number(m[1])));
  }
  for (const m of lower.matchAll(new RegExp(`${MONTH}\\s?(\\d{1,2})(?:st|nd|rd|th)?,?\\s?(\\d{4})`, 'g'))) {
    push(isoDate(Number(m[3]), MONTHS[m[1]!.slice(0, 3)] ?? 0, Number(m[2])));
  }
  return out;
}

/** Printed dates that are not the day of purchase. */
const NOT_PURCHASE_DATE = /\b(due|expir\w*|exp|valid|until|bis|return\w*|arrival|check-?in|since|born|dob)\b/i;

/**
 * The purchase date: the latest date on the receipt that is not after today (a hotel bill prints
 * arrival and departure; the bill is dated at departure), skipping lines that announce a due or
 * expiry date, and anything more than ten years old (a misread).
 */
function findDate(lines: string[], opts: ParseReceiptOptions): string | undefined {
  const order = opts.dateOrder ?? (opts.defaultCurrency === 'USD' ? 'mdy' : 'dmy');
  const oldest = `${Number(opts.today.slice(0, 4)) - 10}${opts.today.slice(4)}`;
  let best: string | undefined;
  for (const line of lines) {
    if (NOT_PURCHASE_DATE.test(line)) continue;
    // The first reading that can be right wins: an ambiguous date read the other way round is
    // taken only when the likely reading is impossible (in the future).
    const date = datesIn(line, order).find((d) => d <= opts.today && d >= oldest);
    if (date && (!best || date > best)) best = date;
  }
  return best;
}

// ---------------------------------------------------------------- merchant

const NOT_MERCHANT =
  /\b(tel|phone|fax|www|http|receipt|invoice|order|table|server|cashier|guest|vat\s*no|tax\s*id|store\s*#?\d|welcome|thank)\b|@|\d{3}[-. ]\d{3,4}/i;

/**
 * The merchant: the first line among the top few that is mostly letters and is not an address,
 * a phone number or a header word; store numbers and stray symbols trimmed.
 */
function findMerchant(lines: string[]): string | undefined {
  for (const raw of lines.slice(0, 6)) {
    const welcome = /^\W*welcome\s+to\s+(.+)$/i.exec(raw);
    const line = (welcome?.[1] ?? raw)
      .replace(/#\s*\d+|\bno\.?\s*\d+|\bstore\s*\d+/gi, '')
      // Stray marks OCR reads off the paper's edge: symbols, and a lone letter after the name.
      .replace(/^[^\p{L}\d]+|(\s+([^\p{L}\d\s]+|\p{L}))+$|[^\p{L}\d.)&']+$/gu, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (!welcome && NOT_MERCHANT.test(raw)) continue;
    if (/^\d/.test(line)) continue; // "66 Mint St", "399 4th Street"
    if (datesIn(line, 'dmy').length > 0 || amountsIn(line).some((a) => a.hasCents)) continue;
    const letters = (line.match(/\p{L}/gu) ?? []).length;
    if (letters < 3 || letters / line.replace(/\s/g, '').length < 0.7) continue;
    return line;
  }
  return undefined;
}
