import { describe, expect, it } from 'vitest';
import type { MissingItemView } from '../../../workers/api.ts';
import { missingWords, wizardPatch } from './wizard-patch.ts';

const item = (over: Partial<MissingItemView> = {}): MissingItemView => ({
  object_type: 'transaction', object_id: '00000000-0000-4000-8000-000000000001', date: '2026-11-20', amount: 10000, currency: 'USD',
  merchant: 'Shop', memo: null, receipt_ids: [], gl_account_id: null, department_id: null, location_id: null, claim_type: null, violations: [], ...over,
});
const none = { gl_account_id: null, department_id: null, location_id: null };
const GL = '00000000-0000-4000-8000-0000000000a1';

describe('the wizard’s save', () => {
  it.each([
    ['nothing typed', item(), '', none, null],
    ['a memo', item(), ' Team lunch ', none, { memo: 'Team lunch' }],
    ['the same memo again', item({ memo: 'Lunch' }), 'Lunch', none, null],
    ['a GL account', item(), '', { ...none, gl_account_id: GL }, { gl_account_id: GL }],
    ['a claim never sends a location', item({ object_type: 'reimbursement' }), '', { ...none, location_id: GL }, null],
  ])('%s', (_n, it_, memo, coding, expected) => {
    expect(wizardPatch(it_, memo, coding)).toEqual(expected);
  });

  it('says what is missing in words', () => {
    expect(missingWords([{ code: 'missing_receipt' }, { code: 'missing_memo' }, { code: 'missing_coding' }])).toBe('a receipt, a memo and coding');
    expect(missingWords([{ code: 'missing_memo' }])).toBe('a memo');
  });
});
