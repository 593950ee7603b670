import { MAX_STATEMENT_LINES, statementLineSchema, type BankStatement } from '../../../schema/api/calls-banking.ts';
import type { WalletTransfer } from '../../../schema/entities/wallet-transfer.ts';
import type { StatementLinesBody } from '../../../workers/api.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';
import { parseSignedAmount, signedAmountText, type ParsedStatement, type SignSource } from './statement-lines.ts';

/**
 * A statement's lines as the person reviews them before they are sent (pure): the parser's
 * lines as editable text, checked into the PUT body (the contract's line schema), and what the
 * server's matches say per line.
 */

export interface DraftLine {
  key: string;
  date: string;
  description: string;
  /** Signed, as typed: "-89.99". */
  amount: string;
  /** The parser's sign source; null once the person typed the amount. */
  sign: SignSource | null;
}

export interface StatementDraft {
  lines: DraftLine[];
  period_start: string;
  period_end: string;
}

let seq = 0;
const nextKey = () => `line-${(seq += 1)}`;

export const emptyDraft = (): StatementDraft => ({ lines: [], period_start: '', period_end: '' });

export const blankLine = (date: string): DraftLine => ({ key: nextKey(), date, description: '', amount: '', sign: null });

export function draftOf(parsed: ParsedStatement): StatementDraft {
  return {
    lines: parsed.lines.map((l) => ({ key: nextKey(), date: l.date, description: l.description, amount: signedAmountText(l.amount), sign: l.sign })),
    period_start: parsed.period_start ?? '',
    period_end: parsed.period_end ?? '',
  };
}

export type LineErrors = Record<string, { date?: string; description?: string; amount?: string }>;

/** The PUT body, or the lines' errors by key (and the period's). */
export function linesBody(draft: StatementDraft): { ok: true; body: StatementLinesBody } | { ok: false; errors: LineErrors; period?: string; message: string } {
  const errors: LineErrors = {};
  const lines: StatementLinesBody['lines'] = [];
  for (const l of draft.lines) {
    const e: LineErrors[string] = {};
    const amount = parseSignedAmount(l.amount);
    if (amount === null) e.amount = 'Enter an amount like -89.99 (money out) or 1250.00 (money in).';
    else if (amount === 0) e.amount = 'A line moves money: it cannot be 0.';
    const parsed = statementLineSchema.safeParse({ date: l.date, description: l.description, amount: amount ?? 0 });
    if (!parsed.success) {
      for (const i of parsed.error.issues) {
        if (i.path[0] === 'date' && !e.date) e.date = 'Pick the day of the line.';
        if (i.path[0] === 'description' && !e.description) e.description = l.description.trim() === '' ? 'Describe the line.' : 'Keep it under 300 characters.';
      }
    }
    if (Object.keys(e).length > 0) errors[l.key] = e;
    else if (parsed.success) lines.push(parsed.data);
  }
  let period: string | undefined;
  if (draft.period_start && draft.period_end && draft.period_start > draft.period_end) period = 'The period ends before it starts.';
  const bad = Object.keys(errors).length;
  if (bad > 0 || period || draft.lines.length > MAX_STATEMENT_LINES) {
    const message = draft.lines.length > MAX_STATEMENT_LINES
      ? `A statement holds at most ${MAX_STATEMENT_LINES} lines.`
      : bad > 0 ? `${bad === 1 ? '1 line needs' : `${bad} lines need`} fixing before the statement is sent.` : period!;
    return { ok: false, errors, ...(period ? { period } : {}), message };
  }
  return {
    ok: true,
    body: { period_start: draft.period_start || null, period_end: draft.period_end || null, lines },
  };
}

/** Money in and out of the draft's valid lines, for the review's summary. */
export function draftTotals(draft: StatementDraft): { moneyIn: number; moneyOut: number; guesses: number } {
  let moneyIn = 0;
  let moneyOut = 0;
  let guesses = 0;
  for (const l of draft.lines) {
    const a = parseSignedAmount(l.amount);
    if (a !== null) {
      if (a > 0) moneyIn += a;
      else moneyOut -= a;
    }
    if (l.sign === 'guess') guesses += 1;
  }
  return { moneyIn, moneyOut, guesses };
}

type MatchedLine = BankStatement['lines'][number];

/** What the server's match says of one line: which transfer, or that none matched. */
export function matchText(line: MatchedLine, transfers: readonly Pick<WalletTransfer, 'id' | 'from_name' | 'to_name' | 'amount' | 'currency' | 'created_at'>[]): { matched: boolean; text: string } {
  if (line.matched_transfer_id) {
    const t = transfers.find((x) => x.id === line.matched_transfer_id);
    return {
      matched: true,
      text: t
        ? `Matched: transfer ${t.from_name} → ${t.to_name}, ${formatMoney(t.amount, t.currency)} on ${formatDay(t.created_at)}`
        : 'Matched to a transfer',
    };
  }
  if (line.matched_entry_id) return { matched: true, text: 'Matched to a ledger entry of this account' };
  return { matched: false, text: 'Unmatched: no ledger entry of this amount within 3 days' };
}
