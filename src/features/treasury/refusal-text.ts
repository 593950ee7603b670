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

/**
 * A refused transfer in the server's words with the figures it named (TREASURY_7004's available
 * amount, TREASURY_7006's new fee and date): "There is not enough money… Available: $120.00 USD."
 */
export function refusalText(error: { error_code?: string; message?: string; errors?: unknown }, currency: string): string {
  const base = errorText(error);
  const errors = error.errors && typeof error.errors === 'object' ? Object.entries(error.errors as Record<string, unknown>) : [];
  const figures = errors.map(([k, v]) => {
    const f = figure(v, currency);
    return f ? `${humanize(k)}: ${f}.` : null;
  }).filter((x): x is string => x !== null);
  return figures.length > 0 ? `${base} ${figures.join(' ')}` : base;
}
