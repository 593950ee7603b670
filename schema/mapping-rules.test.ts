import { describe, expect, it } from 'vitest';
import { mappingRuleInputSchema, orderRules, ruleCodingPatch, ruleMatches, suggestCoding, type MappingRule } from './mapping-rules.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const rule = (n: number, over: Partial<MappingRule> = {}): MappingRule => ({
  id: id(n), priority: n, match_field: 'merchant_name', match_operator: 'equals', match_value: 'Uber',
  gl_account_id: id(100 + n), department_id: null, tracking: {}, created_by: id(99),
  created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z', ...over,
});

describe('ruleMatches', () => {
  it.each([
    ['merchant_name', 'equals', 'Uber', { merchant_name: 'uber' }, true],
    ['merchant_name', 'equals', '  Blue   Bottle ', { merchant_name: 'blue bottle' }, true],
    ['merchant_name', 'equals', 'Uber', { merchant_name: 'Uber Eats' }, false],
    ['merchant_name', 'contains', 'uber', { merchant_name: 'UBER   *TRIP' }, true],
    ['merchant_name', 'contains', 'uber', { merchant_category: 'uber' }, false],
    ['merchant_category', 'equals', 'Airlines', { merchant_name: 'Airlines', merchant_category: 'AIRLINES' }, true],
    ['merchant_category', 'contains', 'air', { merchant_category: null }, false],
    ['vendor', 'equals', id(7), { vendor_id: id(7) }, true],
    ['vendor', 'contains', id(7), { vendor_id: id(8) }, false],
    ['vendor', 'equals', id(7), { merchant_name: id(7) }, false],
  ] as const)('%s %s %j against %j → %s', (field, op, value, subject, expected) => {
    expect(ruleMatches({ match_field: field, match_operator: op, match_value: value }, subject)).toBe(expected);
  });
});

describe('suggestCoding', () => {
  it('takes the first matching rule by priority, then age, then id', () => {
    const broad = rule(5, { match_operator: 'contains', match_value: 'u', gl_account_id: id(200) });
    const exact = rule(1);
    expect(suggestCoding([broad, exact], { merchant_name: 'Uber' })?.rule.id).toBe(exact.id);
    expect(suggestCoding([broad, exact], { merchant_name: 'Blue Bottle' })?.coding.gl_account_id).toBe(id(200));
    expect(suggestCoding([broad, exact], { merchant_name: 'AWS' })).toBeNull();
    const older = rule(3, { priority: 1, created_at: '2026-10-01T00:00:00.000Z' });
    expect(orderRules([exact, older]).map((r) => r.id)).toEqual([older.id, exact.id]);
    const sameTime = [rule(9, { priority: 0 }), rule(8, { priority: 0 })];
    expect(orderRules(sameTime).map((r) => r.id)).toEqual([id(8), id(9)]);
  });

  it('patches only what the rule sets: a rule never clears coding', () => {
    expect(ruleCodingPatch({ gl_account_id: id(1), department_id: null, tracking: {} })).toEqual({ gl_account_id: id(1) });
    expect(ruleCodingPatch({ gl_account_id: null, department_id: id(2), tracking: { [id(3)]: id(4) } }))
      .toEqual({ department_id: id(2), tracking: { [id(3)]: id(4) } });
  });
});

describe('mappingRuleInputSchema', () => {
  it('needs some coding, a vendor id for vendor rules, and trims the value', () => {
    expect(mappingRuleInputSchema.safeParse({ match_field: 'merchant_name', match_value: 'Uber' }).success).toBe(false);
    expect(mappingRuleInputSchema.safeParse({ match_field: 'vendor', match_value: 'Acme', gl_account_id: id(1) }).success).toBe(false);
    expect(mappingRuleInputSchema.safeParse({ match_field: 'merchant_name', match_value: '   ', gl_account_id: id(1) }).success).toBe(false);
    expect(mappingRuleInputSchema.parse({ match_field: 'merchant_name', match_value: ' Uber ', department_id: id(1) }))
      .toEqual({ match_field: 'merchant_name', match_operator: 'equals', match_value: 'Uber', gl_account_id: null, department_id: id(1), tracking: {} });
  });
});
