import { errorText } from '../../lib/error-text.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';

const LABELS: Record<string, string> = {
  available: 'Available', fee: 'Fee', expected_settlement_date: 'Expected settlement', balance: 'Balance', amount: 'Amount',
};
const humanize = (key: string) => LABELS[key] ?? (key.charAt(0).toUpperCase() + key.slice(1)).replace(/[._]/g, ' ');

/** A figure the server named: money (`{amount, currency}` or minor units in the transfer's currency), a date, or its words. */
function figure(value: unknown, currency: string): string | null {
  if (typeof value === 'number') return `${formatMoney(value, currency)} ${currency}`;
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDay(value) : value;
  if (value && typeof value === 'object' && 'amount' in value && typeof (value as { amount: unknown }).amount === 'number') {
    const m = value as { amount: number; currency?: unknown };
    const c = typeof m.currency === 'string' ? m.currency : currency;
    return `${formatMoney(m.amount, c)} ${c}`;
  }
  return null;
}

/** The figure's words without case, spacing or a trailing stop, to see whether the message already says them. */
const bare = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').replace(/[.\s]+$/, '');

/**
 * A refused transfer in the server's words with the figures it named that its message does not
 * already say. TREASURY_7004's message names the account and what it holds ("Not enough funds in
 * Operating: 120.00 USD is available.") and `errors.amount` repeats "120.00 USD is available" for
 * the form's field: said once. TREASURY_7006's message names no figure, so its new fee and date
 * follow it: "The fee or settlement date changed… Fee: $7.00 USD. Expected settlement: Dec 2, 2026."
 */
export function refusalText(error: { error_code?: string; message?: string; errors?: unknown }, currency: string): string {
  const base = errorText(error);
  const said = bare(base);
  const errors = error.errors && typeof error.errors === 'object' ? Object.entries(error.errors as Record<string, unknown>) : [];
  const figures = errors.map(([k, v]) => {
    const f = figure(v, currency);
    if (!f || said.includes(bare(f)) || (typeof v === 'string' && said.includes(bare(v)))) return null;
    return `${humanize(k)}: ${f}.`;
  }).filter((x): x is string => x !== null);
  return [base, ...new Set(figures)].join(' ');
}
