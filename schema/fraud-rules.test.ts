import { describe, expect, it } from 'vitest';
import {
  assessCharge as assessWith, FRAUD_THRESHOLDS as T, heldChargeText, median, NOTHING_TAUGHT, profileOf, teach, usualAmount,
  type ChargeHistoryItem, type NewCharge, type TaughtProfile,
} from './fraud-rules.ts';

const NOW = Date.parse('2026-11-28T12:00:00.000Z');
const at = (minutesAgo: number) => new Date(NOW - minutesAgo * 60_000).toISOString();

/** `n` ordinary charges a day apart: coffee-sized, one category, GB. */
function history(n: number, o: Partial<ChargeHistoryItem> = {}): ChargeHistoryItem[] {
  return Array.from({ length: n }, (_, i) => ({
    merchant_name: `Shop ${i}`, merchant_category: 'Meals', merchant_country: 'GB', amount: 4_000 + i * 10, currency: 'GBP',
    occurred_at: at((i + 1) * 24 * 60), ...o,
  }));
}

const assessCharge = (c: NewCharge, h: ChargeHistoryItem[], taught: TaughtProfile = NOTHING_TAUGHT) => assessWith(c, profileOf(h, taught));

const charge = (o: Partial<NewCharge> = {}): NewCharge => ({
  merchant_name: 'Shop 1', merchant_category: 'Meals', merchant_country: 'GB', amount: 4_500, currency: 'GBP', occurred_at: at(0), ...o,
});

describe('fraud rules: an ordinary charge', () => {
  it('is not held', () => {
    expect(assessCharge(charge(), history(20))).toEqual({ flagged: false, reasons: [] });
  });
  it('a refund is never held', () => {
    expect(assessCharge(charge({ amount: -90_000, merchant_category: 'Casino' }), history(20)).flagged).toBe(false);
  });
});

describe('fraud rules: a category new for the card', () => {
  it('flags a category the card never used', () => {
    expect(assessCharge(charge({ merchant_category: 'Jewellery' }), history(20)).reasons).toEqual(['NEW_CATEGORY']);
  });
  it('compares categories without case or surrounding spaces', () => {
    expect(assessCharge(charge({ merchant_category: ' meals ' }), history(20)).flagged).toBe(false);
  });
  it('never flags a new card (fewer than minHistory charges)', () => {
    expect(assessCharge(charge({ merchant_category: 'Jewellery' }), history(T.minHistory - 1)).flagged).toBe(false);
    expect(assessCharge(charge({ merchant_category: 'Jewellery' }), history(T.minHistory)).flagged).toBe(true);
  });
  it('never flags a small amount', () => {
    expect(assessCharge(charge({ merchant_category: 'Jewellery', amount: T.noveltyFloor - 1 }), history(20)).flagged).toBe(false);
  });
});

describe('fraud rules: a country new for the card', () => {
  it('flags a country the card was never used in', () => {
    expect(assessCharge(charge({ merchant_country: 'BR' }), history(20)).reasons).toEqual(['NEW_COUNTRY']);
  });
  it('says nothing when the charge or the history names no country', () => {
    expect(assessCharge(charge({ merchant_country: null }), history(20)).flagged).toBe(false);
    expect(assessCharge(charge({ merchant_country: 'BR' }), history(20, { merchant_country: null })).flagged).toBe(false);
  });
});

describe('fraud rules: an amount far above usual', () => {
  it('is the median of the last charges in the currency', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2);
    expect(median([])).toBeNull();
    const h = [...history(10), ...history(10, { currency: 'USD', amount: 1_000_000 })];
    expect(usualAmount(h, 'GBP')).toBe(4_040);
    expect(usualAmount(history(T.minHistory - 1), 'GBP')).toBeNull();
  });
  it('only the newest historySize charges count', () => {
    const old = history(200, { amount: 100_000 }).map((h, i) => ({ ...h, occurred_at: at(100_000 + i) }));
    expect(usualAmount([...history(T.historySize), ...old], 'GBP')).toBeLessThan(10_000);
  });
  it('flags more than amountMultiple × the usual amount, above the floor', () => {
    const usual = usualAmount(history(20), 'GBP')!;
    expect(assessCharge(charge({ amount: usual * T.amountMultiple + 1 }), history(20)).reasons).toEqual(['AMOUNT_ABOVE_USUAL']);
    expect(assessCharge(charge({ amount: usual * T.amountMultiple }), history(20)).flagged).toBe(false);
  });
  it('never flags below the floor, however small the usual amount', () => {
    const tiny = history(20, { amount: 100 });
    expect(assessCharge(charge({ amount: T.amountFloor - 1 }), tiny).flagged).toBe(false);
    expect(assessCharge(charge({ amount: T.amountFloor }), tiny).reasons).toEqual(['AMOUNT_ABOVE_USUAL']);
  });
  it('never flags the first charges of a new card', () => {
    expect(assessCharge(charge({ amount: 5_000_000 }), history(T.minHistory - 1)).flagged).toBe(false);
  });
  it('compares with charges in the same currency only', () => {
    expect(assessCharge(charge({ amount: 500_000, currency: 'USD' }), history(20)).flagged).toBe(false);
  });
});

describe('fraud rules: rapid repeats', () => {
  const repeat = (minutesAgo: number): ChargeHistoryItem => ({ ...charge({ merchant_name: 'Kiosk' }), occurred_at: at(minutesAgo) });
  it(`flags the ${T.repeatCount}rd charge at one merchant within ${T.repeatWindowMinutes} minutes, even on a new card`, () => {
    expect(assessCharge(charge({ merchant_name: 'kiosk', amount: 100 }), [repeat(1), repeat(9)]).reasons).toEqual(['RAPID_REPEAT']);
  });
  it('does not count charges outside the window or at other merchants', () => {
    expect(assessCharge(charge({ merchant_name: 'Kiosk' }), [repeat(1), repeat(T.repeatWindowMinutes + 1)]).flagged).toBe(false);
    expect(assessCharge(charge({ merchant_name: 'Kiosk' }), [repeat(1), { ...repeat(2), merchant_name: 'Other' }]).flagged).toBe(false);
  });
});

describe('teaching: "Yes, it was me"', () => {
  it('makes the category and country known and the amount usual for the card', () => {
    const held = charge({ merchant_category: 'Jewellery', merchant_country: 'BR', amount: 81_240 });
    expect(assessCharge(held, history(20)).reasons).toEqual(['NEW_CATEGORY', 'NEW_COUNTRY', 'AMOUNT_ABOVE_USUAL']);
    const taught = teach(NOTHING_TAUGHT, held);
    expect(taught).toEqual({ categories: ['Jewellery'], countries: ['BR'], recognized_max: { GBP: 81_240 } });
    expect(assessCharge(held, history(20), taught).flagged).toBe(false);
    // A larger amount still stands out; a smaller one in the taught category does not.
    expect(assessCharge({ ...held, amount: 81_241 }, history(20), taught).reasons).toEqual(['AMOUNT_ABOVE_USUAL']);
    expect(assessCharge({ ...held, amount: 30_000 }, history(20), taught).flagged).toBe(false);
  });
  it('does not repeat what it already knows, and keeps the largest amount', () => {
    const once = teach(NOTHING_TAUGHT, charge({ merchant_category: 'Jewellery', amount: 90_000 }));
    const twice = teach(once, charge({ merchant_category: 'jewellery', merchant_country: null, amount: 50_000 }));
    expect(twice).toEqual({ categories: ['Jewellery'], countries: ['GB'], recognized_max: { GBP: 90_000 } });
  });
});

describe('heldChargeText', () => {
  it('names amount, merchant and day', () => {
    expect(heldChargeText({ amount: 81_240, currency: 'GBP', merchant_name: 'Grand Hotel', occurred_at: '2026-11-28T23:30:00.000Z' }))
      .toBe('£812.40 at Grand Hotel on 28 Nov 2026');
    expect(heldChargeText({ amount: 81_240, currency: 'USD', merchant_name: 'Maison Opale', occurred_at: '2026-11-28T00:00:00.000Z' }))
      .toBe('$812.40 at Maison Opale on 28 Nov 2026');
  });
});
