import { describe, expect, it } from 'vitest';
import {
  attendeeSplitBodySchema, attendeeSplitSchema, computeAttendeeSplit, customSplitProblem, shareLabel, splitEvenly, splitIsStale,
} from './attendee-split.ts';

const ANA = '11111111-1111-4111-8111-111111111111';
const nameOf = (id: string) => (id === ANA ? 'Ana Ruiz' : 'Someone');
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('the even split rule', () => {
  it('gives the remainder one minor unit each to the first attendees, and always sums to the amount', () => {
    expect(splitEvenly(1000, 3)).toEqual([334, 333, 333]);
    expect(splitEvenly(1001, 3)).toEqual([334, 334, 333]);
    expect(splitEvenly(999, 3)).toEqual([333, 333, 333]);
    expect(splitEvenly(2, 5)).toEqual([1, 1, 0, 0, 0]);
    for (const [amount, n] of [[1234, 7], [1, 50], [99999, 13], [-1000, 3], [0, 4]] as const) {
      const shares = splitEvenly(amount, n);
      expect(shares).toHaveLength(n);
      expect(sum(shares)).toBe(amount);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    }
  });

  it('keeps a refund negative: every share carries the sign, the remainder too', () => {
    expect(splitEvenly(-1000, 3)).toEqual([-334, -333, -333]);
    expect(splitEvenly(0, 2)).toEqual([0, 0]);
    expect(Object.is(splitEvenly(-1, 2)[1], -0)).toBe(false);
  });
});

describe('custom amounts', () => {
  it('must sum exactly to the amount, each of its sign', () => {
    expect(customSplitProblem(1000, [600, 400])).toBeNull();
    expect(customSplitProblem(1000, [600, 399])).toMatch(/add up to 999, not the transaction's 1000/);
    expect(customSplitProblem(1000, [1100, -100])).toMatch(/zero or more/);
    expect(customSplitProblem(-500, [-500, 0])).toBeNull();
    expect(customSplitProblem(-500, [-600, 100])).toMatch(/zero or negative/);
  });
});

describe('computeAttendeeSplit', () => {
  it('stores the currency, the total it was made for, names for internal attendees and the company for external ones', () => {
    const body = attendeeSplitBodySchema.parse({
      mode: 'even', attendees: [{ kind: 'internal', user_id: ANA }, { kind: 'external', name: ' Bo Chen ', company: 'Acme' }, { kind: 'external', name: 'Cy' }],
    });
    const result = computeAttendeeSplit(1000, 'EUR', body, nameOf);
    if (!('split' in result)) throw new Error(result.problem);
    expect(attendeeSplitSchema.parse(result.split)).toEqual({
      mode: 'even', currency: 'EUR', total: 1000,
      shares: [
        { kind: 'internal', user_id: ANA, name: 'Ana Ruiz', amount: 334 },
        { kind: 'external', name: 'Bo Chen', company: 'Acme', amount: 333 },
        { kind: 'external', name: 'Cy', company: null, amount: 333 },
      ],
    });
    expect(result.split.shares.map(shareLabel)).toEqual(['Ana Ruiz', 'Bo Chen (Acme)', 'Cy']);
    expect(splitIsStale(result.split, { amount: 1000, currency: 'EUR' })).toBe(false);
    expect(splitIsStale(result.split, { amount: 1200, currency: 'EUR' })).toBe(true);
    expect(splitIsStale(result.split, { amount: 1000, currency: 'USD' })).toBe(true);
  });

  it('refuses custom amounts that do not sum, and applies ones that do', () => {
    const bad = attendeeSplitBodySchema.parse({ mode: 'custom', attendees: [{ kind: 'internal', user_id: ANA, amount: 700 }, { kind: 'external', name: 'Bo', amount: 200 }] });
    expect(computeAttendeeSplit(1000, 'USD', bad, nameOf)).toEqual({ problem: expect.stringMatching(/add up to 900/) });
    const good = attendeeSplitBodySchema.parse({ mode: 'custom', attendees: [{ kind: 'internal', user_id: ANA, amount: 700 }, { kind: 'external', name: 'Bo', amount: 300 }] });
    const result = computeAttendeeSplit(1000, 'USD', good, nameOf);
    expect('split' in result && result.split.shares.map((s) => s.amount)).toEqual([700, 300]);
  });
});

describe('the body', () => {
  it('wants amounts in a custom split only, and no attendee twice', () => {
    const custom = attendeeSplitBodySchema.safeParse({ mode: 'custom', attendees: [{ kind: 'external', name: 'Bo' }] });
    expect(custom.error?.issues[0]).toMatchObject({ path: ['attendees', 0, 'amount'], message: 'is required for a custom split' });
    const even = attendeeSplitBodySchema.safeParse({ mode: 'even', attendees: [{ kind: 'external', name: 'Bo', amount: 5 }] });
    expect(even.error?.issues[0]?.message).toBe('is not allowed in an even split');
    const twice = attendeeSplitBodySchema.safeParse({ mode: 'even', attendees: [{ kind: 'external', name: 'Bo' }, { kind: 'external', name: 'bo' }] });
    expect(twice.error?.issues[0]).toMatchObject({ path: ['attendees', 1], message: 'must not repeat an attendee' });
    expect(attendeeSplitBodySchema.safeParse({ mode: 'even', attendees: [] }).success).toBe(false);
    expect(attendeeSplitBodySchema.safeParse({ mode: 'even', attendees: [{ kind: 'internal', user_id: 'nope' }] }).success).toBe(false);
  });
});
