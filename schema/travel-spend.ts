import type { Money, Trip } from './entities/trip.ts';
import type { Reimbursement } from './entities/reimbursement.ts';
import type { Transaction } from './entities/transaction.ts';
import { addDays } from './iso-date.ts';

/**
 * Issue 27, a trip's spend, pure: which of the traveller's card transactions and claims belong to
 * the trip (suggested for linking, with the reasons), and what the trip has cost so far, per
 * currency, against its budget. Server and client read the same rules.
 */

/** Days either side of the trip still suggested (a taxi to the airport the evening before). */
export const SUGGEST_MARGIN_DAYS = 1;

export type SpendTransaction = Pick<Transaction, 'id' | 'user_id' | 'merchant_name' | 'merchant_category' | 'amount' | 'currency' | 'occurred_at' | 'state'>;
export type SpendClaim = Pick<
  Reimbursement, 'id' | 'user_id' | 'type' | 'status' | 'merchant' | 'amount' | 'currency' | 'transaction_date' | 'location' | 'start_date' | 'end_date' | 'memo'
>;
export type SpendTrip = Pick<Trip, 'id' | 'user_id' | 'start_date' | 'end_date' | 'destination' | 'destination_name' | 'transaction_ids' | 'reimbursement_ids' | 'bookings'>;
/** Another trip's links: what is linked there is never suggested here; nor are its bookings' charges. */
export type LinkedElsewhere = Pick<Trip, 'id' | 'transaction_ids' | 'reimbursement_ids' | 'bookings'>;

/**
 * Every booking's charge and refund (a canceled booking's too) among `trips`. The server leaves
 * these out of any trip's linked spend (TRIP_SPEND_ITEMS_SQL in entities/trip.ts: a transaction
 * that is the transaction_id or refund_transaction_id of any booking in the business), since the
 * booking itself counts; the client reads them from every trip on the device to agree.
 */
export function bookingChargeIds(trips: readonly Pick<Trip, 'bookings'>[]): Set<string> {
  const ids = new Set<string>();
  for (const t of trips) {
    for (const b of t.bookings) {
      if (b.transaction_id !== null) ids.add(b.transaction_id);
      if (b.refund_transaction_id !== null) ids.add(b.refund_transaction_id);
    }
  }
  return ids;
}

export interface SpendSuggestion {
  kind: 'transaction' | 'claim';
  id: string;
  /** The day it happened (a per-diem claim's first day inside the trip). */
  date: string;
  /** Merchant, or the claim's description. */
  label: string;
  amount: number;
  currency: string;
  /** Higher first; 0–1. */
  score: number;
  /** Why it is suggested, in words ("During the trip", "Travel merchant", "Mentions Lisbon"). */
  reasons: string[];
}

export { addDays } from './iso-date.ts';

/** Merchant categories that are travel (card networks' words: airlines, lodging, ground transport). */
const TRAVEL_CATEGORY = /airline|air carrier|lodging|hotel|motel|taxi|limousine|rideshare|car rental|railroad|passenger rail|bus line|travel agenc|parking|toll/i;

function placeWords(trip: SpendTrip): string[] {
  const name = trip.destination_name.trim().toLowerCase();
  return [name, trip.destination.toLowerCase()].filter((w) => w.length >= 3);
}

function mentions(text: string | null | undefined, words: readonly string[]): boolean {
  if (!text) return false;
  const t = text.toLowerCase();
  return words.some((w) => new RegExp(`(^|[^a-z])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^a-z]|$)`).test(t));
}

/** Where a day falls against the trip: during it, the day before or after, or outside the margin. */
function dayReason(trip: SpendTrip, day: string): { score: number; reason: string } | null {
  if (day >= trip.start_date && day <= trip.end_date) return { score: 0.6, reason: 'During the trip' };
  if (day === addDays(trip.start_date, -SUGGEST_MARGIN_DAYS)) return { score: 0.4, reason: 'The day before the trip' };
  if (day === addDays(trip.end_date, SUGGEST_MARGIN_DAYS)) return { score: 0.4, reason: 'The day after the trip' };
  return null;
}

/** A claim's day for the trip: its date, or for a per diem the first of its days inside the window. */
function claimDay(trip: SpendTrip, c: SpendClaim): string {
  if (c.type !== 'PER_DIEM' || !c.start_date || !c.end_date) return c.transaction_date;
  const from = addDays(trip.start_date, -SUGGEST_MARGIN_DAYS);
  const to = addDays(trip.end_date, SUGGEST_MARGIN_DAYS);
  if (c.end_date < from || c.start_date > to) return c.transaction_date;
  return c.start_date < from ? from : c.start_date;
}

/** A claim in a few words: its merchant, "Per diem · Lisbon" or "Mileage". */
export function claimLabel(c: Pick<SpendClaim, 'type' | 'merchant' | 'location'>): string {
  if (c.type === 'PER_DIEM') return `Per diem${c.location ? ` · ${c.location}` : ''}`;
  if (c.type === 'MILEAGE') return 'Mileage';
  return c.merchant ?? 'Out-of-pocket claim';
}

/**
 * The owner's card transactions (pending or cleared) and live claims dated within the trip (±1
 * day) that are linked neither to this trip nor to another one and are no booking's charge or
 * refund, ranked: during the trip first,
 * then a travel merchant, then a mention of the destination; ties by date, then id. Pure.
 */
export function suggestTripSpend(
  trip: SpendTrip,
  transactions: readonly SpendTransaction[],
  claims: readonly SpendClaim[],
  otherTrips: readonly LinkedElsewhere[] = [],
): SpendSuggestion[] {
  // A booking's charge or refund stays with its booking's trip (the server refuses it: TRAVEL_7009).
  const linkedTx = new Set([...trip.transaction_ids, ...bookingChargeIds([trip, ...otherTrips])]);
  const linkedClaims = new Set(trip.reimbursement_ids);
  for (const other of otherTrips) {
    if (other.id === trip.id) continue;
    other.transaction_ids.forEach((id) => linkedTx.add(id));
    other.reimbursement_ids.forEach((id) => linkedClaims.add(id));
  }
  const words = placeWords(trip);
  const out: SpendSuggestion[] = [];
  for (const t of transactions) {
    if (t.user_id !== trip.user_id || linkedTx.has(t.id) || (t.state !== 'PENDING' && t.state !== 'CLEARED')) continue;
    const date = t.occurred_at.slice(0, 10);
    const day = dayReason(trip, date);
    if (!day) continue;
    const reasons = [day.reason];
    let score = day.score;
    if (TRAVEL_CATEGORY.test(t.merchant_category)) {
      score += 0.25;
      reasons.push('Travel merchant');
    }
    if (mentions(t.merchant_name, words)) {
      score += 0.15;
      reasons.push(`Mentions ${trip.destination_name}`);
    }
    out.push({ kind: 'transaction', id: t.id, date, label: t.merchant_name, amount: t.amount, currency: t.currency, score: Math.min(1, score), reasons });
  }
  for (const c of claims) {
    if (c.user_id !== trip.user_id || linkedClaims.has(c.id) || c.status === 'CANCELED') continue;
    const date = claimDay(trip, c);
    const day = dayReason(trip, date);
    if (!day) continue;
    const reasons = [day.reason];
    let score = day.score;
    if (c.type === 'PER_DIEM' || c.type === 'MILEAGE') {
      score += 0.2;
      reasons.push(c.type === 'PER_DIEM' ? 'Per diem' : 'Mileage');
    }
    if (mentions(c.location, words) || mentions(c.merchant, words) || mentions(c.memo, words)) {
      score += 0.15;
      reasons.push(`Mentions ${trip.destination_name}`);
    }
    out.push({ kind: 'claim', id: c.id, date, label: claimLabel(c), amount: c.amount, currency: c.currency, score: Math.min(1, score), reasons });
  }
  return out.sort((a, b) => b.score - a.score || (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export interface TripSpendSummary {
  /** One entry per currency, the budget's (else the trip total's) first. */
  totals: Money[];
  /** The spend in the budget's currency against the budget; null without a budget. */
  budget: { budget: Money; spent: number; remaining: number; over: boolean; percent: number } | null;
  counts: { bookings: number; transactions: number; claims: number };
  /** "2 bookings, 3 card transactions and 1 claim" — what the total includes. */
  includes: string;
  /**
   * Whether every linked row was on this device: the totals are summed here (links made offline
   * count at once); otherwise they are the server's (`trip.totals`).
   */
  local: boolean;
}

function plural(n: number, one: string, many: string): string | null {
  return n === 0 ? null : `${n} ${n === 1 ? one : many}`;
}

function listWords(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? 'nothing yet';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * The trip's spend for its header: BOOKED bookings + linked transactions (not declined or
 * reversed, and no booking's charge or refund — this trip's or, from `otherTrips`, any other
 * trip's on the device) + linked claims (not canceled), per currency, from the rows on this
 * device; when a linked row is not here, the server's totals. Pure.
 */
export function tripSpendSummary(
  trip: Pick<Trip, 'bookings' | 'transaction_ids' | 'reimbursement_ids' | 'budget' | 'total' | 'totals'>,
  rows: { transactions: readonly Pick<SpendTransaction, 'id' | 'amount' | 'currency' | 'state'>[]; claims: readonly Pick<SpendClaim, 'id' | 'amount' | 'currency' | 'status'>[] },
  otherTrips: readonly Pick<Trip, 'bookings'>[] = [],
): TripSpendSummary {
  const booked = trip.bookings.filter((b) => b.status === 'BOOKED');
  // Every booking's charge and refund (a canceled one's too, another trip's too), as the server's total leaves them out.
  const charged = bookingChargeIds([trip, ...otherTrips]);
  const txById = new Map(rows.transactions.map((t) => [t.id, t]));
  const claimById = new Map(rows.claims.map((c) => [c.id, c]));
  const local = trip.transaction_ids.every((id) => txById.has(id)) && trip.reimbursement_ids.every((id) => claimById.has(id));
  const sums = new Map<string, number>();
  const add = (currency: string, amount: number) => sums.set(currency, (sums.get(currency) ?? 0) + amount);
  const liveTx = trip.transaction_ids.flatMap((id) => {
    const t = txById.get(id);
    return t && (t.state === 'PENDING' || t.state === 'CLEARED') ? [t] : [];
  });
  const liveClaims = trip.reimbursement_ids.flatMap((id) => {
    const c = claimById.get(id);
    return c && c.status !== 'CANCELED' ? [c] : [];
  });
  if (local) {
    // A booking's charge is a linked transaction too: counted once, as the booking.
    booked.forEach((b) => add(b.price.currency, b.price.amount));
    liveTx.filter((t) => !charged.has(t.id)).forEach((t) => add(t.currency, t.amount));
    liveClaims.forEach((c) => add(c.currency, c.amount));
  } else {
    trip.totals.forEach((m) => add(m.currency, m.amount));
  }
  const first = trip.budget?.currency ?? trip.total.currency;
  const totals = [...sums].map(([currency, amount]) => ({ currency, amount }))
    .sort((a, b) => (a.currency === first ? -1 : b.currency === first ? 1 : a.currency < b.currency ? -1 : 1));
  const counts = {
    bookings: booked.length,
    transactions: local ? liveTx.filter((t) => !charged.has(t.id)).length : trip.transaction_ids.filter((id) => !charged.has(id)).length,
    claims: local ? liveClaims.length : trip.reimbursement_ids.length,
  };
  const includes = listWords([
    plural(counts.bookings, 'booking', 'bookings'),
    plural(counts.transactions, 'card transaction', 'card transactions'),
    plural(counts.claims, 'claim', 'claims'),
  ].filter((p): p is string => p !== null));
  let budget: TripSpendSummary['budget'] = null;
  if (trip.budget) {
    const spent = sums.get(trip.budget.currency) ?? 0;
    const remaining = trip.budget.amount - spent;
    budget = { budget: trip.budget, spent, remaining, over: remaining < 0, percent: trip.budget.amount > 0 ? Math.round((spent / trip.budget.amount) * 100) : 0 };
  }
  return { totals: totals.length > 0 ? totals : [{ currency: first, amount: 0 }], budget, counts, includes, local };
}
