import type { Card, CardStatus, LimitInterval, SpendingLimit } from './entities/card.ts';
import type { TransactionState } from './entities/transaction.ts';
import { isAdmin, isIssuingRestrictedToTeam, canIssueCards, type Actor } from './roles.ts';

/**
 * Card rules (issue 10), pure: the status machine, who may act on a card, the limit intervals
 * and the authorization decision. Server and worker share them.
 */

/**
 * REQUESTED → ACTIVE (a virtual card, as soon as it is issued) or REQUESTED → SHIPPED → ACTIVE
 * (a physical card: issued and shipped, activated by its cardholder with the last four);
 * ACTIVE ⇄ LOCKED; ACTIVE | LOCKED → SUSPENDED → ACTIVE (unsuspend); every status but
 * TERMINATED → TERMINATED (final). Reissue terminates the card and issues its successor.
 */
export const CARD_MOVES: Readonly<Record<CardStatus, readonly CardStatus[]>> = {
  REQUESTED: ['ACTIVE', 'SHIPPED', 'TERMINATED'],
  SHIPPED: ['ACTIVE', 'TERMINATED'],
  ACTIVE: ['LOCKED', 'SUSPENDED', 'TERMINATED'],
  LOCKED: ['ACTIVE', 'SUSPENDED', 'TERMINATED'],
  SUSPENDED: ['ACTIVE', 'TERMINATED'],
  TERMINATED: [],
};

const LABEL: Record<CardStatus, string> = {
  REQUESTED: 'requested', SHIPPED: 'shipped and not yet activated', ACTIVE: 'active', LOCKED: 'locked',
  SUSPENDED: 'suspended', TERMINATED: 'terminated',
};
export const cardStatusLabel = (s: CardStatus) => LABEL[s];

/** Each action's move: the statuses it starts from and its target (null: the action keeps the status). */
export const CARD_ACTIONS = {
  issue: { from: ['REQUESTED'], to: null, verb: 'issued' },
  activate: { from: ['SHIPPED'], to: 'ACTIVE', verb: 'activated (only a shipped physical card is)' },
  lock: { from: ['ACTIVE'], to: 'LOCKED', verb: 'locked (only an active card is)' },
  unlock: { from: ['LOCKED'], to: 'ACTIVE', verb: 'unlocked (only a locked card is)' },
  suspend: { from: ['ACTIVE', 'LOCKED'], to: 'SUSPENDED', verb: 'suspended (only an active or locked card is)' },
  unsuspend: { from: ['SUSPENDED'], to: 'ACTIVE', verb: 'unsuspended (only a suspended card is)' },
  terminate: { from: ['REQUESTED', 'SHIPPED', 'ACTIVE', 'LOCKED', 'SUSPENDED'], to: 'TERMINATED', verb: 'terminated' },
  reissue: { from: ['SHIPPED', 'ACTIVE', 'LOCKED'], to: 'TERMINATED', verb: 'reissued (only a shipped, active or locked card is)' },
  edit: { from: ['REQUESTED', 'SHIPPED', 'ACTIVE', 'LOCKED', 'SUSPENDED'], to: null, verb: 'changed' },
} as const satisfies Record<string, { from: readonly CardStatus[]; to: CardStatus | null; verb: string }>;
export type CardAction = keyof typeof CARD_ACTIONS;

export type CardCheck = { ok: true } | { ok: false; message: string };

/** Whether `action` may run on a card in status `from`; if not, a message naming the status. */
export function checkCardAction(action: CardAction, from: CardStatus): CardCheck {
  const a = CARD_ACTIONS[action];
  if ((a.from as readonly CardStatus[]).includes(from)) return { ok: true };
  return { ok: false, message: `This card is ${LABEL[from]} (status ${from}) and cannot be ${a.verb}.` };
}

/** The status after issuing: a virtual card is usable at once; a physical one ships first. */
export const issuedStatus = (isPhysical: boolean): CardStatus => (isPhysical ? 'SHIPPED' : 'ACTIVE');

// --- Who may act ---------------------------------------------------------------------------------

/** Who is acting and the users in their team (a manager's direct and indirect reports, themselves included). */
export type CardActor = Actor & { team: 'all' | readonly string[] };

const inTeam = (actor: CardActor, userId: string) => actor.team === 'all' || actor.team.includes(userId);

/**
 * §6 issuing: admins issue to anyone in the business; a non-admin manager (or AP clerk with
 * issuing rights) only within their team; anyone else not at all (they request a card instead).
 */
export function checkIssue(actor: CardActor, ownerId: string): CardCheck {
  if (!canIssueCards(actor)) return { ok: false, message: 'Only an admin or a manager can issue cards. Request a card instead.' };
  if (isIssuingRestrictedToTeam(actor) && !inTeam(actor, ownerId)) {
    return { ok: false, message: 'Managers can issue cards only to people on their team.' };
  }
  // Nobody but an admin sets their own spending power: a manager requests a card like anyone.
  if (!isAdmin(actor) && ownerId === actor.id) {
    return { ok: false, message: 'You cannot issue a card to yourself. Request a card instead, or ask an admin.' };
  }
  return { ok: true };
}

/** Admins manage every card; a manager their team's cards (not their own limits). */
export function canManageCard(actor: CardActor, card: Pick<Card, 'user_id'>): boolean {
  if (isAdmin(actor)) return true;
  return actor.is_manager && card.user_id !== actor.id && inTeam(actor, card.user_id);
}

/** Who may run `action` on `card` (the status is checked separately, by checkCardAction). */
export function mayActOnCard(action: CardAction | 'primary' | 'favorite', actor: CardActor, card: Pick<Card, 'user_id'>): boolean {
  const holder = card.user_id === actor.id;
  switch (action) {
    case 'lock':
    case 'unlock':
    case 'reissue':
      return holder || canManageCard(actor, card);
    case 'activate':
    case 'primary':
    case 'favorite':
      return holder;
    case 'suspend':
    case 'unsuspend':
      return isAdmin(actor);
    case 'terminate':
    case 'edit':
    case 'issue':
      return canManageCard(actor, card);
  }
}

// --- Limits --------------------------------------------------------------------------------------

/**
 * Where the current limit interval began, in UTC: the day, the ISO week (Monday), the month,
 * the year; TOTAL counts everything the card ever spent (from the epoch).
 */
export function intervalStart(interval: LimitInterval, now: Date): Date {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  switch (interval) {
    case 'DAILY':
      return new Date(Date.UTC(y, m, d));
    case 'WEEKLY': {
      const sinceMonday = (now.getUTCDay() + 6) % 7;
      return new Date(Date.UTC(y, m, d - sinceMonday));
    }
    case 'MONTHLY':
      return new Date(Date.UTC(y, m, 1));
    case 'YEARLY':
      return new Date(Date.UTC(y, 0, 1));
    case 'TOTAL':
      return new Date(0);
  }
}

/** Spend counts authorizations that hold or took money; declined and reversed ones do not. */
export const SPEND_STATES: readonly TransactionState[] = ['PENDING', 'CLEARED'];
const countsAsSpend = (state: TransactionState) => SPEND_STATES.includes(state);

type SpendRow = { card_id: string; amount: number; currency: string; state: TransactionState; occurred_at: string };

type SpendWindow = { id: string; limit: Pick<SpendingLimit, 'interval' | 'currency'> };

/**
 * What each card spent in its current interval, in its limit's currency (minor units), in one
 * pass over the rows: the sum of its spend since `intervalStart`, refunds netted. Rows in another
 * currency, of another card, or not spend (declined, reversed) are not counted.
 */
export function spendByCard(cards: readonly SpendWindow[], rows: Iterable<SpendRow>, now: Date): Map<string, number> {
  const to = now.getTime();
  const windows = new Map(cards.map((c) => [c.id, { currency: c.limit.currency, from: intervalStart(c.limit.interval, now).getTime(), spent: 0 }]));
  for (const r of rows) {
    const w = windows.get(r.card_id);
    if (!w || r.currency !== w.currency || !countsAsSpend(r.state)) continue;
    const t = Date.parse(r.occurred_at);
    if (t >= w.from && t <= to) w.spent += r.amount;
  }
  return new Map([...windows].map(([id, w]) => [id, w.spent]));
}

/** What one card spent in its current interval (`spendByCard` for one card). */
export function spentInInterval(cardId: string, limit: SpendWindow['limit'], rows: Iterable<SpendRow>, now: Date): number {
  return spendByCard([{ id: cardId, limit }], rows, now).get(cardId) ?? 0;
}

/** What is left of the limit this interval (never below zero). */
export const remainingLimit = (limit: Pick<SpendingLimit, 'amount'>, spent: number) => Math.max(0, limit.amount - spent);

// --- Authorization -------------------------------------------------------------------------------

export const DECLINE_REASONS = [
  'CARD_NOT_ACTIVE', 'CARD_LOCKED', 'CARD_SUSPENDED', 'CARD_TERMINATED', 'CURRENCY_NOT_SUPPORTED',
  'MERCHANT_CATEGORY_BLOCKED', 'PER_TRANSACTION_LIMIT_EXCEEDED', 'SPENDING_LIMIT_EXCEEDED',
  // Issue 28: a card drawing on a budget (spend allocation), by `authorizeAllocation`.
  'SPEND_ALLOCATION_EXCEEDED', 'SPEND_ALLOCATION_ENDED',
  // Issue 29: the business's merchant restrictions (every card), by `authorizeBusiness`.
  'BUSINESS_MERCHANT_CATEGORY_BLOCKED',
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

export const DECLINE_MESSAGES: Record<DeclineReason, string> = {
  CARD_NOT_ACTIVE: 'The card is not activated yet.',
  CARD_LOCKED: 'The card is locked.',
  CARD_SUSPENDED: 'The card is suspended.',
  CARD_TERMINATED: 'The card is terminated.',
  CURRENCY_NOT_SUPPORTED: 'The purchase is not in the card\'s currency.',
  MERCHANT_CATEGORY_BLOCKED: 'The card is not allowed at this kind of merchant.',
  PER_TRANSACTION_LIMIT_EXCEEDED: 'The purchase is over the card\'s per-purchase limit.',
  SPENDING_LIMIT_EXCEEDED: 'The purchase would go over the card\'s limit for this period.',
  SPEND_ALLOCATION_EXCEEDED: 'The purchase would go over the budget\'s limit for this period.',
  SPEND_ALLOCATION_ENDED: 'The card\'s budget has ended or was archived.',
  BUSINESS_MERCHANT_CATEGORY_BLOCKED: 'Blocked by the business\'s merchant restrictions: no card of the business can be used at this kind of merchant.',
};

export type Purchase = { amount: number; currency: string; merchant_category: string };

/**
 * The network's decision on an authorization: declined when the card is not ACTIVE, the
 * purchase is in another currency, at a category the card does not allow, over the
 * per-purchase cap, or would take the interval's spend (`spent`) over the limit.
 */
export function authorize(card: Pick<Card, 'status' | 'limit' | 'allowed_categories'>, purchase: Purchase, spent: number): DeclineReason | null {
  switch (card.status) {
    case 'ACTIVE':
      break;
    case 'LOCKED':
      return 'CARD_LOCKED';
    case 'SUSPENDED':
      return 'CARD_SUSPENDED';
    case 'TERMINATED':
      return 'CARD_TERMINATED';
    default:
      return 'CARD_NOT_ACTIVE';
  }
  if (purchase.currency !== card.limit.currency) return 'CURRENCY_NOT_SUPPORTED';
  if (card.allowed_categories.length > 0 && !card.allowed_categories.includes(purchase.merchant_category)) return 'MERCHANT_CATEGORY_BLOCKED';
  if (card.limit.per_transaction !== null && purchase.amount > card.limit.per_transaction) return 'PER_TRANSACTION_LIMIT_EXCEEDED';
  if (spent + purchase.amount > card.limit.amount) return 'SPENDING_LIMIT_EXCEEDED';
  return null;
}

// --- Business merchant restrictions (issue 29) -----------------------------------------------------

/** At most this many blocked categories per business. */
export const MAX_BLOCKED_MERCHANT_CATEGORIES = 100;

/**
 * The categories Settings offers to block (the seeded spend categories and the ones businesses
 * usually restrict); any other category can be typed.
 */
export const COMMON_MERCHANT_CATEGORIES: readonly string[] = [
  'Advertising', 'Airlines', 'Bars & Nightclubs', 'Cash Advances', 'Catering', 'Cloud Computing', 'Computers & Electronics',
  'Courier Services', 'Coworking', 'Education', 'Events & Conferences', 'Gambling', 'Gas Stations', 'Gifts', 'Jewellery',
  'Liquor Stores', 'Lodging', 'Memberships', 'Office Supplies', 'Professional Services', 'Recruiting', 'Restaurants',
  'Software', 'Taxi & Rideshare', 'Telecommunications',
];

/** Categories compare trimmed and case-blind ("Gambling" blocks "gambling "). */
const categoryKey = (c: string) => c.trim().toLowerCase();

/**
 * The business rule before any card's own: a purchase at a category the business blocks is
 * declined on every card (`BUSINESS_MERCHANT_CATEGORY_BLOCKED`, which names the business rule),
 * whatever the card allows; a spend intent does not lift it.
 */
export function authorizeBusiness(business: { blocked_merchant_categories: readonly string[] }, purchase: Pick<Purchase, 'merchant_category'>): DeclineReason | null {
  const key = categoryKey(purchase.merchant_category);
  return business.blocked_merchant_categories.some((c) => categoryKey(c) === key) ? 'BUSINESS_MERCHANT_CATEGORY_BLOCKED' : null;
}

/** A restriction list as stored: trimmed, without repeats (case-blind, first spelling kept), sorted. */
export function normalizeBlockedCategories(categories: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const c of categories) if (!seen.has(categoryKey(c))) seen.set(categoryKey(c), c.trim());
  return [...seen.values()].sort((a, b) => a.localeCompare(b));
}

// --- Budgets and spend intents (issue 28) --------------------------------------------------------

/** What the budget rule reads of a spend allocation (schema/entities/spend-allocation.ts). */
export type AllocationWindow = {
  limit: { amount: number; currency: string };
  /** Last day it can be spent from (ISO date, inclusive, UTC), or null. */
  end_date: string | null;
  archived: boolean;
};

/** An allocation is over once archived or after its end date (`today`: the UTC day, YYYY-MM-DD). */
export const allocationEnded = (a: Pick<AllocationWindow, 'end_date' | 'archived'>, today: string) =>
  a.archived || (a.end_date !== null && today > a.end_date);

/**
 * The budget's decision on an authorization the card itself approves: declined once the budget
 * ended (or was archived), in another currency than its limit, or when the purchase would take
 * what its cards spent this interval (`spent`, the limit's currency) past its limit.
 */
export function authorizeAllocation(allocation: AllocationWindow, purchase: Purchase, spent: number, today: string): DeclineReason | null {
  if (allocationEnded(allocation, today)) return 'SPEND_ALLOCATION_ENDED';
  if (purchase.currency !== allocation.limit.currency) return 'CURRENCY_NOT_SUPPORTED';
  if (spent + purchase.amount > allocation.limit.amount) return 'SPEND_ALLOCATION_EXCEEDED';
  return null;
}

/** What the intent rule reads of a spend intent (schema/api/calls-procurement.ts `spendIntentSchema`). */
export type IntentWindow = {
  status: string;
  expires_at: string;
  merchant_category: string;
  amount: { amount: number; currency: string };
};

/** The declines a spend intent lifts: the card's category list and its per-purchase cap, never a limit. */
export const INTENT_LIFTS: readonly DeclineReason[] = ['MERCHANT_CATEGORY_BLOCKED', 'PER_TRANSACTION_LIMIT_EXCEEDED'];

/** An ACTIVE, unexpired intent at the purchase's category, in its currency, for at least its amount. */
export function intentCovers(intent: IntentWindow, purchase: Purchase, now: Date): boolean {
  return intent.status === 'ACTIVE' && Date.parse(intent.expires_at) > now.getTime()
    && intent.merchant_category === purchase.merchant_category
    && intent.amount.currency === purchase.currency && purchase.amount <= intent.amount.amount;
}

/**
 * `authorize` with an intent that covers the purchase: the card's category list and per-purchase
 * cap do not apply to it; its status, currency and interval limit still do.
 */
export function authorizeWithIntent(card: Pick<Card, 'status' | 'limit' | 'allowed_categories'>, purchase: Purchase, spent: number): DeclineReason | null {
  return authorize({ ...card, allowed_categories: [], limit: { ...card.limit, per_transaction: null } }, purchase, spent);
}

/** A new card's expiry: three years after issue, as YYYY-MM. */
export function expiryFrom(issuedAt: Date): string {
  return `${issuedAt.getUTCFullYear() + 3}-${String(issuedAt.getUTCMonth() + 1).padStart(2, '0')}`;
}
