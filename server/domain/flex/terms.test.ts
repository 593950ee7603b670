import { describe, expect, it } from 'vitest';
import { flexFee, flexTerm, flexTerms, splitEvenly } from './terms.ts';

/** Issue 30, flex: fees rounded half up to the cent, equal parts with the remainder last, due dates on bank business days. */
describe('flex terms', () => {
  it('charges 1 %, 2 % and 3 % rounded half up to the cent', () => {
    expect([flexFee(15_050, 30), flexFee(15_050, 60), flexFee(15_050, 90)]).toEqual([151, 301, 452]);
    expect(flexFee(149, 30)).toBe(1);
    expect(flexFee(150, 30)).toBe(2);
    expect(flexFee(25_000_000, 90)).toBe(750_000);
    expect(() => flexFee(0, 30)).toThrow(RangeError);
    expect(() => flexFee(1.5, 30)).toThrow(RangeError);
  });

  it('splits into equal parts, the last taking the remainder, and the parts add up', () => {
    expect(splitEvenly(100, 3)).toEqual([33, 33, 34]);
    expect(splitEvenly(7, 1)).toEqual([7]);
    for (const total of [100, 101, 15_050, 99_999_999]) {
      for (const n of [1, 2, 3]) expect(splitEvenly(total, n).reduce((a, b) => a + b, 0)).toBe(total);
    }
  });

  it('falls due every 30 days on the next bank business day (Christmas and weekends skipped)', () => {
    // 2026-11-25 + 30 = 2026-12-25 (Christmas, Friday) → Monday 2026-12-28.
    expect(flexTerm(10_000, 30, '2026-11-25').installments).toEqual([{ due_date: '2026-12-28', principal: 10_000, fee: 100 }]);
    const terms = flexTerms(10_001, '2026-11-20');
    expect(terms.map((t) => t.term_days)).toEqual([30, 60, 90]);
    const ninety = terms[2]!;
    expect(ninety.installments.map((i) => i.due_date)).toEqual(['2026-12-21', '2027-01-19', '2027-02-18']);
    expect(ninety.installments.reduce((s, i) => s + i.principal, 0)).toBe(10_001);
    expect(ninety.installments.reduce((s, i) => s + i.fee, 0)).toBe(ninety.fee);
  });
});
