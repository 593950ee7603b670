import { describe, expect, it } from 'vitest';
import { CARD_STATUSES, cardSchema, type Card, type CardStatus, type LimitInterval } from './entities/card.ts';
import type { TransactionState } from './entities/transaction.ts';
import {
  CARD_ACTIONS, CARD_MOVES, DECLINE_MESSAGES, authorizeBusiness, normalizeBlockedCategories, DECLINE_REASONS, INTENT_LIFTS, allocationEnded, authorize, authorizeAllocation,
  authorizeWithIntent, intentCovers, type AllocationWindow, type IntentWindow, canManageCard, checkCardAction, checkIssue, expiryFrom,
  intervalStart, issuedStatus, mayActOnCard, remainingLimit, spendByCard, spentInInterval, type CardAction, type CardActor, type DeclineReason,
} from './card-rules.ts';

const U = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function makeCard(o: Partial<Card> = {}): Card {
  return cardSchema.parse({
    id: U(100), user_id: U(1), display_name: 'Travel', last_four: '4242', is_physical: false, status: 'ACTIVE',
    limit: { amount: 10_000, currency: 'USD', interval: 'MONTHLY', per_transaction: null }, expires: '2029-01',
    created_at: '2026-01-01T00:00:00.000Z', business_id: U(900), change_seq: 1, updated_at: '2026-01-01T00:00:00.000Z', deleted: false,
    ...o,
  });
}

const actor = (o: Partial<CardActor> & Pick<CardActor, 'id'>): CardActor => ({ role: 'BUSINESS_USER', is_manager: false, user_permissions: [], team: [], ...o });

const ADMIN = actor({ id: U(10), role: 'BUSINESS_ADMIN', team: 'all' });
const OWNER = actor({ id: U(11), role: 'BUSINESS_OWNER', team: 'all' });
/** Manages U(1) and U(2); U(10)'s team excludes U(3). */
const MANAGER = actor({ id: U(20), is_manager: true, team: [U(20), U(1), U(2)] });
const BOOKKEEPER = actor({ id: U(30), role: 'BUSINESS_BOOKKEEPER', team: 'all' });
const HOLDER = actor({ id: U(1), team: [U(1)] });
const STRANGER = actor({ id: U(3), team: [U(3)] });

describe('the card status machine', () => {
  const EDGES: [CardStatus, CardStatus][] = [
    ['REQUESTED', 'ACTIVE'], ['REQUESTED', 'SHIPPED'], ['REQUESTED', 'TERMINATED'],
    ['SHIPPED', 'ACTIVE'], ['SHIPPED', 'TERMINATED'],
    ['ACTIVE', 'LOCKED'], ['ACTIVE', 'SUSPENDED'], ['ACTIVE', 'TERMINATED'],
    ['LOCKED', 'ACTIVE'], ['LOCKED', 'SUSPENDED'], ['LOCKED', 'TERMINATED'],
    ['SUSPENDED', 'ACTIVE'], ['SUSPENDED', 'TERMINATED'],
  ];

  it('has exactly the listed moves; TERMINATED is final', () => {
    const moves = CARD_STATUSES.flatMap((from) => CARD_MOVES[from].map((to) => [from, to]));
    expect(moves.sort()).toEqual([...EDGES].sort());
    expect(CARD_MOVES.TERMINATED).toEqual([]);
  });

  it('starts each action only from its statuses', () => {
    const FROM: Record<CardAction, CardStatus[]> = {
      issue: ['REQUESTED'],
      activate: ['SHIPPED'],
      lock: ['ACTIVE'],
      unlock: ['LOCKED'],
      suspend: ['ACTIVE', 'LOCKED'],
      unsuspend: ['SUSPENDED'],
      terminate: ['REQUESTED', 'SHIPPED', 'ACTIVE', 'LOCKED', 'SUSPENDED'],
      reissue: ['SHIPPED', 'ACTIVE', 'LOCKED'],
      edit: ['REQUESTED', 'SHIPPED', 'ACTIVE', 'LOCKED', 'SUSPENDED'],
    };
    expect(Object.keys(CARD_ACTIONS).sort()).toEqual(Object.keys(FROM).sort());
    for (const action of Object.keys(FROM) as CardAction[]) {
      expect(CARD_STATUSES.filter((s) => checkCardAction(action, s).ok), action).toEqual(FROM[action]);
    }
  });

  it('moves each action along an edge of the machine', () => {
    for (const [name, action] of Object.entries(CARD_ACTIONS)) {
      if (action.to === null) continue;
      for (const from of action.from) expect(CARD_MOVES[from], `${name} from ${from}`).toContain(action.to);
    }
  });

  it('names the card’s status when it refuses', () => {
    for (const action of Object.keys(CARD_ACTIONS) as CardAction[]) {
      for (const status of CARD_STATUSES) {
        const check = checkCardAction(action, status);
        if (!check.ok) expect(check.message, `${action} from ${status}`).toContain(`(status ${status})`);
      }
    }
    expect(checkCardAction('lock', 'SUSPENDED')).toEqual({
      ok: false, message: 'This card is suspended (status SUSPENDED) and cannot be locked (only an active card is).',
    });
    expect(checkCardAction('activate', 'ACTIVE')).toEqual({
      ok: false, message: 'This card is active (status ACTIVE) and cannot be activated (only a shipped physical card is).',
    });
    expect(checkCardAction('terminate', 'TERMINATED')).toMatchObject({ ok: false, message: expect.stringContaining('terminated (status TERMINATED)') });
  });

  it('issues a virtual card ACTIVE and a physical one SHIPPED', () => {
    expect(issuedStatus(false)).toBe('ACTIVE');
    expect(issuedStatus(true)).toBe('SHIPPED');
  });
});

describe('who may issue a card', () => {
  it.each([
    ['an admin, to anyone', ADMIN, U(3), true],
    ['an owner, to anyone', OWNER, U(3), true],
    ['a manager, within their team', MANAGER, U(2), true],
    ['a manager, outside their team', MANAGER, U(3), false],
    ['a manager, to themselves', MANAGER, MANAGER.id, false],
    ['an admin, to themselves', ADMIN, ADMIN.id, true],
    ['a bookkeeper', BOOKKEEPER, U(1), false],
    ['an employee, even to themselves', HOLDER, U(1), false],
  ] as const)('%s: %s', (_label, who, owner, ok) => {
    expect(checkIssue(who, owner).ok).toBe(ok);
  });

  it('says why it refuses', () => {
    expect(checkIssue(MANAGER, U(3))).toEqual({ ok: false, message: 'Managers can issue cards only to people on their team.' });
    expect(checkIssue(HOLDER, U(1))).toEqual({ ok: false, message: 'Only an admin or a manager can issue cards. Request a card instead.' });
    expect(checkIssue(MANAGER, MANAGER.id)).toEqual({ ok: false, message: 'You cannot issue a card to yourself. Request a card instead, or ask an admin.' });
  });
});

describe('who may act on a card', () => {
  const card = { user_id: U(1) };
  const ACTIONS = ['lock', 'unlock', 'reissue', 'activate', 'primary', 'favorite', 'suspend', 'unsuspend', 'terminate', 'edit', 'issue'] as const;
  // Who may run each action on U(1)'s card: the holder, the admin, the holder's manager, another
  // manager's report's card (out of team), a bookkeeper, a stranger.
  const MATRIX: Record<(typeof ACTIONS)[number], { holder: boolean; admin: boolean; manager: boolean; bookkeeper: boolean; stranger: boolean }> = {
    lock: { holder: true, admin: true, manager: true, bookkeeper: false, stranger: false },
    unlock: { holder: true, admin: true, manager: true, bookkeeper: false, stranger: false },
    reissue: { holder: true, admin: true, manager: true, bookkeeper: false, stranger: false },
    activate: { holder: true, admin: false, manager: false, bookkeeper: false, stranger: false },
    primary: { holder: true, admin: false, manager: false, bookkeeper: false, stranger: false },
    favorite: { holder: true, admin: false, manager: false, bookkeeper: false, stranger: false },
    suspend: { holder: false, admin: true, manager: false, bookkeeper: false, stranger: false },
    unsuspend: { holder: false, admin: true, manager: false, bookkeeper: false, stranger: false },
    terminate: { holder: false, admin: true, manager: true, bookkeeper: false, stranger: false },
    edit: { holder: false, admin: true, manager: true, bookkeeper: false, stranger: false },
    issue: { holder: false, admin: true, manager: true, bookkeeper: false, stranger: false },
  };
  const WHO = { holder: HOLDER, admin: ADMIN, manager: MANAGER, bookkeeper: BOOKKEEPER, stranger: STRANGER };

  it.each(ACTIONS)('%s', (action) => {
    for (const [who, a] of Object.entries(WHO) as [keyof typeof WHO, CardActor][]) {
      expect(mayActOnCard(action, a, card), `${who} ${action}`).toBe(MATRIX[action][who]);
    }
  });

  it('a manager does not manage their own card, nor one outside their team', () => {
    expect(canManageCard(MANAGER, { user_id: MANAGER.id })).toBe(false);
    expect(canManageCard(MANAGER, { user_id: U(3) })).toBe(false);
    expect(canManageCard(MANAGER, { user_id: U(2) })).toBe(true);
    // A manager who holds the card still acts on it as its holder.
    expect(mayActOnCard('lock', MANAGER, { user_id: MANAGER.id })).toBe(true);
    expect(mayActOnCard('edit', MANAGER, { user_id: MANAGER.id })).toBe(false);
    expect(canManageCard(OWNER, { user_id: OWNER.id })).toBe(true);
  });
});

describe('limit intervals', () => {
  const at = (iso: string) => new Date(iso);
  it.each([
    ['DAILY', '2026-03-11T23:59:59.999Z', '2026-03-11T00:00:00.000Z'],
    ['WEEKLY', '2026-03-11T12:00:00.000Z', '2026-03-09T00:00:00.000Z'], // a Wednesday → that Monday
    ['WEEKLY', '2026-03-09T00:00:00.000Z', '2026-03-09T00:00:00.000Z'], // a Monday is its own start
    ['WEEKLY', '2026-03-15T23:59:59.000Z', '2026-03-09T00:00:00.000Z'], // a Sunday ends the week
    ['WEEKLY', '2026-01-01T08:00:00.000Z', '2025-12-29T00:00:00.000Z'], // back across a year
    ['WEEKLY', '2026-03-01T10:00:00.000Z', '2026-02-23T00:00:00.000Z'], // back across a month
    ['MONTHLY', '2026-03-31T23:59:59.999Z', '2026-03-01T00:00:00.000Z'],
    ['MONTHLY', '2026-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    ['YEARLY', '2026-12-31T23:59:59.999Z', '2026-01-01T00:00:00.000Z'],
    ['YEARLY', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    ['TOTAL', '2026-06-15T12:00:00.000Z', '1970-01-01T00:00:00.000Z'],
  ] as [LimitInterval, string, string][])('%s at %s starts %s', (interval, now, start) => {
    expect(intervalStart(interval, at(now)).toISOString()).toBe(start);
  });
});

describe('spend in the current interval', () => {
  const NOW = new Date('2026-03-11T12:00:00.000Z');
  const CARD = U(100);
  const row = (o: Partial<{ card_id: string; amount: number; currency: string; state: TransactionState; occurred_at: string }> = {}) => ({
    card_id: CARD, amount: 1_000, currency: 'USD', state: 'CLEARED' as TransactionState, occurred_at: '2026-03-05T10:00:00.000Z', ...o,
  });
  const limit = { interval: 'MONTHLY', currency: 'USD' } as const;

  it('sums the card’s pending and cleared spend since the interval began, refunds netted', () => {
    expect(spentInInterval(CARD, limit, [row(), row({ state: 'PENDING', amount: 250 }), row({ amount: -300 })], NOW)).toBe(950);
    expect(spentInInterval(CARD, limit, [], NOW)).toBe(0);
  });

  it('leaves out other cards, other currencies, declined and reversed rows, and rows outside the interval', () => {
    const rows = [
      row(),
      row({ card_id: U(101), amount: 5_000 }),
      row({ currency: 'EUR', amount: 5_000 }),
      row({ state: 'DECLINED', amount: 5_000 }),
      row({ state: 'REVERSED', amount: 5_000 }),
      row({ occurred_at: '2026-02-28T23:59:59.999Z', amount: 5_000 }), // last month
      row({ occurred_at: '2026-03-11T12:00:00.001Z', amount: 5_000 }), // after now
      row({ occurred_at: '2026-03-01T00:00:00.000Z', amount: 7 }), // the interval's first moment counts
    ];
    expect(spentInInterval(CARD, limit, rows, NOW)).toBe(1_007);
  });

  it('counts many cards in one pass, each in its own interval and currency', () => {
    const other = U(101);
    const rows = [
      row(), row({ occurred_at: '2026-03-11T08:00:00.000Z', amount: 40 }),
      row({ card_id: other, currency: 'EUR', amount: 300, occurred_at: '2026-03-11T09:00:00.000Z' }),
      row({ card_id: other, currency: 'EUR', amount: 900 }), // before today: outside its DAILY interval
      row({ card_id: U(102), amount: 5_000 }), // a card not asked about
    ];
    const spent = spendByCard([{ id: CARD, limit }, { id: other, limit: { interval: 'DAILY', currency: 'EUR' } }], rows, NOW);
    expect([...spent]).toEqual([[CARD, 1_040], [other, 300]]);
  });

  it('follows the limit’s interval', () => {
    const rows = [row({ occurred_at: '2026-03-09T00:00:00.000Z', amount: 1 }), row({ occurred_at: '2026-03-08T23:59:59.999Z', amount: 10 })];
    expect(spentInInterval(CARD, { interval: 'WEEKLY', currency: 'USD' }, rows, NOW)).toBe(1);
    expect(spentInInterval(CARD, { interval: 'MONTHLY', currency: 'USD' }, rows, NOW)).toBe(11);
    expect(spentInInterval(CARD, { interval: 'DAILY', currency: 'USD' }, rows, NOW)).toBe(0);
  });

  it('leaves what remains of the limit, never below zero', () => {
    expect(remainingLimit({ amount: 10_000 }, 2_500)).toBe(7_500);
    expect(remainingLimit({ amount: 10_000 }, 12_000)).toBe(0);
  });
});

const ALLOCATION_CASES: [DeclineReason, Partial<AllocationWindow>, number][] = [
  ['SPEND_ALLOCATION_ENDED', { archived: true }, 0],
  ['SPEND_ALLOCATION_ENDED', { end_date: '2026-03-09' }, 0],
  ['SPEND_ALLOCATION_EXCEEDED', {}, 49_001],
];

describe('authorizeAllocation', () => {
  const budget = (over: Partial<AllocationWindow> = {}): AllocationWindow => ({
    limit: { amount: 50_000, currency: 'USD' }, end_date: null, archived: false, ...over,
  });
  const purchase = { amount: 1_000, currency: 'USD', merchant_category: 'Travel' };
  const today = '2026-03-10';

  it.each(ALLOCATION_CASES)('declines %s', (reason, over, spent) => {
    expect(authorizeAllocation(budget(over), purchase, spent, today)).toBe(reason);
  });

  it('approves up to what is left exactly, through the end date inclusive', () => {
    expect(authorizeAllocation(budget(), purchase, 49_000, today)).toBeNull();
    expect(authorizeAllocation(budget({ end_date: today }), purchase, 0, today)).toBeNull();
    expect(allocationEnded(budget({ end_date: today }), '2026-03-11')).toBe(true);
    // $500 with $120 spent: $400 would take it to $520; $380 fits exactly.
    expect(authorizeAllocation(budget(), { ...purchase, amount: 40_000 }, 12_000, today)).toBe('SPEND_ALLOCATION_EXCEEDED');
    expect(authorizeAllocation(budget(), { ...purchase, amount: 38_000 }, 12_000, today)).toBeNull();
    expect(authorizeAllocation(budget(), purchase, 0, today)).toBeNull();
    expect(authorizeAllocation(budget(), { ...purchase, currency: 'EUR' }, 0, today)).toBe('CURRENCY_NOT_SUPPORTED');
  });
});

describe('spend intents', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const purchase = { amount: 20_000, currency: 'USD', merchant_category: 'Software' };
  const intent = (over: Partial<IntentWindow> = {}): IntentWindow => ({
    status: 'ACTIVE', expires_at: '2026-03-17T12:00:00.000Z', merchant_category: 'Software', amount: { amount: 20_000, currency: 'USD' }, ...over,
  });

  it('covers an active, unexpired intent of the category for at least the amount', () => {
    expect(intentCovers(intent(), purchase, now)).toBe(true);
    expect(intentCovers(intent({ status: 'USED' }), purchase, now)).toBe(false);
    expect(intentCovers(intent({ expires_at: '2026-03-10T12:00:00.000Z' }), purchase, now)).toBe(false);
    expect(intentCovers(intent({ merchant_category: 'Travel' }), purchase, now)).toBe(false);
    expect(intentCovers(intent({ amount: { amount: 19_999, currency: 'USD' } }), purchase, now)).toBe(false);
    expect(intentCovers(intent({ amount: { amount: 20_000, currency: 'EUR' } }), purchase, now)).toBe(false);
  });

  it('lifts the category list and the per-purchase cap, never the status or the limit', () => {
    const card = makeCard({ allowed_categories: ['Travel'], limit: { amount: 30_000, currency: 'USD', interval: 'MONTHLY', per_transaction: 5_000 } });
    expect(authorize(card, purchase, 0)).toBe('MERCHANT_CATEGORY_BLOCKED');
    expect(INTENT_LIFTS).toContain('MERCHANT_CATEGORY_BLOCKED');
    expect(authorizeWithIntent(card, purchase, 0)).toBeNull();
    expect(authorizeWithIntent(card, purchase, 10_001)).toBe('SPENDING_LIMIT_EXCEEDED');
    expect(authorizeWithIntent({ ...card, status: 'LOCKED' }, purchase, 0)).toBe('CARD_LOCKED');
  });
});

describe('authorize', () => {
  const purchase = { amount: 1_000, currency: 'USD', merchant_category: 'Travel' };
  const CASES: [DeclineReason, Partial<Card>, Partial<typeof purchase>, number][] = [
    ['CARD_NOT_ACTIVE', { status: 'REQUESTED' }, {}, 0],
    ['CARD_NOT_ACTIVE', { status: 'SHIPPED' }, {}, 0],
    ['CARD_LOCKED', { status: 'LOCKED' }, {}, 0],
    ['CARD_SUSPENDED', { status: 'SUSPENDED' }, {}, 0],
    ['CARD_TERMINATED', { status: 'TERMINATED' }, {}, 0],
    ['CURRENCY_NOT_SUPPORTED', {}, { currency: 'EUR' }, 0],
    ['MERCHANT_CATEGORY_BLOCKED', { allowed_categories: ['Software'] }, {}, 0],
    ['PER_TRANSACTION_LIMIT_EXCEEDED', { limit: { amount: 10_000, currency: 'USD', interval: 'MONTHLY', per_transaction: 999 } }, {}, 0],
    ['SPENDING_LIMIT_EXCEEDED', {}, {}, 9_001],
  ];

  it.each(CASES)('declines %s', (reason, card, p, spent) => {
    expect(authorize(makeCard(card), { ...purchase, ...p }, spent)).toBe(reason);
  });

  it('covers every decline reason, each with a message', () => {
    const covered = new Set([...CASES.map(([r]) => r), ...ALLOCATION_CASES.map(([r]) => r)]);
    // Issue 29: the business rule's reason (tested below, `authorizeBusiness`).
    covered.add(authorizeBusiness({ blocked_merchant_categories: ['Bars'] }, { merchant_category: 'Bars' })!);
    expect([...covered].sort()).toEqual([...DECLINE_REASONS].sort());
    for (const r of DECLINE_REASONS) expect(DECLINE_MESSAGES[r]).toMatch(/\.$/);
  });

  it('approves up to the limit exactly; one more minor unit is declined', () => {
    const card = makeCard();
    expect(authorize(card, purchase, 9_000)).toBeNull();
    expect(authorize(card, { ...purchase, amount: 1_001 }, 9_000)).toBe('SPENDING_LIMIT_EXCEEDED');
    expect(authorize(card, purchase, 9_001)).toBe('SPENDING_LIMIT_EXCEEDED');
  });

  it('approves a purchase of exactly the per-purchase cap, at an allowed category', () => {
    const card = makeCard({ limit: { amount: 10_000, currency: 'USD', interval: 'MONTHLY', per_transaction: 1_000 }, allowed_categories: ['Travel'] });
    expect(authorize(card, purchase, 0)).toBeNull();
    expect(authorize(card, { ...purchase, amount: 1_001 }, 0)).toBe('PER_TRANSACTION_LIMIT_EXCEEDED');
  });

  it('a zero limit blocks all spending', () => {
    expect(authorize(makeCard({ limit: { amount: 0, currency: 'USD', interval: 'TOTAL', per_transaction: null } }), { ...purchase, amount: 1 }, 0)).toBe('SPENDING_LIMIT_EXCEEDED');
  });

  it('checks the card before the purchase', () => {
    expect(authorize(makeCard({ status: 'LOCKED' }), { ...purchase, currency: 'EUR' }, 1_000_000)).toBe('CARD_LOCKED');
  });
});

describe('expiry', () => {
  it('is three years after issue, as YYYY-MM (UTC)', () => {
    expect(expiryFrom(new Date('2026-03-11T12:00:00.000Z'))).toBe('2029-03');
    expect(expiryFrom(new Date('2026-12-31T23:59:59.999Z'))).toBe('2029-12');
    expect(expiryFrom(new Date('2027-01-01T00:00:00.000Z'))).toBe('2030-01');
  });
});

describe('business merchant restrictions (issue 29)', () => {
  it.each([
    [['Gambling'], 'Gambling', 'BUSINESS_MERCHANT_CATEGORY_BLOCKED'],
    [[' gambling '], 'GAMBLING', 'BUSINESS_MERCHANT_CATEGORY_BLOCKED'],
    [['Gambling'], 'Coffee', null],
    [[], 'Gambling', null],
  ] as const)('%j blocks %s → %s', (blocked, category, expected) => {
    expect(authorizeBusiness({ blocked_merchant_categories: blocked }, { merchant_category: category })).toBe(expected);
  });

  it('stores a list trimmed, without case-blind repeats, sorted', () => {
    expect(normalizeBlockedCategories([' Gambling', 'bars', 'GAMBLING', 'Bars '])).toEqual(['bars', 'Gambling']);
  });
});
