import { expiryFrom, spendByCard } from '../../schema/card-rules.ts';
import type { Card, LimitInterval, SpendingLimit } from '../../schema/entities/card.ts';
import type { Transaction } from '../../schema/entities/transaction.ts';
import type { Queryable } from '../db/db.ts';
import type { Rng } from './prng.ts';
import type { CardKind } from './roster.ts';
import type { DemoData } from './types.ts';

/**
 * Demo cards (issue 10): realistic limits per kind of card, the holder's coding defaults, one
 * primary card per holder (the everyday one), a few locked purpose cards, one physical card
 * shipped and awaiting activation, and one terminated card with its successor; and the demo
 * employee's pending card request with its approval. Deterministic (ids from the caller's PRNG).
 */

/** Limits as an admin would set them: everyday spend monthly, software by the year. */
const LIMITS: Record<CardKind, { amount: number; interval: LimitInterval; per_transaction: number | null }> = {
  everyday: { amount: 500_000, interval: 'MONTHLY', per_transaction: 250_000 },
  travel: { amount: 1_000_000, interval: 'MONTHLY', per_transaction: null },
  software: { amount: 5_000_000, interval: 'YEARLY', per_transaction: null },
  cloud: { amount: 2_500_000, interval: 'MONTHLY', per_transaction: null },
  marketing: { amount: 2_000_000, interval: 'MONTHLY', per_transaction: null },
  office: { amount: 300_000, interval: 'MONTHLY', per_transaction: 100_000 },
  events: { amount: 1_000_000, interval: 'MONTHLY', per_transaction: null },
  recruiting: { amount: 500_000, interval: 'WEEKLY', per_transaction: null },
};

function limitFor(kind: CardKind, currency: string): SpendingLimit {
  return { ...LIMITS[kind], currency: currency as SpendingLimit['currency'] };
}

/** Every this-many purpose cards, one is locked (its holder paused it). */
const LOCK_EVERY = 6;

export type CardHolderFacts = { id: string; department_id: string | null; location_id: string | null; payroll_currency: string | null };

/** A live demo card of `kind` for `holder`; `index` spreads the locked ones. */
export function demoCard(
  base: Pick<Card, 'id' | 'display_name' | 'last_four' | 'business_id' | 'change_seq' | 'updated_at'>,
  holder: CardHolderFacts, kind: CardKind, index: number,
): Card {
  const everyday = kind === 'everyday';
  return {
    ...base, user_id: holder.id, is_physical: everyday, status: !everyday && index % LOCK_EVERY === 1 ? 'LOCKED' : 'ACTIVE',
    limit: limitFor(kind, holder.payroll_currency ?? 'USD'), allowed_categories: [], department_id: holder.department_id,
    location_id: holder.location_id, expires: expiryFrom(new Date(base.updated_at)), is_primary: everyday, is_favorite: false,
    replaces_id: null, replaced_by_id: null, spend_request_id: null, spend_allocation_id: null, created_at: base.updated_at, deleted: false,
  };
}

/**
 * Cards nobody spends on: `retired` (TERMINATED, replaced by `successor`, which gets
 * `replaces_id`) and a physical card `shipped` to `holder`, awaiting activation.
 */
export function idleCards(rng: Rng, successor: Card, shippedTo: CardHolderFacts, lastFour: () => string, nextSeq: () => number): Card[] {
  const retired: Card = {
    ...successor, id: rng.uuid(), last_four: lastFour(), status: 'TERMINATED', is_primary: false, replaces_id: null,
    replaced_by_id: successor.id, change_seq: nextSeq(),
  };
  successor.replaces_id = retired.id;
  const shipped: Card = {
    ...demoCard({ ...successor, id: rng.uuid(), display_name: 'Travel card (plastic)', last_four: lastFour(), change_seq: nextSeq() }, shippedTo, 'travel', 0),
    is_physical: true, status: 'SHIPPED', is_primary: false,
  };
  return [retired, shipped];
}

/**
 * Raises a limit the generated history already spent most of this interval (as counted by
 * schema/card-rules.ts) to half again that spend, rounded up to 1,000.00: the demo's cards
 * stay usable. One pass over the transactions.
 */
export function fitLimits(cards: Card[], transactions: readonly Transaction[], now: Date): void {
  const spent = spendByCard(cards, transactions, now);
  for (const card of cards) {
    const s = spent.get(card.id) ?? 0;
    if (s <= card.limit.amount * 0.8) continue;
    card.limit = { ...card.limit, amount: Math.ceil((s * 1.5) / 100_000) * 100_000 };
  }
}

export interface DemoCardRequest {
  id: string; user_id: string; approval_id: string; approver_id: string | null; created_at: string; request_seq: number; approval_seq: number;
}

/** The demo employee asks for a travel card: PENDING, in their manager's approval inbox. */
export function demoCardRequest(data: DemoData, rng: Rng, now: Date, seq: number): { request: DemoCardRequest | null; maxChangeSeq: number } {
  const employee = data.accounts.find((a) => a.email.startsWith('employee@'));
  if (!employee) return { request: null, maxChangeSeq: seq };
  const managerId = data.users.find((u) => u.id === employee.user_id)?.manager_id ?? null;
  return {
    request: {
      id: rng.uuid(), user_id: employee.user_id, approval_id: rng.uuid(), approver_id: managerId,
      created_at: new Date(now.getTime() - 2 * 86_400_000).toISOString(), request_seq: seq + 1, approval_seq: seq + 2,
    },
    maxChangeSeq: seq + 2,
  };
}

export async function insertCardRequest(tx: Queryable, businessId: string, r: DemoCardRequest | null): Promise<void> {
  if (!r) return;
  await tx.query(
    `INSERT INTO card_requests (id, business_id, user_id, is_physical, amount, currency, limit_interval, reason, status,
       created_at, updated_at, change_seq)
     VALUES ($1, $2, $3, false, 300000, 'USD', 'MONTHLY', 'Flights and hotel for the Berlin customer workshop next month.',
       'PENDING', $4, $4, $5)`,
    [r.id, businessId, r.user_id, r.created_at, r.request_seq],
  );
  await tx.query(
    `INSERT INTO approvals (id, business_id, object_type, object_id, user_id, approver_id, status, created_at, updated_at, change_seq)
     VALUES ($1, $2, 'card_request', $3, $4, $5, 'PENDING', $6, $6, $7)`,
    [r.approval_id, businessId, r.id, r.user_id, r.approver_id, r.created_at, r.approval_seq],
  );
}
