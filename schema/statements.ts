import { z } from 'zod';

/**
 * Issue 32, §3 statements: a month's statement of the business (every card) or of one card, as a
 * PDF or a CSV, made by an async job (`statement`). Months are UTC calendar months; only a month
 * that has ended has a statement (the current or a future month → 404 BILLING_7003), and only one
 * with activity (cleared charges or card payments in it).
 */
export const STATEMENT_FORMATS = ['pdf', 'csv'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

/** `2026-10`. */
export const statementMonthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month (YYYY-MM)');

/** Which charges a statement counts, said on the statement itself. */
export const STATEMENT_INCLUDES = 'Cleared (settled) card charges and refunds dated in the month (UTC), and card payments settled in the month. Pending and declined charges are not included.';

export const statementRequestSchema = z.discriminatedUnion('scope', [
  z.object({ scope: z.literal('business'), month: statementMonthSchema, format: z.enum(STATEMENT_FORMATS) }),
  z.object({ scope: z.literal('card'), card_id: z.uuid(), month: statementMonthSchema, format: z.enum(STATEMENT_FORMATS) }),
]);
export type StatementRequest = z.infer<typeof statementRequestSchema>;

const currencyTotals = z.object({ currency: z.string(), charges: z.number().int(), transactions: z.number().int().nonnegative() });

export const statementOptionSchema = z.object({
  scope: z.enum(['business', 'card']),
  /** Null for the business statement. */
  card_id: z.uuid().nullable(),
  /** "Acme Inc." or "Jane Roe's card ·· 4242". */
  name: z.string(),
  cardholder: z.string().nullable(),
  last_four: z.string().nullable(),
  totals: z.array(currencyTotals),
});
export type StatementOption = z.infer<typeof statementOptionSchema>;

export const statementListSchema = z.object({
  month: statementMonthSchema,
  /** Ended months of the last year with activity the caller may see, newest first. */
  months: z.array(statementMonthSchema),
  /** What can be generated for `month`: the business (admins, bookkeepers) and each visible card with activity. */
  statements: z.array(statementOptionSchema),
  includes: z.string(),
});
export type StatementList = z.infer<typeof statementListSchema>;

/** `2026-10` → "October 2026". */
export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The month before the one `now` is in (UTC): the latest month with a statement. */
export function lastClosedMonth(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}
