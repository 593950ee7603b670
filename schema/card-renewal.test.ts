import { describe, expect, it } from 'vitest';
import { renewalOf, reissueOf } from './card-renewal.ts';
import type { Card } from './entities/card.ts';

const card = (over: Partial<Card>) => ({ id: '00000000-0000-4000-8000-000000000001', is_physical: false, status: 'ACTIVE', expires: '2029-03', ...over }) as Card;
const now = new Date('2026-11-30T12:00:00Z');

describe('renewalOf', () => {
  it('a virtual card keeps its number and renews 30 days before the last day of its expiry month', () => {
    expect(renewalOf(card({ expires: '2029-03' }), now)).toEqual({
      card_id: card({}).id, kind: 'VIRTUAL', expires: '2029-03', valid_through: '2029-03-31', new_expiry: '2032-03',
      renews_on: '2029-03-01', arrives_by: null, number_changes: false, state: 'SCHEDULED',
    });
  });

  it('a physical card ships a new card 30 days before and arrives within a week, across the year edge', () => {
    const r = renewalOf(card({ is_physical: true, expires: '2027-01' }), now)!;
    expect(r).toMatchObject({ kind: 'PHYSICAL', valid_through: '2027-01-31', renews_on: '2027-01-01', arrives_by: '2027-01-08', new_expiry: '2030-01', number_changes: true });
    const dec = renewalOf(card({ is_physical: true, expires: '2026-12' }), now)!;
    expect(dec).toMatchObject({ valid_through: '2026-12-31', renews_on: '2026-12-01', arrives_by: '2026-12-08', new_expiry: '2029-12', state: 'SCHEDULED' });
  });

  it('month lengths and leap years: February ends on the 28th or 29th, and the window crosses into January', () => {
    expect(renewalOf(card({ expires: '2028-02' }), now)).toMatchObject({ valid_through: '2028-02-29', renews_on: '2028-01-30', new_expiry: '2031-02' });
    expect(renewalOf(card({ expires: '2027-02' }), now)).toMatchObject({ valid_through: '2027-02-28', renews_on: '2027-01-29' });
    expect(renewalOf(card({ expires: '2027-04' }), now)).toMatchObject({ valid_through: '2027-04-30', renews_on: '2027-03-31' });
  });

  it('its state follows the day: scheduled, in progress from the renewal day, expired after the last day', () => {
    const c = card({ expires: '2026-12' });
    expect(renewalOf(c, new Date('2026-11-30T23:59:59Z'))!.state).toBe('SCHEDULED');
    expect(renewalOf(c, new Date('2026-12-01T00:00:00Z'))!.state).toBe('IN_PROGRESS');
    expect(renewalOf(c, new Date('2026-12-31T23:59:59Z'))!.state).toBe('IN_PROGRESS');
    expect(renewalOf(c, new Date('2027-01-01T00:00:00Z'))!.state).toBe('EXPIRED');
  });

  it('a card with no expiry, not issued yet or terminated, has no renewal', () => {
    expect(renewalOf(card({ status: 'REQUESTED', expires: null }), now)).toBeNull();
    expect(renewalOf(card({ status: 'TERMINATED' }), now)).toBeNull();
  });
});

describe('reissueOf', () => {
  const old = card({});
  const next = (over: Partial<Card>) => card({ id: '00000000-0000-4000-8000-000000000002', created_at: '2026-12-29T10:00:00.000Z', ...over });
  it('a virtual replacement is active at once; a physical one ships and arrives within a week', () => {
    expect(reissueOf(old, next({}))).toMatchObject({ state: 'ACTIVE', arrives_by: null, requested_at: '2026-12-29T10:00:00.000Z' });
    expect(reissueOf(old, next({ is_physical: true, status: 'SHIPPED' }))).toMatchObject({ state: 'SHIPPING', arrives_by: '2027-01-05' });
    expect(reissueOf(old, next({ is_physical: true, status: 'ACTIVE' })).state).toBe('ACTIVE');
    expect(reissueOf(old, next({ status: 'TERMINATED' })).state).toBe('CLOSED');
  });
});
