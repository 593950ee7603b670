import { z } from 'zod';
import { currencyCodeSchema } from './money.ts';

/**
 * Issue 32 (§7 `PUT attendee-split`): a transaction's amount split across the people present, so
 * reporting can charge each person their part. An attendee is a person of the business (internal,
 * by user id; the server stores their name beside it) or someone outside it (external, by name and
 * optionally company). Amounts are integer minor units of the transaction's currency.
 *
 * The one rounding rule (`splitEvenly`): every attendee gets |amount| ÷ n rounded down; the
 * remainder r (< n minor units) goes one unit each to the first r attendees in the order listed;
 * every share carries the amount's sign (a refund's shares are negative). A custom split must sum
 * exactly to the amount, each share of the amount's sign or zero. The split keeps the currency and
 * the total it was made for, so a later amount change shows as stale instead of silently wrong.
 */
export const MAX_SPLIT_ATTENDEES = 50;

const personName = z.string().trim().min(1).max(200);
const internalAttendee = z.object({ kind: z.literal('internal'), user_id: z.uuid(), amount: z.number().int().optional() });
const externalAttendee = z.object({
  kind: z.literal('external'), name: personName, company: z.string().trim().max(200).nullable().optional(), amount: z.number().int().optional(),
});
export const splitAttendeeInputSchema = z.discriminatedUnion('kind', [internalAttendee, externalAttendee]);
export type SplitAttendeeInput = z.infer<typeof splitAttendeeInputSchema>;

/** Who an attendee is, for spotting the same person listed twice. */
export const attendeeKey = (a: { kind: 'internal'; user_id: string } | { kind: 'external'; name: string; company?: string | null }) =>
  a.kind === 'internal' ? `u:${a.user_id}` : `x:${a.name.toLowerCase()}|${(a.company ?? '').toLowerCase()}`;

/** The body of `PUT attendee-split`: `even` names the attendees only; `custom` gives each an amount. */
export const attendeeSplitBodySchema = z
  .object({
    mode: z.enum(['even', 'custom']),
    attendees: z.array(splitAttendeeInputSchema).min(1).max(MAX_SPLIT_ATTENDEES),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.attendees.forEach((a, i) => {
      const key = attendeeKey(a);
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['attendees', i], message: 'must not repeat an attendee' });
      seen.add(key);
      if (body.mode === 'custom' && a.amount === undefined) ctx.addIssue({ code: 'custom', path: ['attendees', i, 'amount'], message: 'is required for a custom split' });
      if (body.mode === 'even' && a.amount !== undefined) ctx.addIssue({ code: 'custom', path: ['attendees', i, 'amount'], message: 'is not allowed in an even split' });
    });
  });
export type AttendeeSplitBody = z.infer<typeof attendeeSplitBodySchema>;

const shareSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('internal'), user_id: z.uuid(), name: z.string(), amount: z.number().int() }),
  z.object({ kind: z.literal('external'), name: z.string(), company: z.string().nullable(), amount: z.number().int() }),
]);
export type AttendeeShare = z.infer<typeof shareSchema>;

/** The split as the transaction's doc carries it. */
export const attendeeSplitSchema = z.object({
  mode: z.enum(['even', 'custom']),
  currency: currencyCodeSchema,
  total: z.number().int(),
  shares: z.array(shareSchema).min(1).max(MAX_SPLIT_ATTENDEES),
});
export type AttendeeSplit = z.infer<typeof attendeeSplitSchema>;

/** `amount` in n shares by the rounding rule above (n ≥ 1). */
export function splitEvenly(amount: number, n: number): number[] {
  const sign = amount < 0 ? -1 : 1;
  const abs = Math.abs(amount);
  const base = Math.floor(abs / n);
  const remainder = abs - base * n;
  return Array.from({ length: n }, (_, i) => sign * (base + (i < remainder ? 1 : 0)) || 0);
}

/** Why custom amounts do not make a split of `amount`, or null when they do. */
export function customSplitProblem(amount: number, shares: readonly number[]): string | null {
  if (shares.some((s) => s * amount < 0 || (amount === 0 && s !== 0))) {
    return amount < 0 ? 'Each share of a refund must be zero or negative.' : 'Each share must be zero or more.';
  }
  const sum = shares.reduce((a, b) => a + b, 0);
  if (sum !== amount) return `The shares add up to ${sum}, not the transaction's ${amount} (minor units).`;
  return null;
}

/**
 * The split stored for a transaction of `amount` `currency`, or the refusal's message. `nameOf`
 * gives an internal attendee's name (the server reads it from the business's people).
 */
export function computeAttendeeSplit(
  amount: number, currency: string, body: AttendeeSplitBody, nameOf: (userId: string) => string,
): { split: AttendeeSplit } | { problem: string } {
  const amounts = body.mode === 'even' ? splitEvenly(amount, body.attendees.length) : body.attendees.map((a) => a.amount ?? 0);
  if (body.mode === 'custom') {
    const problem = customSplitProblem(amount, amounts);
    if (problem) return { problem };
  }
  const shares = body.attendees.map((a, i): AttendeeShare => a.kind === 'internal'
    ? { kind: 'internal', user_id: a.user_id, name: nameOf(a.user_id), amount: amounts[i]! }
    : { kind: 'external', name: a.name, company: a.company?.trim() || null, amount: amounts[i]! });
  return { split: { mode: body.mode, currency, total: amount, shares } };
}

/** A split made for another amount or currency than the transaction has now (it settled for a different amount). */
export const splitIsStale = (split: AttendeeSplit, txn: { amount: number; currency: string }) =>
  split.total !== txn.amount || split.currency !== txn.currency;

/** How an attendee reads in a list: "Ana Ruiz", "Bo Chen (Acme)". */
export const shareLabel = (s: AttendeeShare) => (s.kind === 'external' && s.company ? `${s.name} (${s.company})` : s.name);
