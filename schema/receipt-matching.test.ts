import { describe, expect, it } from 'vitest';
import { daysBetween, matchReceipt, matchWindow, merchantSimilarity, merchantTokens, type MatchCandidateInput } from './receipt-matching.ts';

const txn = (id: string, amount: number, day: string, merchant = 'Somewhere', currency = 'USD'): MatchCandidateInput => ({
  id, amount, currency, occurred_at: `${day}T15:30:00.000Z`, merchant_name: merchant,
});
const usd = (minor: number) => ({ minor, currency: 'USD' });
const ids = (r: ReturnType<typeof matchReceipt>) => r.candidates.map((c) => c.transaction_id);

describe('merchant similarity', () => {
  it('drops processor prefixes, store numbers and case', () => {
    expect(merchantTokens('SQ *BLUE BOTTLE COFFEE #123')).toEqual(['blue', 'bottle', 'coffee']);
    expect(merchantTokens('TST* Joe & The Juice 0042')).toEqual(['joe', 'juice']);
    expect(merchantSimilarity('SQ *BLUE BOTTLE COFFEE', 'Blue Bottle Coffee')).toBe(1);
  });
  it('is high for near names, low for others, 0 when a side is empty', () => {
    expect(merchantSimilarity('Blue Bottle', 'Blue Bottle Coffee')).toBeGreaterThanOrEqual(0.6);
    expect(merchantSimilarity('Starbucks', 'STARBUCKS STORE 0123')).toBe(1);
    expect(merchantSimilarity('Blue Bottle Coffee', 'Delta Air Lines')).toBeLessThan(0.3);
    expect(merchantSimilarity('', 'Delta')).toBe(0);
    expect(merchantSimilarity('#12', 'Delta')).toBe(0);
  });
});

describe('dates', () => {
  it('counts whole days either way and gives the ±3 day window', () => {
    expect(daysBetween('2026-11-20', '2026-11-23')).toBe(3);
    expect(daysBetween('2026-11-23', '2026-11-20')).toBe(3);
    expect(daysBetween('2026-02-28', '2026-03-01')).toBe(1);
    expect(matchWindow('2026-11-01')).toEqual({ from: '2026-10-29', to: '2026-11-04' });
  });
});

describe('matchReceipt', () => {
  it('needs an amount and a date', () => {
    const t = [txn('a', 625, '2026-11-20')];
    expect(matchReceipt({ date: '2026-11-20' }, t)).toEqual({ candidates: [], exact: false });
    expect(matchReceipt({ amount: usd(625) }, t)).toEqual({ candidates: [], exact: false });
  });

  it('one candidate, same amount and day: exact', () => {
    const r = matchReceipt({ amount: usd(625), date: '2026-11-20' }, [txn('a', 625, '2026-11-20'), txn('b', 626, '2026-11-20'), txn('c', 625, '2026-11-25')]);
    expect(ids(r)).toEqual(['a']);
    expect(r.exact).toBe(true);
    expect(r.candidates[0]).toMatchObject({ days: 0, score: 0.6, reasons: ['amount', 'same_day'] });
  });

  it('none: other amounts, another currency, outside the window', () => {
    const r = matchReceipt({ amount: usd(625), date: '2026-11-20' }, [
      txn('a', 624, '2026-11-20'), txn('b', 625, '2026-11-20', 'Somewhere', 'EUR'), txn('c', 625, '2026-11-24'), txn('d', 625, '2026-11-16'), txn('e', -625, '2026-11-20'),
    ]);
    expect(r).toEqual({ candidates: [], exact: false });
  });

  it('the ±3 day boundary is inside; closer ranks first', () => {
    const r = matchReceipt({ amount: usd(625), date: '2026-11-20' }, [txn('far', 625, '2026-11-23'), txn('near', 625, '2026-11-19'), txn('before', 625, '2026-11-17')]);
    expect(ids(r)).toEqual(['near', 'before', 'far']);
    expect(r.candidates.map((c) => c.days)).toEqual([1, 3, 3]);
    expect(r.exact).toBe(false);
  });

  it('a lone candidate a day off is suggested, never exact', () => {
    const r = matchReceipt({ amount: usd(625), date: '2026-11-20', merchant: 'Blue Bottle Coffee' }, [txn('a', 625, '2026-11-21', 'SQ *BLUE BOTTLE COFFEE')]);
    expect(ids(r)).toEqual(['a']);
    expect(r.candidates[0]!.reasons).toEqual(['amount', 'near_date', 'merchant']);
    expect(r.exact).toBe(false);
  });

  it('ambiguous: two same-day charges of that amount and no merchant to tell them apart', () => {
    const r = matchReceipt({ amount: usd(625), date: '2026-11-20' }, [txn('a', 625, '2026-11-20', 'Blue Bottle'), txn('b', 625, '2026-11-20', 'Delta')]);
    expect(r.candidates).toHaveLength(2);
    expect(r.exact).toBe(false);
  });

  it('a tie broken by the merchant, exact when it is similar', () => {
    const r = matchReceipt({ amount: usd(625), date: '2026-11-20', merchant: 'Blue Bottle Coffee' }, [
      txn('delta', 625, '2026-11-20', 'Delta Air Lines'), txn('bb', 625, '2026-11-20', 'SQ *BLUE BOTTLE COFFEE'),
    ]);
    expect(ids(r)).toEqual(['bb', 'delta']);
    expect(r.candidates[0]).toMatchObject({ merchant: 1, score: 1 });
    expect(r.exact).toBe(true);
  });

  it('the merchant outranks a day of distance; exact needs the same day', () => {
    const r = matchReceipt({ amount: usd(625), date: '2026-11-20', merchant: 'Blue Bottle' }, [
      txn('other', 625, '2026-11-20', 'Delta Air Lines'), txn('bb', 625, '2026-11-21', 'Blue Bottle Coffee'),
    ]);
    expect(ids(r)).toEqual(['bb', 'other']);
    expect(r.exact).toBe(false);
  });

  it('same day with a similar merchant stays exact beside the same merchant days later', () => {
    const r = matchReceipt({ amount: usd(625), date: '2026-11-20', merchant: 'Blue Bottle Coffee' }, [
      txn('mon', 625, '2026-11-20', 'Blue Bottle Coffee'), txn('tue', 625, '2026-11-21', 'Blue Bottle Coffee'),
    ]);
    expect(ids(r)).toEqual(['mon', 'tue']);
    expect(r.exact).toBe(true);
  });

  it('two same-day charges at the same merchant are not exact', () => {
    const r = matchReceipt({ amount: usd(625), date: '2026-11-20', merchant: 'Blue Bottle Coffee' }, [
      txn('a', 625, '2026-11-20', 'Blue Bottle Coffee'), txn('b', 625, '2026-11-20', 'SQ *BLUE BOTTLE'),
    ]);
    expect(r.candidates).toHaveLength(2);
    expect(r.exact).toBe(false);
  });

  it('compares minor units of the receipt currency only (JPY has none)', () => {
    const r = matchReceipt({ amount: { minor: 1200, currency: 'JPY' }, date: '2026-11-20' }, [txn('usd', 1200, '2026-11-20'), txn('jpy', 1200, '2026-11-20', 'Lawson', 'JPY')]);
    expect(ids(r)).toEqual(['jpy']);
    expect(r.exact).toBe(true);
  });

  it('takes the day of occurred_at in UTC', () => {
    const late: MatchCandidateInput = { id: 'late', amount: 625, currency: 'USD', occurred_at: '2026-11-24T00:30:00.000Z', merchant_name: 'X' };
    expect(matchReceipt({ amount: usd(625), date: '2026-11-20' }, [late]).candidates).toEqual([]);
  });
});
