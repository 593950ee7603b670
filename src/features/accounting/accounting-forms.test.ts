import { describe, expect, it } from 'vitest';
import { errorBody } from '../../../schema/errors.ts';
import type { MappingRule } from '../../../schema/mapping-rules.ts';
import {
  applyResultText, emptyRuleForm, formatFileSize, manualMatchInput, preferencesFormOf, preferencesPatch, ruleCoding, ruleCondition,
  ruleFormOf, ruleInput, syncAnswerText, syncFileLabel, syncRefusal, type RuleNames,
} from './accounting-forms.ts';

const GL = '60000000-0000-4000-8000-0000000000a1';
const DEPT = '60000000-0000-4000-8000-0000000000b1';
const CAT = '60000000-0000-4000-8000-0000000000c1';
const OPT = '60000000-0000-4000-8000-0000000000c2';
const VENDOR = '60000000-0000-4000-8000-0000000000d1';
const TXN = '60000000-0000-4000-8000-0000000000e1';

const names: RuleNames = {
  glAccount: (id) => (id === GL ? '6100 Travel' : ''),
  department: (id) => (id === DEPT ? 'Sales' : ''),
  vendor: (id) => (id === VENDOR ? 'Acme Supplies' : ''),
  tracking: (c, o) => ({ category: c === CAT ? 'Project' : '', option: o === OPT ? 'Apollo' : '' }),
};

describe('rule form → request', () => {
  it('sends only the coding chosen, the text as typed (trimmed), and no priority when left empty', () => {
    const r = ruleInput({ ...emptyRuleForm(), match_value: '  Uber ', gl_account_id: GL, tracking: { [CAT]: OPT, other: '' } });
    expect(r).toEqual({
      ok: true,
      body: { match_field: 'merchant_name', match_operator: 'contains', match_value: 'Uber', gl_account_id: GL, department_id: null, tracking: { [CAT]: OPT } },
    });
  });

  it('keeps a typed priority and always matches a vendor exactly', () => {
    const r = ruleInput({ ...emptyRuleForm(), match_field: 'vendor', match_operator: 'contains', match_value: VENDOR, department_id: DEPT, priority: '3' });
    expect(r).toMatchObject({ ok: true, body: { priority: 3, match_field: 'vendor', match_operator: 'equals', match_value: VENDOR, department_id: DEPT } });
  });

  it('names the fields to fix: no text, no coding, a vendor not chosen, a priority that is not a whole number', () => {
    expect(ruleInput({ ...emptyRuleForm(), match_value: ' ' })).toEqual({
      ok: false,
      errors: {
        match_value: 'Enter the text to match (at most 200 characters).',
        gl_account_id: 'Choose a GL account, a department or a tracking option for the rule to set.',
      },
    });
    expect(ruleInput({ ...emptyRuleForm(), match_field: 'vendor', gl_account_id: GL })).toEqual({ ok: false, errors: { match_value: 'Choose the vendor this rule matches.' } });
    expect(ruleInput({ ...emptyRuleForm(), match_value: 'x', gl_account_id: GL, priority: '1.5' })).toMatchObject({ ok: false, errors: { priority: expect.stringContaining('whole number') } });
    expect(ruleInput({ ...emptyRuleForm(), match_value: 'x', gl_account_id: GL, priority: '-1' })).toMatchObject({ ok: false });
  });

  it('opens a stored rule in the form and sends it back unchanged', () => {
    const rule: MappingRule = {
      id: '60000000-0000-4000-8000-0000000000f1', priority: 4, match_field: 'merchant_category', match_operator: 'equals', match_value: 'Airlines',
      gl_account_id: GL, department_id: null, tracking: { [CAT]: OPT }, created_by: TXN, created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z',
    };
    expect(ruleInput(ruleFormOf(rule))).toEqual({
      ok: true,
      body: { priority: 4, match_field: 'merchant_category', match_operator: 'equals', match_value: 'Airlines', gl_account_id: GL, department_id: null, tracking: { [CAT]: OPT } },
    });
  });
});

describe('rules in words', () => {
  it('says the condition and the coding with the reference names', () => {
    expect(ruleCondition({ match_field: 'merchant_name', match_operator: 'contains', match_value: 'uber' }, names)).toBe('Merchant name contains “uber”');
    expect(ruleCondition({ match_field: 'merchant_category', match_operator: 'equals', match_value: 'Airlines' }, names)).toBe('Merchant category is “Airlines”');
    expect(ruleCondition({ match_field: 'vendor', match_operator: 'equals', match_value: VENDOR }, names)).toBe('Vendor is Acme Supplies');
    expect(ruleCoding({ gl_account_id: GL, department_id: DEPT, tracking: { [CAT]: OPT } }, names)).toBe('GL account 6100 Travel · Department Sales · Project: Apollo');
    expect(ruleCoding({ gl_account_id: null, department_id: DEPT, tracking: {} }, names)).toBe('Department Sales');
  });
});

describe('preferences form → PATCH', () => {
  const saved = { default_provider: 'csv' as const, iif_card_account: 'Corporate Card', iif_ap_account: 'Accounts Payable', iif_reimbursement_account: 'Reimbursements', xero_max_lines_per_file: 1000 as const, xero_date_format: 'DD/MM/YYYY' as const };

  it('sends only the account names that changed, trimmed; nothing when none did', () => {
    expect(preferencesPatch(saved, preferencesFormOf(saved))).toEqual({ ok: true, patch: null });
    expect(preferencesPatch(saved, { ...preferencesFormOf(saved), iif_card_account: ' Amex Card ' })).toEqual({ ok: true, patch: { iif_card_account: 'Amex Card' } });
  });

  it('refuses what QuickBooks cannot import: empty, colons, quotes', () => {
    expect(preferencesPatch(saved, { ...preferencesFormOf(saved), iif_ap_account: '  ' })).toMatchObject({ ok: false, errors: { iif_ap_account: expect.stringContaining('QuickBooks') } });
    expect(preferencesPatch(saved, { ...preferencesFormOf(saved), iif_card_account: 'Cards:Amex' })).toMatchObject({ ok: false, errors: { iif_card_account: expect.stringContaining('colons') } });
  });
});

describe('sync answers', () => {
  it('counts items and files', () => {
    expect(syncAnswerText({ item_count: 1, files: [{ name: 'a', url: '', content_type: '', size: 1, currency: null, statement_account: null }] })).toBe('Synced 1 item into 1 file.');
    expect(syncAnswerText({ item_count: 1234, files: [] })).toBe('Synced 1,234 items into 0 files.');
  });

  it('labels each file with the currency it books and the statement it is', () => {
    expect(syncFileLabel({ currency: 'GBP', statement_account: 'card' })).toBe('GBP · Corporate card statement');
    expect(syncFileLabel({ currency: 'USD', statement_account: 'bank' })).toBe('USD · Bank account statement');
    expect(syncFileLabel({ currency: 'EUR', statement_account: null })).toBe('EUR');
    expect(syncFileLabel({ currency: null, statement_account: null })).toBeNull();
  });

  it('says nothing-to-sync and a running sync as information, anything else as an error in the server’s words', () => {
    expect(syncRefusal(errorBody('ACCOUNTING_7303').error_v2)).toMatchObject({ tone: 'info', text: expect.stringMatching(/^Nothing to sync/) });
    expect(syncRefusal(errorBody('ACCOUNTING_7302').error_v2)).toMatchObject({ tone: 'info', text: expect.stringMatching(/^Another sync is running.*Nothing was done/) });
    expect(syncRefusal(errorBody('ACCOUNTING_7304').error_v2)).toEqual({ tone: 'error', text: expect.stringContaining('Connect this accounting provider first.') });
  });

  it('reports what applying rules did', () => {
    expect(applyResultText(0)).toBe('No uncoded transaction matched a rule: nothing was changed.');
    expect(applyResultText(1)).toBe('Rules coded 1 uncoded transaction.');
    expect(applyResultText(12)).toBe('Rules coded 12 uncoded transactions.');
  });

  it('sizes files', () => {
    expect(formatFileSize(512)).toBe('512 B');
    expect(formatFileSize(2048)).toBe('2.0 KB');
    expect(formatFileSize(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});

describe('manual match form → request', () => {
  it('sends a bill match or a bank line match, ids trimmed', () => {
    expect(manualMatchInput({ transaction_id: ` ${TXN} `, kind: 'bill', target: VENDOR })).toEqual({ ok: true, body: { transaction_id: TXN, bill_id: VENDOR } });
    expect(manualMatchInput({ transaction_id: TXN, kind: 'bank_line', target: ' BANK-42 ' })).toEqual({ ok: true, body: { transaction_id: TXN, bank_line_id: 'BANK-42' } });
  });

  it('names what is missing', () => {
    expect(manualMatchInput({ transaction_id: 'nope', kind: 'bill', target: '' })).toEqual({
      ok: false, errors: { transaction_id: expect.any(String), target: 'Paste the bill’s id (36 characters).' },
    });
    expect(manualMatchInput({ transaction_id: TXN, kind: 'bank_line', target: '' })).toMatchObject({ ok: false, errors: { target: expect.stringContaining('bank line') } });
  });
});
