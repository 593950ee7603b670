import { describe, expect, it } from 'vitest';
import { ADMIN, actor, card, DEEP_REPORT, MANAGER, OTHER, REPORT, USERS } from './test-fixtures.ts';
import {
  cardActor, cardOffers, chipText, expiryText, stopsWaiting, issuableUsers, limitBar, limitChangeSummary, limitText, lockChanges, spendFilter, spendIn, statusText, teamOf, walletOrder,
} from './card-view.ts';

describe('limitBar', () => {
  const monthly = { amount: 500_000, currency: 'USD', interval: 'MONTHLY' } as const;
  it.each([
    [monthly, 376_000, '$1,240.00 left of $5,000.00 this month', 75.2, 'ok', '$3,760.00 spent'],
    [monthly, 0, '$5,000.00 left of $5,000.00 this month', 0, 'ok', '$0.00 spent'],
    [monthly, 400_000, '$1,000.00 left of $5,000.00 this month', 80, 'warn', '$4,000.00 spent'],
    [monthly, 520_000, '$0.00 left of $5,000.00 this month', 100, 'danger', '$200.00 over the limit'],
    [monthly, -2_000, '$5,020.00 left of $5,000.00 this month', 0, 'ok', '$0.00 spent'],
    [{ ...monthly, interval: 'DAILY' }, 10_000, '$4,900.00 left of $5,000.00 today', 2, 'ok', '$100.00 spent'],
    [{ ...monthly, interval: 'WEEKLY' }, 0, '$5,000.00 left of $5,000.00 this week', 0, 'ok', '$0.00 spent'],
    [{ ...monthly, interval: 'YEARLY' }, 0, '$5,000.00 left of $5,000.00 this year', 0, 'ok', '$0.00 spent'],
    [{ ...monthly, interval: 'TOTAL' }, 0, '$5,000.00 left of $5,000.00 in total', 0, 'ok', '$0.00 spent'],
    [{ ...monthly, amount: 0 }, 0, '$0.00 left of $0.00 this month', 100, 'danger', '$0.00 spent'],
    [{ amount: 50_000, currency: 'JPY', interval: 'MONTHLY' }, 12_500, '¥37,500 left of ¥50,000 this month', 25, 'ok', '¥12,500 spent'],
  ] as const)('%j spent %d → %s', (limit, spent, text, percent, tone, detail) => {
    expect(limitBar(limit, spent)).toEqual({ text, percent, tone, detail });
  });

  it('words a limit for a table cell', () => {
    expect(limitText({ amount: 500_000, currency: 'USD', interval: 'MONTHLY' })).toBe('$5,000.00 / month');
    expect(limitText({ amount: 80_000, currency: 'EUR', interval: 'TOTAL' })).toBe('€800.00 total');
  });
});

describe('spendFilter', () => {
  // Wednesday 2026-11-18, 23:30 UTC.
  const now = new Date('2026-11-18T23:30:00Z');
  it.each([
    ['DAILY', '2026-11-18'],
    ['WEEKLY', '2026-11-16'],
    ['MONTHLY', '2026-11-01'],
    ['YEARLY', '2026-01-01'],
  ] as const)('%s counts spend from %s', (interval, from) => {
    const c = card({ limit: { amount: 1, currency: 'USD', interval, per_transaction: null } });
    expect(spendFilter(c, now)).toEqual({ card_ids: [c.id], states: ['PENDING', 'CLEARED'], from });
  });

  it('a total limit counts everything the card ever spent (no from)', () => {
    const c = card({ limit: { amount: 1, currency: 'USD', interval: 'TOTAL', per_transaction: null } });
    expect(spendFilter(c, now)).toEqual({ card_ids: [c.id], states: ['PENDING', 'CLEARED'] });
  });

  it('takes only the limit currency out of the totals', () => {
    const totals = { sums: [{ currency: 'EUR', amount: 9_999 }, { currency: 'USD', amount: 1_250 }] };
    expect(spendIn(totals, 'USD')).toBe(1_250);
    expect(spendIn(totals, 'GBP')).toBe(0);
  });
});

describe('status words', () => {
  it.each([
    ['ACTIVE', null, 'Active'],
    ['LOCKED', 'pending', 'Locked · waiting to sync'],
    ['LOCKED', 'sending', 'Locked · waiting to sync'],
    ['REQUESTED', 'pending', 'Requested · waiting to sync'],
    ['SHIPPED', null, 'Shipped and not yet activated'],
    ['ACTIVE', 'failed', 'Active'],
  ] as const)('%s with %s → %s', (status, pending, text) => {
    expect(chipText({ status, pending })).toBe(text);
  });

  it('capitalises the schema label and words the expiry', () => {
    expect(statusText('TERMINATED')).toBe('Terminated');
    expect(expiryText('2029-11')).toBe('Expires 11/2029');
    expect(expiryText(null)).toBeNull();
  });
});

describe('teamOf / cardActor', () => {
  it('walks direct and indirect reports, and survives a reporting cycle', () => {
    expect(teamOf(MANAGER, USERS).sort()).toEqual([MANAGER, REPORT, DEEP_REPORT].sort());
    expect(teamOf(OTHER, USERS)).toEqual([OTHER]);
    const cycle = [{ id: 'a', manager_id: 'b' }, { id: 'b', manager_id: 'a' }];
    expect(teamOf('a', cycle).sort()).toEqual(['a', 'b']);
  });

  it('admins act on everyone; others within their team', () => {
    expect(cardActor({ id: ADMIN, role: 'BUSINESS_ADMIN', is_manager: false, user_permissions: [] }, USERS).team).toBe('all');
    expect(cardActor({ id: MANAGER, role: 'BUSINESS_USER', is_manager: true, user_permissions: [] }, USERS).team).toContain(DEEP_REPORT);
  });

  it('offers the issue form only the people the viewer may issue to', () => {
    const admin = actor(ADMIN, 'BUSINESS_ADMIN', false, 'all');
    const manager = actor(MANAGER, 'BUSINESS_USER', true, [MANAGER, REPORT, DEEP_REPORT]);
    const employee = actor(OTHER, 'BUSINESS_USER', false, [OTHER]);
    const suspended = [...USERS.slice(0, 4), { ...USERS[4]!, status: 'SUSPENDED' as const }];
    expect(issuableUsers(admin, suspended).map((u) => u.id)).toEqual([ADMIN, MANAGER, REPORT, DEEP_REPORT]);
    // Never themselves: a manager requests their own card like anyone.
    expect(issuableUsers(manager, USERS).map((u) => u.id)).toEqual([REPORT, DEEP_REPORT]);
    expect(issuableUsers(employee, USERS)).toEqual([]);
  });
});

describe('cardOffers', () => {
  const admin = actor(ADMIN, 'BUSINESS_ADMIN', false, 'all');
  const manager = actor(MANAGER, 'BUSINESS_USER', true, [MANAGER, REPORT, DEEP_REPORT]);
  const holder = actor(REPORT, 'BUSINESS_USER', false, [REPORT]);
  const stranger = actor(OTHER, 'BUSINESS_USER', false, [OTHER]);

  it.each([
    ['holder, active', holder, {}, ['lock', 'reissue', 'primary', 'favorite']],
    ['holder, locked and primary', holder, { status: 'LOCKED', is_primary: true }, ['unlock', 'reissue', 'favorite']],
    ['holder, shipped physical', holder, { status: 'SHIPPED', is_physical: true }, ['activate', 'reissue', 'primary', 'favorite']],
    ['holder, requested', holder, { status: 'REQUESTED', last_four: null }, ['favorite']],
    ['holder, suspended and starred', holder, { status: 'SUSPENDED', is_favorite: true }, ['unfavorite']],
    ['holder, terminated', holder, { status: 'TERMINATED' }, []],
    ['admin, active', admin, {}, ['lock', 'reissue', 'suspend', 'edit', 'terminate']],
    ['admin, suspended', admin, { status: 'SUSPENDED' }, ['unsuspend', 'edit', 'terminate']],
    ['admin, requested', admin, { status: 'REQUESTED' }, ['edit', 'terminate']],
    ['manager, report locked', manager, { status: 'LOCKED' }, ['unlock', 'reissue', 'edit', 'terminate']],
    ['manager, own card', manager, { user_id: MANAGER }, ['lock', 'reissue', 'primary', 'favorite']],
    ['someone else', stranger, {}, []],
  ] as const)('%s', (_name, who, overrides, offers) => {
    expect(cardOffers(card(overrides), who)).toEqual(offers);
  });
});

describe('lockChanges', () => {
  it('counts each card once, waiting apart from refused, and ignores other commands and finished entries', () => {
    const entries = [
      { command: 'card.bulkLock', entity_ids: ['a', 'b', 'c'], state: 'pending' },
      { command: 'card.unlock', entity_ids: ['a'], state: 'sending' },
      { command: 'card.lock', entity_ids: ['d'], state: 'failed' },
      { command: 'card.bulkLock', entity_ids: ['e'], state: 'done' },
      { command: 'card.update', entity_ids: ['f'], state: 'pending' },
      { command: 'card.lock', entity_ids: ['g'], state: 'needs_step_up' },
    ];
    expect(lockChanges(entries)).toEqual({ waiting: 4, failed: 1 });
    expect(lockChanges([])).toEqual({ waiting: 0, failed: 0 });
  });
});

describe('walletOrder', () => {
  it('puts the primary card first, then starred ones, keeps the given order otherwise, and terminated cards last', () => {
    const cards = [
      card({ display_name: 'A', status: 'TERMINATED', is_primary: true }),
      card({ display_name: 'B' }),
      card({ display_name: 'C', is_favorite: true }),
      card({ display_name: 'D', is_primary: true }),
      card({ display_name: 'E', status: 'LOCKED' }),
    ];
    expect(walletOrder(cards).map((c) => c.display_name)).toEqual(['D', 'C', 'B', 'E', 'A']);
  });
});

describe('limitChangeSummary (issue 25: a limit change shows what it does before it is sent)', () => {
  const base = { amount: 500_000, currency: 'USD', interval: 'MONTHLY' as const, per_transaction: null };
  it('names only what changes, old → new, and says when it raises what the card can spend', () => {
    const up = limitChangeSummary(base, { ...base, amount: 800_000 });
    expect(up.lines).toEqual([{ label: 'Limit', from: '$5,000.00 / month', to: '$8,000.00 / month' }]);
    expect(up.raises).toBe(true);
    const capped = limitChangeSummary(base, { ...base, per_transaction: 100_000 });
    expect(capped.lines).toEqual([{ label: 'Per purchase', from: 'No cap', to: '$1,000.00' }]);
    expect(capped.raises).toBe(false);
  });
  it('a lower amount or another interval is not a raise', () => {
    expect(limitChangeSummary(base, { ...base, amount: 100_000 }).raises).toBe(false);
    const weekly = limitChangeSummary(base, { ...base, interval: 'WEEKLY' });
    expect(weekly.lines[0]).toEqual({ label: 'Limit', from: '$5,000.00 / month', to: '$5,000.00 / week' });
    expect(weekly.raises).toBe(false);
  });
});

describe('an offline stop says the card still works until it syncs (issue 25)', () => {
  const C = '00000000-0000-4000-8000-00000000c001';
  const D = '00000000-0000-4000-8000-00000000c002';
  const entry = (command: string, ids: string[], state = 'pending', args: unknown = {}) => ({ command, entity_ids: ids, state, args });
  it('names the cards a lock, bulk lock, suspend, terminate or reissue waits to send', () => {
    expect([...stopsWaiting([entry('card.lock', [C]), entry('card.bulkLock', [D], 'sending', { lock: true })])]).toEqual([C, D]);
    expect([...stopsWaiting([entry('card.reissue', [C]), entry('card.terminate', [D], 'needs_step_up')])]).toEqual([C, D]);
  });
  it('leaves out unlocks, other edits and stops already delivered or refused', () => {
    expect(stopsWaiting([
      entry('card.unlock', [C]), entry('card.bulkLock', [C], 'pending', { lock: false }), entry('card.update', [C]),
      entry('card.lock', [D], 'done'), entry('card.lock', [D], 'failed'),
    ]).size).toBe(0);
  });
  it('the chip: locked here, still works until it syncs; otherwise the usual words', () => {
    expect(chipText({ status: 'LOCKED', pending: 'pending' }, true)).toBe('Locked on this device · the card still works until this syncs');
    expect(chipText({ status: 'LOCKED', pending: 'pending' }, false)).toBe('Locked · waiting to sync');
    expect(chipText({ status: 'LOCKED', pending: null })).toBe('Locked');
  });
});
