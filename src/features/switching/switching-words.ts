import type { SwitchingImport, SwitchingVendor } from '../../../schema/api/calls-switching.ts';
import { formatMoney } from '../../../schema/money.ts';
import type { SwitchingCadence } from '../../../schema/switching.ts';

const CADENCE: Record<SwitchingCadence, string> = {
  WEEKLY: 'Weekly', MONTHLY: 'Monthly', QUARTERLY: 'Quarterly', YEARLY: 'Yearly', IRREGULAR: 'Now and then',
};
const PER: Record<string, string> = { DAILY: 'a day', WEEKLY: 'a week', MONTHLY: 'a month', YEARLY: 'a year', TOTAL: 'in total' };

const monthYear = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "Monthly · 3 charges, Sep 2026 – Nov 2026". */
export function vendorRhythm(v: SwitchingVendor): string {
  const span = v.first_charged_on.slice(0, 7) === v.last_charged_on.slice(0, 7)
    ? monthYear(v.first_charged_on) : `${monthYear(v.first_charged_on)} – ${monthYear(v.last_charged_on)}`;
  return `${CADENCE[v.cadence]} · ${v.charges} charges, ${span}`;
}

/** "$50.00 a month". */
export const limitWords = (amount: number, currency: string, interval: string) => `${formatMoney(amount, currency)} ${PER[interval] ?? ''}`.trim();

/** What an upload found, in one sentence, with what it left out. */
export function importSummary(i: SwitchingImport): string {
  const parts = [`${i.charges} ${i.charges === 1 ? 'charge' : 'charges'} read from ${i.file_name}`];
  if (i.duplicates > 0) parts.push(`${i.duplicates} already known from an earlier statement`);
  if (i.credits > 0) parts.push(`${i.credits} ${i.credits === 1 ? 'payment or refund' : 'payments and refunds'} left out`);
  if (i.unreadable > 0) parts.push(`${i.unreadable} ${i.unreadable === 1 ? 'row' : 'rows'} could not be read`);
  return `${parts.join(', ')}.`;
}

/** Totals per currency of the vendors still to move: "$1,234.50 USD a statement period"; every currency said. */
export function waitingTotals(vendors: readonly SwitchingVendor[]): string[] {
  const by = new Map<string, number>();
  for (const v of vendors) if (!v.card) by.set(v.currency, (by.get(v.currency) ?? 0) + v.total);
  return [...by].sort(([a], [b]) => a.localeCompare(b)).map(([c, n]) => `${formatMoney(n, c)} ${c}`);
}
