import { describe, expect, it } from 'vitest';
import { initialAmounts, liveSplit, pickPurchase, sameAsSaved, splitRows, type Person } from './attendee-split-form.ts';

const ANA = '00000000-0000-4000-8000-00000000000a';
const people: Person[] = [{ id: ANA, first_name: 'Ana', last_name: 'Ruiz', email: 'ana@acme.io' }];

describe('the drawer’s split rows', () => {
  it('matches people of the business by email or name; others are external, with a company in brackets; repeats dropped', () => {
    expect(splitRows(['ANA@acme.io', 'Bo Chen (Initech)', 'Cy', 'ana ruiz'], people)).toEqual([
      { label: 'Ana Ruiz', attendee: { kind: 'internal', user_id: ANA } },
      { label: 'Bo Chen (Initech)', attendee: { kind: 'external', name: 'Bo Chen', company: 'Initech' } },
      { label: 'Cy', attendee: { kind: 'external', name: 'Cy' } },
    ]);
  });
});

describe('the live split', () => {
  const rows = splitRows(['Ana Ruiz', 'Bo', 'Cy'], people);

  it('even: the schema’s rule, always saveable', () => {
    const s = liveSplit(1000, 'USD', 'even', rows, []);
    expect(s.shares).toEqual([334, 333, 333]);
    expect(s.status).toBe('Split evenly: $3.34 each (the extra cents go to the first attendees).');
    expect(s.body).toEqual({ mode: 'even', attendees: rows.map((r) => r.attendee) });
  });

  it('custom: says what is left to assign or over, and saves only an exact sum', () => {
    const partial = liveSplit(5000, 'USD', 'custom', rows, ['20', '17.66', '']);
    expect(partial.status).toBe('$12.34 left to assign.');
    expect(partial.body).toBeNull();
    const over = liveSplit(5000, 'USD', 'custom', rows, ['40', '20', '']);
    expect(over.status).toBe('$10.00 more than the amount.');
    expect(over.problem).toBe(over.status);
    const bad = liveSplit(5000, 'USD', 'custom', rows, ['4x', '', '']);
    expect(bad.problem).toBe('Ana Ruiz: enter a valid amount.');
    const exact = liveSplit(5000, 'USD', 'custom', rows, ['20', '17.66', '12.34']);
    expect(exact.status).toBe('Fully assigned.');
    expect(exact.body?.attendees.map((a) => a.amount)).toEqual([2000, 1766, 1234]);
  });

  it('a refund’s amounts are typed positive and carry its sign; a saved custom split refills the inputs', () => {
    const refund = liveSplit(-1000, 'USD', 'custom', rows.slice(0, 2), ['6', '4']);
    expect(refund.body?.attendees.map((a) => a.amount)).toEqual([-600, -400]);
    const saved = { mode: 'custom' as const, currency: 'USD', total: -1000, shares: [
      { kind: 'internal' as const, user_id: ANA, name: 'Ana Ruiz', amount: -600 }, { kind: 'external' as const, name: 'Bo', company: null, amount: -400 },
    ] };
    expect(initialAmounts(rows, saved, 'USD')).toEqual(['-6.00', '-4.00', '']);
    expect(sameAsSaved(saved, refund.body)).toBe(true);
    expect(sameAsSaved(saved, liveSplit(-1000, 'USD', 'even', rows.slice(0, 2), []).body)).toBe(false);
    expect(liveSplit(1000, 'USD', 'even', [], []).body).toBeNull();
  });
});

describe('the refund’s original purchase', () => {
  const base = { card_id: 'c', merchant_name: 'Uber', currency: 'USD', receipt_ids: ['r'] };
  const refund = { ...base, id: 'refund', amount: -500, occurred_at: '2026-11-20T00:00:00Z', receipt_ids: [] };
  it('is the newest positive one with receipts made before the refund, same card, merchant and currency', () => {
    const older = { ...base, id: 'older', amount: 500, occurred_at: '2026-11-01T00:00:00Z' };
    const newer = { ...base, id: 'newer', amount: 900, occurred_at: '2026-11-10T00:00:00Z' };
    const after = { ...base, id: 'after', amount: 500, occurred_at: '2026-11-25T00:00:00Z' };
    const otherCard = { ...base, id: 'other', card_id: 'd', amount: 500, occurred_at: '2026-11-15T00:00:00Z' };
    const bare = { ...base, id: 'bare', amount: 500, occurred_at: '2026-11-19T00:00:00Z', receipt_ids: [] };
    expect(pickPurchase(refund, [older, newer, after, otherCard, bare])?.id).toBe('newer');
    expect(pickPurchase({ ...refund, receipt_ids: ['x'] }, [older])).toBeNull();
    expect(pickPurchase({ ...refund, amount: 500 }, [older])).toBeNull();
  });
});
