import { describe, expect, it } from 'vitest';
import { FEATURE_FLAG_DEFAULTS, featureFlagOverridesSchema, readFlag, resolveFeatureFlags } from './feature-flags.ts';
import { webConfigSchema, loginDownMessage, mfaDownMessage, DEFAULT_LOGIN_DOWN_MESSAGE } from './web-config.ts';
import { financingApplicationLabel, isInvitePending, isSanctionsFlagged } from './identity-rules.ts';

describe('feature flags', () => {
  it('turns on exactly the ten §3 default-on flags', () => {
    const on = Object.entries(FEATURE_FLAG_DEFAULTS).filter(([, v]) => v === true).map(([k]) => k).sort();
    expect(on).toEqual([
      'bank_account_statement_ocr', 'eligible_for_push_payments', 'general_expenses_spend_requests_enabled',
      'physical_card_spend_requests_enabled', 'product_or_service_spend_requests_enabled', 'reimbursement_form_rhf',
      'reimbursement_out_of_pocket_submission_temporal', 'rename_transactions_card_transactions',
      'security_login_history', 'spend_export_use_olap',
    ]);
    expect(FEATURE_FLAG_DEFAULTS.auditor_role).toBe(false);
    expect(FEATURE_FLAG_DEFAULTS.disable_invites_by_managers).toBe(false);
    expect(FEATURE_FLAG_DEFAULTS.bulk_bill_creation_limit).toBe(50);
  });
  it('applies overrides of the right type only', () => {
    const flags = resolveFeatureFlags({ auditor_role: true, security_login_history: 'yes', unknown_flag: true, bulk_bill_creation_limit: 80 });
    expect(flags.auditor_role).toBe(true);
    expect(flags.security_login_history).toBe(true);
    expect(flags.bulk_bill_creation_limit).toBe(80);
    expect('unknown_flag' in flags).toBe(false);
  });
  it('validates stored overrides strictly', () => {
    expect(featureFlagOverridesSchema.safeParse({ auditor_role: true }).success).toBe(true);
    expect(featureFlagOverridesSchema.safeParse({ auditor_role: 1 }).success).toBe(false);
    expect(featureFlagOverridesSchema.safeParse({ nope: true }).success).toBe(false);
  });
  it('reads typed values from a cached set, falling back to defaults', () => {
    expect(readFlag({ auditor_role: true }, 'auditor_role')).toBe(true);
    expect(readFlag({ auditor_role: 'true' }, 'auditor_role')).toBe(false);
    expect(readFlag(null, 'security_login_history')).toBe(true);
  });
});

describe('web config', () => {
  it('fills §3 defaults', () => {
    expect(webConfigSchema.parse({})).toEqual({
      isLoginDown: false, isMfaDown: false, enabledNewConsoleFtux: true,
      customLoginDownMessage: null, customMfaDownMessage: null, googleSignIn: false, percentageRollout: { test: false },
    });
  });
  it('uses the custom message, else a default', () => {
    expect(loginDownMessage(webConfigSchema.parse({ isLoginDown: true }))).toBe(DEFAULT_LOGIN_DOWN_MESSAGE);
    expect(loginDownMessage(webConfigSchema.parse({ customLoginDownMessage: 'Back at 5' }))).toBe('Back at 5');
    expect(mfaDownMessage(webConfigSchema.parse({ customMfaDownMessage: 'MFA off' }))).toBe('MFA off');
  });
});

describe('identity rules', () => {
  it.each([
    ['MANUAL_REVIEW', true], ['MANUAL_REVIEW_IN_PROGRESS', true], ['FAILED_MANUAL_CHECK', true],
    ['PASSED', false], ['PENDING', false], [null, false],
  ])('OFAC %s flagged: %s', (status, flagged) => {
    expect(isSanctionsFlagged(status)).toBe(flagged);
  });
  it('labels financing applications', () => {
    expect(financingApplicationLabel({ business_name: 'Acme', created_at: '2026-01-05T00:00:00Z' })).toBe('Acme');
    expect(financingApplicationLabel({ business_name: null, created_at: '2026-01-05T00:00:00Z' })).toBe('New application (Jan 5, 2026)');
    expect(financingApplicationLabel({ business_name: null, created_at: null })).toBe('New application');
    expect(financingApplicationLabel({ business_name: '', created_at: 'garbage' })).toBe('New application');
  });
  it('invites are pending until the agreement is accepted, except vendor network admins', () => {
    expect(isInvitePending({ role: 'BUSINESS_USER', has_accepted_cardholder_agreement: false })).toBe(true);
    expect(isInvitePending({ role: 'BUSINESS_USER', has_accepted_cardholder_agreement: true })).toBe(false);
    expect(isInvitePending({ role: 'VENDOR_NETWORK_ADMIN', has_accepted_cardholder_agreement: false })).toBe(false);
  });
});
