import { describe, expect, it } from 'vitest';
import { acceptText, flexRefusalText, scheduleText, termText } from './flex-words.ts';

const money = (amount: number) => ({ amount, currency: 'USD' });
const term = { term_days: 60 as const, fee: money(2_400), installments: [{ due_date: '2026-12-29', amount: money(61_200) }, { due_date: '2027-01-28', amount: money(61_200) }] };

describe('flex words', () => {
  it('names a term, its schedule and what accepting does', () => {
    expect(termText(term)).toBe('fee $24.00 · 2 installments of $612.00');
    expect(termText({ ...term, fee: money(0) })).toBe('no fee · 2 installments of $612.00');
    const uneven = { ...term, term_days: 90 as const, installments: [...term.installments, { due_date: '2027-02-27', amount: money(61_201) }] };
    expect(termText(uneven)).toBe('fee $24.00 · 3 installments: $612.00, $612.00, $612.01');
    expect(termText({ ...term, term_days: 30 as const, installments: [term.installments[0]!] })).toBe('fee $24.00 · 1 installment of $612.00');
    expect(scheduleText(term.installments)).toMatch(/^\$612\.00 on .+ and \$612\.00 on .+$/);
    const text = acceptText({ amount: money(120_000) }, term, 'Globex');
    expect(text).toContain('Globex is paid $1,200.00 today');
    expect(text).toContain('You repay $1,224.00 (the fee is $24.00) over 60 days');
    expect(text).toContain('operating account');
  });
  it('says what to do after a refusal', () => {
    expect(flexRefusalText({ error_code: 'FLEX_7003', message: 'Expired.' })).toContain('fresh offer');
    expect(flexRefusalText({ error_code: 'OTHER', message: 'No.' })).toBe('No.');
  });
});
