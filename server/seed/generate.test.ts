import { describe, expect, it } from 'vitest';
import { businessSchema } from '../../schema/entities/business.ts';
import { spentInInterval } from '../../schema/card-rules.ts';
import { cardSchema, type Card } from '../../schema/entities/card.ts';
import { departmentSchema } from '../../schema/entities/department.ts';
import { glAccountSchema } from '../../schema/entities/gl-account.ts';
import { locationSchema } from '../../schema/entities/location.ts';
import { spendUserSchema, userRowSchema } from '../../schema/entities/spend-user.ts';
import { trackingCategorySchema } from '../../schema/entities/tracking-category.ts';
import { transactionSchema } from '../../schema/entities/transaction.ts';
import { generateDemo, historyStart } from './generate.ts';
import type { DemoData } from './generate.ts';
import { SPEND_CATEGORIES } from './reference-data.ts';

const NOW = new Date('2026-11-21T00:00:00.000Z');
const small = generateDemo({ transactions: 2_000, now: NOW });
const large = generateDemo({ transactions: 20_000, now: NOW });

const userByEmail = (data: DemoData, local: string) => {
  const user = data.users.find((u) => u.email === `${local}@demo.test`);
  if (!user) throw new Error(`no ${local}@demo.test`);
  return user;
};

describe('generateDemo determinism', () => {
  it('gives byte-identical output for the same options', () => {
    const again = generateDemo({ transactions: 2_000, now: NOW });
    expect(JSON.stringify(again)).toBe(JSON.stringify(small));
  });

  it('changes with the seed, the day, the business and the domain', () => {
    const base = JSON.stringify(generateDemo({ transactions: 200, now: NOW }));
    for (const opts of [
      { seed: 7 },
      { now: new Date('2026-11-22T00:00:00.000Z') },
      { businessName: 'Other Co' },
      { emailDomain: 'other.test' },
    ]) {
      expect(JSON.stringify(generateDemo({ transactions: 200, now: NOW, ...opts }))).not.toBe(base);
    }
  });

  it('keeps people and reference ids whatever the number of transactions', () => {
    const other = generateDemo({ transactions: 10, now: NOW });
    expect(other.users).toEqual(small.users.map((u) => ({ ...u })));
    expect(other.glAccounts.map((g) => g.id)).toEqual(small.glAccounts.map((g) => g.id));
    expect(other.cards.map((c) => c.id)).toEqual(small.cards.map((c) => c.id));
  });

  it('gives another tenant entirely different ids', () => {
    const other = generateDemo({ transactions: 100, now: NOW, emailDomain: 'other.test' });
    const mine = new Set([small.business.id, ...small.users.map((u) => u.id), ...small.identities.map((i) => i.id)]);
    expect([other.business.id, ...other.users.map((u) => u.id)].some((id) => mine.has(id))).toBe(false);
  });

  it('rejects a negative or fractional count and an invalid date', () => {
    expect(() => generateDemo({ transactions: -1, now: NOW })).toThrow(RangeError);
    expect(() => generateDemo({ transactions: 1.5, now: NOW })).toThrow(RangeError);
    expect(() => generateDemo({ transactions: 1, now: new Date('nope') })).toThrow(RangeError);
  });
});

describe('generated rows', () => {
  it('all parse with the entity schemas', () => {
    businessSchema.parse(small.business);
    for (const d of small.departments) departmentSchema.parse(d);
    for (const l of small.locations) locationSchema.parse(l);
    for (const g of small.glAccounts) glAccountSchema.parse(g);
    for (const t of small.trackingCategories) trackingCategorySchema.parse(t);
    for (const u of small.users) {
      spendUserSchema.parse(u);
      userRowSchema.parse(u);
    }
    for (const c of small.cards) cardSchema.parse(c);
    for (const t of small.transactions) transactionSchema.parse(t);
  });

  it('has the expected counts and a unique change_seq 1..M on every mirrored row', () => {
    expect(small.transactions).toHaveLength(2_000);
    expect(small.users.length).toBeGreaterThanOrEqual(38);
    expect(small.users.length).toBeLessThanOrEqual(45);
    expect(small.identities).toHaveLength(small.users.length);
    const seqs = [
      ...small.departments, ...small.locations, ...small.glAccounts, ...small.trackingCategories,
      ...small.users, ...small.cards, ...small.transactions,
    ].map((r) => r.change_seq);
    expect(seqs.sort((a, b) => a - b)).toEqual(Array.from({ length: small.maxChangeSeq }, (_, i) => i + 1));
  });

  it('orders transactions by time, with change_seq following', () => {
    const outOfOrder = small.transactions.filter((cur, i) => {
      const prev = small.transactions[i - 1];
      return prev !== undefined && (prev.occurred_at > cur.occurred_at || prev.change_seq >= cur.change_seq);
    });
    expect(outOfOrder).toEqual([]);
  });

  it('places every transaction in the 18 months before now', () => {
    const start = historyStart(NOW).toISOString();
    expect(start).toBe('2025-05-21T00:00:00.000Z');
    const end = NOW.toISOString();
    const outside = large.transactions.filter(
      (t) => !(t.occurred_at >= start && t.occurred_at < end && t.updated_at >= t.occurred_at && t.updated_at < end),
    );
    expect(outside).toEqual([]);
  });

  it('uses UUID v4-shaped, unique ids', () => {
    const ids = [small.business.id, ...small.users.map((u) => u.id), ...small.cards.map((c) => c.id), ...small.transactions.map((t) => t.id)];
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(ids.filter((id) => !v4.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('references only rows that exist, and each card belongs to the transaction user', () => {
    const cards = new Map(large.cards.map((c) => [c.id, c]));
    const users = new Set(large.users.map((u) => u.id));
    const gl = new Set(large.glAccounts.map((g) => g.id));
    const options = new Map(large.trackingCategories.map((tc) => [tc.id, new Set(tc.options.map((o) => o.id))]));
    for (const c of large.cards) expect(users.has(c.user_id)).toBe(true);
    for (const u of large.users) if (u.manager_id) expect(users.has(u.manager_id)).toBe(true);
    const dangling = large.transactions.filter(
      (t) =>
        cards.get(t.card_id)?.user_id !== t.user_id ||
        (t.gl_account_id !== null && !gl.has(t.gl_account_id)) ||
        Object.entries(t.tracking).some(([category, option]) => !options.get(category)?.has(option)),
    );
    expect(dangling).toEqual([]);
  });
});

describe('demo accounts and people', () => {
  it('has the seven demo accounts with their roles', () => {
    expect(small.accounts.map((a) => [a.email, a.role, a.is_manager])).toEqual([
      ['owner@demo.test', 'BUSINESS_OWNER', true],
      ['admin@demo.test', 'BUSINESS_ADMIN', true],
      ['bookkeeper@demo.test', 'BUSINESS_BOOKKEEPER', false],
      ['apclerk@demo.test', 'BUSINESS_USER', false],
      ['manager@demo.test', 'BUSINESS_USER', true],
      ['employee@demo.test', 'BUSINESS_USER', false],
      ['auditor@demo.test', 'AUDITOR', false],
    ]);
  });

  it('puts the employee among several reports of the manager', () => {
    const manager = userByEmail(small, 'manager');
    const employee = userByEmail(small, 'employee');
    expect(employee.manager_id).toBe(manager.id);
    expect(small.users.filter((u) => u.manager_id === manager.id).length).toBeGreaterThanOrEqual(4);
  });

  it('builds one tree: a single root plus the auditor, every manager with reports', () => {
    const roots = small.users.filter((u) => u.manager_id === null).map((u) => u.role);
    expect(roots.sort()).toEqual(['AUDITOR', 'BUSINESS_OWNER']);
    for (const u of small.users) {
      const hasReports = small.users.some((r) => r.manager_id === u.id);
      expect(u.is_manager).toBe(hasReports);
    }
  });

  it('fills the §3 fields sensibly, with exactly one AP clerk', () => {
    for (const u of small.users) {
      expect(u).toMatchObject({ has_finished_onboarding: true, has_accepted_cardholder_agreement: true, status: 'ACTIVE' });
      expect(u.department_id).not.toBeNull();
      expect(u.location_id).not.toBeNull();
    }
    expect(small.users.filter((u) => u.user_permissions.includes('AP_ACCESS'))).toEqual([userByEmail(small, 'apclerk')]);
    expect(small.users.filter((u) => u.payroll_currency === 'USD').length).toBeGreaterThan(small.users.length * 0.8);
  });

  it('gives realistic, unique emails at the chosen domain', () => {
    const data = generateDemo({ transactions: 0, now: NOW, emailDomain: 'Acme.Example' });
    const emails = data.users.map((u) => u.email);
    expect(new Set(emails).size).toBe(emails.length);
    for (const e of emails) expect(e).toMatch(/^[a-z]+(\.[a-z]+)?\d*@acme\.example$/);
    expect(data.accounts[0]?.email).toBe('owner@acme.example');
  });

  it('issues one or two live cards to each cardholder, none to the auditor, with unique last fours', () => {
    const auditor = userByEmail(small, 'auditor');
    const spending = (c: Card) => c.status === 'ACTIVE' || c.status === 'LOCKED';
    for (const u of small.users) {
      const n = small.cards.filter((c) => c.user_id === u.id && spending(c)).length;
      if (u.id === auditor.id) expect(n).toBe(0);
      else expect([1, 2]).toContain(n);
      // One primary card per holder: the everyday one.
      expect(small.cards.filter((c) => c.user_id === u.id && c.is_primary).length).toBe(u.id === auditor.id ? 0 : 1);
    }
    expect(new Set(small.cards.map((c) => c.last_four)).size).toBe(small.cards.length);
  });

  it('locks a few cards, ships the manager a physical card, and retires one card for its successor', () => {
    const manager = userByEmail(small, 'manager');
    const byStatus = (s: Card['status']) => small.cards.filter((c) => c.status === s);
    expect(byStatus('LOCKED').length).toBeGreaterThanOrEqual(2);
    expect(byStatus('LOCKED').length).toBeLessThan(small.cards.length / 4);
    expect(byStatus('SHIPPED')).toEqual([expect.objectContaining({ user_id: manager.id, is_physical: true, is_primary: false })]);
    const [retired] = byStatus('TERMINATED');
    expect(byStatus('TERMINATED')).toHaveLength(1);
    const successor = small.cards.find((c) => c.id === retired!.replaced_by_id);
    expect(successor).toMatchObject({ replaces_id: retired!.id, user_id: retired!.user_id, status: 'ACTIVE' });
    // The renewed card is the AP clerk's everyday card, as before the AP clerk became a demo account.
    expect(successor).toMatchObject({ user_id: userByEmail(small, 'apclerk').id, is_primary: true });
    for (const c of small.cards) {
      const holder = small.users.find((u) => u.id === c.user_id)!;
      expect([c.department_id, c.location_id]).toEqual([holder.department_id, holder.location_id]);
    }
  });

  it('keeps this interval\'s spend under the limit of the cards that spend', () => {
    const spent = new Map<string, number>();
    for (const c of large.cards) spent.set(c.id, spentInInterval(c.id, c.limit, large.transactions, NOW));
    const under = large.cards.filter((c) => (spent.get(c.id) ?? 0) <= c.limit.amount).length;
    expect(under).toBe(large.cards.length);
    expect(large.cards.some((c) => (spent.get(c.id) ?? 0) > 0)).toBe(true);
  });

  it('gives the employee a few hundred of 20,000 transactions', () => {
    const employee = userByEmail(large, 'employee');
    const n = large.transactions.filter((t) => t.user_id === employee.id).length;
    expect(n).toBeGreaterThanOrEqual(200);
    expect(n).toBeLessThanOrEqual(800);
  });
});

describe('transaction realism', () => {
  const txns = large.transactions;
  const share = (pred: (t: (typeof txns)[number]) => boolean) => txns.filter(pred).length / txns.length;

  it('leaves about 35% uncoded and codes the rest from the cardholder', () => {
    expect(share((t) => t.gl_account_id === null)).toBeGreaterThan(0.3);
    expect(share((t) => t.gl_account_id === null)).toBeLessThan(0.4);
    const users = new Map(large.users.map((u) => [u.id, u]));
    const inconsistent = txns.filter(
      (t) =>
        t.gl_account_id !== null &&
        (t.department_id !== users.get(t.user_id)?.department_id || t.location_id !== users.get(t.user_id)?.location_id),
    );
    expect(inconsistent).toEqual([]);
  });

  it('codes each merchant category to its GL account (or the capitalisation account)', () => {
    const codeOf = new Map(large.glAccounts.map((g) => [g.id, g.code]));
    const expected = new Map(Object.values(SPEND_CATEGORIES).map((c) => [c.merchantCategory, c.glCode]));
    const miscoded = txns.filter((t) => {
      if (t.gl_account_id === null) return false;
      const code = codeOf.get(t.gl_account_id);
      return code !== expected.get(t.merchant_category) && code !== '1400' && code !== '1500';
    });
    expect(miscoded).toEqual([]);
  });

  it('has mostly cleared, recent pending, ~1% declined, some refunds and memos', () => {
    expect(share((t) => t.state === 'CLEARED')).toBeGreaterThan(0.95);
    expect(share((t) => t.state === 'DECLINED')).toBeGreaterThan(0.005);
    expect(share((t) => t.state === 'DECLINED')).toBeLessThan(0.02);
    const weekAgo = new Date(NOW.getTime() - 7 * 86_400_000).toISOString();
    expect(txns.filter((t) => t.state === 'PENDING' && t.occurred_at <= weekAgo)).toEqual([]);
    expect(share((t) => t.amount < 0)).toBeGreaterThan(0.003);
    expect(share((t) => t.amount < 0)).toBeLessThan(0.03);
    expect(share((t) => t.memo !== null)).toBeGreaterThan(0.03);
    expect(txns.every((t) => Number.isInteger(t.amount) && t.amount !== 0)).toBe(true);
  });

  it('pays London merchants in GBP and EUR, SaaS in USD, and US staff abroad only when travelling', () => {
    const london = new Set(large.users.filter((u) => u.payroll_currency === 'GBP').map((u) => u.id));
    expect(london.size).toBeGreaterThan(2);
    const travel = new Set(['Airlines', 'Lodging', 'Taxi & Rideshare', 'Restaurants', 'Gas Stations']);
    const saas = new Set(['Software', 'Cloud Computing', 'Advertising']);
    expect(txns.filter((t) => saas.has(t.merchant_category) && t.currency !== 'USD')).toEqual([]);
    expect(txns.filter((t) => !london.has(t.user_id) && t.currency !== 'USD' && !travel.has(t.merchant_category))).toEqual([]);
    const londonCurrencies = new Set(txns.filter((t) => london.has(t.user_id)).map((t) => t.currency));
    expect([...londonCurrencies].sort()).toEqual(['EUR', 'GBP', 'USD']);
  });

  it('draws amounts per category: coffee is cheap, flights are not', () => {
    const median = (merchant: string) => {
      const xs = txns.filter((t) => t.merchant_name === merchant && t.currency === 'USD' && t.amount > 0).map((t) => t.amount).sort((a, b) => a - b);
      return xs[Math.floor(xs.length / 2)] ?? 0;
    };
    expect(median('Starbucks')).toBeLessThan(2_000);
    expect(median('Delta Air Lines')).toBeGreaterThan(20_000);
    expect(median('Amazon Web Services')).toBeGreaterThan(median('Uber'));
  });
});
