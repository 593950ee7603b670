import { describe, expect, it } from 'vitest';
import { DEFAULT_MATCH_TOLERANCES } from '../../../schema/bill-match.ts';
import { matchingRulesBody, matchingRulesText, matchingRulesValues } from './matching-rules.ts';

describe('matching rules form', () => {
  it('shows the saved percentages', () => expect(matchingRulesValues(DEFAULT_MATCH_TOLERANCES)).toEqual({ price: '2', quantity: '0' }));

  it.each([
    [{ price: '2', quantity: '0' }, { price_tolerance_percent: 2, quantity_tolerance_percent: 0 }],
    [{ price: ' 2.5 % ', quantity: '10' }, { price_tolerance_percent: 2.5, quantity_tolerance_percent: 10 }],
    [{ price: '100', quantity: '100' }, { price_tolerance_percent: 100, quantity_tolerance_percent: 100 }],
  ])('%j is sent as %j', (values, body) => expect(matchingRulesBody(values)).toEqual({ ok: true, body }));

  it.each([
    [{ price: '', quantity: '0' }, ['price']],
    [{ price: '-1', quantity: '0' }, ['price']],
    [{ price: '2', quantity: '101' }, ['quantity']],
    [{ price: 'abc', quantity: '1,5' }, ['price', 'quantity']],
  ])('%j is refused under %j', (values, fields) => {
    const r = matchingRulesBody(values);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.errors).sort()).toEqual(fields);
  });

  it('says the rules in words', () => {
    expect(matchingRulesText(DEFAULT_MATCH_TOLERANCES)).toBe('A bill’s unit price may differ from the PO’s by up to 2% either way; a bill may not bill more units than ordered, nor more than received.');
    expect(matchingRulesText({ price_tolerance_percent: 0, quantity_tolerance_percent: 5 })).toBe('A bill’s unit price must equal the PO’s; a bill may bill up to 5% more units than ordered, nor more than received.');
  });
});
