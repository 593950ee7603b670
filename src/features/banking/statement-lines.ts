/**
 * A bank statement's recognised text (OCR on this device, or text pasted by the person) → its
 * transaction lines: date, description, signed amount in minor units (money into the account
 * positive, as `statementLineSchema` wants). Pure: no OCR here, only the reading of the text.
 *
 * How a line's sign is found, best first: written on the amount ("-89.99", "(450.00)", "89.99-",
 * "89.99 DR" / "CR"); the running balance beside it (the balance moved by +amount or −amount);
 * the description's words ("DEPOSIT", "CHECK #1043", "FEE"…); else money out, marked as a guess so
 * the review shows it. Balance lines ("Beginning balance", "Ending balance", totals) are not
 * transactions and are left out; a description that wraps onto the next line is joined.
 */
import { dateWithYear, MONTH_NAME, MONTHS, validDay } from '../../../schema/statement-dates.ts';

export type SignSource = 'written' | 'balance' | 'words' | 'guess';

export interface ParsedStatementLine {
  /** YYYY-MM-DD */
  date: string;
  description: string;
  /** Signed minor units: into the account positive. */
  amount: number;
  /** How the sign was known: a `guess` should be checked by the person. */
  sign: SignSource;
}

export interface ParsedStatement {
  lines: ParsedStatementLine[];
  period_start: string | null;
  period_end: string | null;
}

export interface StatementParseOptions {
  /** The day the statement is read (YYYY-MM-DD): the year of dates written without one when the text names no period. */
  today: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "Statement period: 10/01/2026 - 10/31/2026", "October 1, 2026 through October 31, 2026", "From … to …". */
export function statementPeriod(text: string): { start: string; end: string } | null {
  const date = `(\\d{4}-\\d{1,2}-\\d{1,2}|\\d{1,2}[/.-]\\d{1,2}[/.-]\\d{2,4}|${MONTH_NAME}\\s+\\d{1,2},?\\s+\\d{4}|\\d{1,2}\\s+${MONTH_NAME}\\s+\\d{4})`;
  const re = new RegExp(`${date}\\s*(?:-|–|—|to|through|thru)\\s*${date}`, 'i');
  for (const line of text.split(/\r?\n/)) {
    const m = re.exec(line);
    if (!m) continue;
    const parts = m.slice(1).filter((p): p is string => p !== undefined && /\d/.test(p));
    if (parts.length < 2) continue;
    const start = dateWithYear(parts[0]!.trim());
    const end = dateWithYear(parts[parts.length - 1]!.trim());
    if (start && end && start <= end) return { start, end };
  }
  return null;
}

/** The date a transaction line starts with, and the rest of the line. */
function leadingDate(line: string, yearOf: (month: number) => number): { date: string; rest: string } | null {
  const withYear = /^(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})(?![\d.,]))\s+(.*)$/.exec(line);
  if (withYear) {
    const date = dateWithYear(withYear[1]!);
    return date ? { date, rest: withYear[2]! } : null;
  }
  const short = /^(\d{1,2})[/-](\d{1,2})(?![\d/.,-])\s+(.*)$/.exec(line);
  if (short) {
    const month = Number(short[1]);
    const date = validDay(yearOf(month), month, Number(short[2]));
    return date ? { date, rest: short[3]! } : null;
  }
  const named = new RegExp(`^${MONTH_NAME}\\s+(\\d{1,2})(?:,?\\s+(\\d{4}))?\\s+(.*)$`, 'i').exec(line);
  if (named) {
    const month = MONTHS[named[1]!.toLowerCase()]!;
    const date = validDay(named[3] ? Number(named[3]) : yearOf(month), month, Number(named[2]));
    return date ? { date, rest: named[4]! } : null;
  }
  const dayFirst = new RegExp(`^(\\d{1,2})\\s+${MONTH_NAME}(?:\\s+(\\d{4}))?\\s+(.*)$`, 'i').exec(line);
  if (dayFirst) {
    const month = MONTHS[dayFirst[2]!.toLowerCase()]!;
    const date = validDay(dayFirst[3] ? Number(dayFirst[3]) : yearOf(month), month, Number(dayFirst[1]));
    return date ? { date, rest: dayFirst[4]! } : null;
  }
  return null;
}

interface AmountToken {
  minor: number;
  /** -1 / +1 when written on the amount, else 0. */
  written: -1 | 0 | 1;
  index: number;
}

// "1,250.00", "$1,250.00", "(450.00)", "-89.99", "89.99-", "89.99 CR", "- 89.99"; O read for 0 inside the digits (OCR).
const AMOUNT = /(\(\s*)?([-+−]\s?)?\$?(?<![\d.,])((?:\d{1,3}(?:,\d{3})+|\d+)\.[\dO]{2})(?![\d])(\s*\))?(-(?!\d))?(\s?(?:CR|DR)\b)?/gi;

function amountsIn(rest: string): AmountToken[] {
  const out: AmountToken[] = [];
  for (const m of rest.matchAll(AMOUNT)) {
    const digits = m[3]!.replace(/O/gi, '0').replace(/,/g, '').replace('.', '');
    if (!/^\d+$/.test(digits)) continue;
    const negative = (m[1] !== undefined && m[4] !== undefined) || (m[2] !== undefined && m[2].trim() !== '+') || m[5] !== undefined || /DR/i.test(m[6] ?? '');
    const positive = /CR/i.test(m[6] ?? '') || m[2]?.trim() === '+';
    out.push({ minor: Number(digits), written: negative ? -1 : positive ? 1 : 0, index: m.index });
  }
  return out;
}

const SKIP = /\b(beginning|opening|ending|closing|previous|new|available|ledger|average|daily)\s+balance\b|\bbalance\s+(forward|brought|carried)\b|^\s*(total|subtotal)s?\b|\btotal\s+(deposits|withdrawals|credits|debits|fees)\b/i;
const MONEY_IN = /\b(deposit|credit|cr\b|interest\s+(paid|earned|credit)|refund|reversal|returned\s+item|incoming|transfer\s+from|received|payroll\s+credit|zelle\s+from|mobile\s+deposit|wire\s+in)\b/i;
const MONEY_OUT = /\b(withdrawal|debit|check\b|chk\b|cheque|purchase|payment|fee|charge|service\s+charge|transfer\s+to|wire\s+out|outgoing|atm|pos\b|bill\s*pay|ach\s+debit|overdraft|zelle\s+to)\b/i;

/** Reads a statement's text into its lines, in the order written, with the period when the text names one. */
export function parseStatementText(text: string, opts: StatementParseOptions): ParsedStatement {
  const period = statementPeriod(text);
  const endYear = Number((period?.end ?? opts.today).slice(0, 4));
  const endMonth = Number((period?.end ?? opts.today).slice(5, 7));
  // A statement from December to January: December's days are of the year before.
  const yearOf = (month: number) => (month > endMonth ? endYear - 1 : endYear);

  const lines: ParsedStatementLine[] = [];
  let balance: number | null = null;
  let last: ParsedStatementLine | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/[|]/g, ' ').replace(/\s+/g, ' ').trim();
    if (line === '') {
      last = null;
      continue;
    }
    const opening = SKIP.test(line) ? amountsIn(line) : [];
    if (SKIP.test(line)) {
      // A beginning balance seeds the running balance that tells the sign of the lines after it.
      if (/beginning|opening|previous|forward|brought/i.test(line) && opening.length > 0) {
        const b = opening[opening.length - 1]!;
        balance = b.written === -1 ? -b.minor : b.minor;
      }
      last = null;
      continue;
    }
    const dated = leadingDate(line, yearOf);
    const amounts = dated ? amountsIn(dated.rest) : [];
    if (!dated || amounts.length === 0) {
      // A wrapped description: words only, right under a transaction line.
      if (last && !dated && amountsIn(line).length === 0 && /[a-z]/i.test(line) && line.length <= 120) {
        last.description = `${last.description} ${line}`.slice(0, 300);
      } else last = null;
      continue;
    }
    const first = amounts[0]!;
    const description = dated.rest.slice(0, first.index).replace(/[\s$.:-]+$/, '').trim();
    if (!/[a-z]/i.test(description)) continue;
    // Two or more amounts: the last is the running balance (the amount is the first).
    const shownBalance = amounts.length >= 2 ? amounts[amounts.length - 1]! : null;
    const newBalance = shownBalance ? (shownBalance.written === -1 ? -shownBalance.minor : shownBalance.minor) : null;
    let amount: number;
    let sign: SignSource;
    if (first.written !== 0) {
      amount = first.written * first.minor;
      sign = 'written';
    } else if (balance !== null && newBalance !== null && Math.abs(newBalance - balance) === first.minor && first.minor !== 0) {
      amount = newBalance - balance;
      sign = 'balance';
    } else if (MONEY_IN.test(description) && !/\bdebit\b/i.test(description)) {
      amount = first.minor;
      sign = 'words';
    } else if (MONEY_OUT.test(description)) {
      amount = -first.minor;
      sign = 'words';
    } else {
      amount = -first.minor;
      sign = 'guess';
    }
    if (newBalance !== null) balance = newBalance;
    else if (balance !== null) balance += amount;
    if (amount === 0) continue;
    last = { date: dated.date, description: description.slice(0, 300), amount, sign };
    lines.push(last);
  }
  return { lines, period_start: period?.start ?? null, period_end: period?.end ?? null };
}

/** "12.34" / "-1,250.00" / "(450.00)" typed in the review → signed minor units, or null. */
export function parseSignedAmount(text: string): number | null {
  const t = text.trim().replace(/^\$/, '').replace(/\s/g, '');
  const m = /^(\()?([-+−])?\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(\))?$/.exec(t);
  if (!m || (m[1] === undefined) !== (m[5] === undefined)) return null;
  const minor = Number(m[3]!.replace(/,/g, '')) * 100 + Number((m[4] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(minor)) return null;
  const negative = m[1] !== undefined || m[2] === '-' || m[2] === '−';
  return negative ? -minor : minor;
}

/** Signed minor units as the review's text: "-89.99", "1250.00". */
export function signedAmountText(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${pad(abs % 100)}`;
}
