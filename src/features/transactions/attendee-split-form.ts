import {
  attendeeKey, customSplitProblem, splitEvenly, type AttendeeSplit, type AttendeeSplitBody, type SplitAttendeeInput,
} from '../../../schema/attendee-split.ts';
import { formatMoney } from '../../lib/format.ts';
import { formatAmountInput, parseAmountInput } from './money-input.ts';

/**
 * Issue 32: the drawer's attendee split, pure. The attendees as saved (one name or email a line)
 * become split rows: a person of the business (matched by email or full name) is internal, anyone
 * else external ("Bo Chen (Acme)" reads as name and company). Even: the schema's rule; custom: the
 * amounts typed, with the live "left to assign" line and the save enabled only on an exact sum.
 */
export type Person = { id: string; first_name: string; last_name: string; email: string };
export type SplitRow = { label: string; attendee: SplitAttendeeInput };
export type SplitMode = AttendeeSplit['mode'];

export function splitRows(attendees: readonly string[], people: readonly Person[]): SplitRow[] {
  const byKey = new Map<string, Person>();
  for (const p of people) {
    byKey.set(p.email.toLowerCase(), p);
    byKey.set(`${p.first_name} ${p.last_name}`.trim().toLowerCase(), p);
  }
  const rows: SplitRow[] = [];
  const seen = new Set<string>();
  for (const text of attendees) {
    const person = byKey.get(text.trim().toLowerCase());
    const company = /^(.+?)\s*\(([^()]+)\)$/.exec(text.trim());
    const attendee: SplitAttendeeInput = person
      ? { kind: 'internal', user_id: person.id }
      : company ? { kind: 'external', name: company[1]!, company: company[2]!.trim() } : { kind: 'external', name: text.trim() };
    const key = attendeeKey(attendee);
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push({ label: person ? `${person.first_name} ${person.last_name}`.trim() : text.trim(), attendee });
  }
  return rows;
}

/** The typed amounts a saved custom split starts from (by attendee), else blanks. */
export function initialAmounts(rows: readonly SplitRow[], saved: AttendeeSplit | null | undefined, currency: string): string[] {
  if (!saved || saved.mode !== 'custom') return rows.map(() => '');
  const byKey = new Map(saved.shares.map((s) => [attendeeKey(s), s.amount]));
  return rows.map((r) => formatAmountInput(byKey.get(attendeeKey(r.attendee)), currency));
}

export type LiveSplit = {
  /** Each row's share in minor units (null: not a valid amount yet). */
  shares: (number | null)[];
  /** What is left to assign (negative: assigned too much), in the amount's sign. */
  left: number;
  /** The line under the list: "$12.34 left to assign", "Fully assigned", "$1.00 more than the amount". */
  status: string;
  /** The PUT body when the split can be saved, else null. */
  body: AttendeeSplitBody | null;
  /** Why it cannot be saved (null when it can). */
  problem: string | null;
};

export function liveSplit(amount: number, currency: string, mode: SplitMode, rows: readonly SplitRow[], typed: readonly string[]): LiveSplit {
  if (rows.length === 0) return { shares: [], left: amount, status: 'Add attendees above, then save, to split the amount.', body: null, problem: 'No attendees' };
  if (mode === 'even') {
    const shares = splitEvenly(amount, rows.length);
    return { shares, left: 0, status: `Split evenly: ${formatMoney(shares[0]!, currency)} each${shares[0] !== shares.at(-1) ? ' (the extra cents go to the first attendees)' : ''}.`, body: { mode, attendees: rows.map((r) => r.attendee) }, problem: null };
  }
  const shares = typed.map((text) => {
    const parsed = parseAmountInput(text, currency, 'Amount');
    if (!parsed.ok) return null;
    const minor = parsed.minor ?? 0;
    // Typed as positive numbers; a refund's shares carry its sign.
    return amount < 0 ? -Math.abs(minor) : minor;
  });
  const assigned = shares.reduce<number>((a, s) => a + (s ?? 0), 0);
  const left = amount - assigned;
  const invalid = shares.findIndex((s) => s === null);
  const status = left === 0 ? 'Fully assigned.'
    : Math.abs(assigned) < Math.abs(amount) ? `${formatMoney(Math.abs(left), currency)} left to assign.`
      : `${formatMoney(Math.abs(left), currency)} more than the amount.`;
  const problem = invalid >= 0 ? `${rows[invalid]!.label}: enter a valid amount.` : customSplitProblem(amount, shares as number[]) && status;
  const body = problem ? null : { mode, attendees: rows.map((r, i) => ({ ...r.attendee, amount: shares[i]! })) };
  return { shares, left, status, body, problem };
}

/** Whether the saved split is what the drawer shows now (nothing to save). */
export function sameAsSaved(saved: AttendeeSplit | null | undefined, body: AttendeeSplitBody | null): boolean {
  if (!saved || !body || saved.mode !== body.mode || saved.shares.length !== body.attendees.length) return false;
  return body.attendees.every((a, i) => attendeeKey(a) === attendeeKey(saved.shares[i]!) && (body.mode === 'even' || a.amount === saved.shares[i]!.amount));
}

type Txn = { id: string; card_id: string; merchant_name: string; currency: string; amount: number; occurred_at: string; receipt_ids: readonly string[] };

/** A refund without receipts may take its purchase's: the mirror's query for the candidates (same card, merchant, currency; positive; with receipts). */
export const purchaseFilter = (refund: Txn) => ({
  card_ids: [refund.card_id], merchant: refund.merchant_name, currency: refund.currency, amount_min: 1, missing_receipt: false,
});

/** The original purchase a refund most likely returns: the newest candidate made before it (the server checks the pairing again). */
export function pickPurchase<T extends Txn>(refund: Txn, candidates: readonly T[]): T | null {
  if (refund.amount >= 0 || refund.receipt_ids.length > 0) return null;
  const fits = candidates.filter((c) => c.id !== refund.id && c.amount > 0 && c.card_id === refund.card_id && c.merchant_name === refund.merchant_name
    && c.currency === refund.currency && c.receipt_ids.length > 0 && c.occurred_at <= refund.occurred_at);
  return fits.sort((a, b) => (a.occurred_at < b.occurred_at ? 1 : a.occurred_at > b.occurred_at ? -1 : 0))[0] ?? null;
}
