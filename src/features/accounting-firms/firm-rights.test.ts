import { describe, expect, it } from 'vitest';
import { auditWhat, grantSentence, narrow, rightsNames, seesReferrals } from './firm-rights.ts';

describe('a firm’s rights, client side', () => {
  it('names rights in order', () => {
    expect(rightsNames(['CODE', 'READ'])).toBe('Read, Code');
  });
  it('says what is granted and what never is', () => {
    expect(grantSentence('Acme', ['READ'])).toBe('Acme will be able to see your transactions, bills, receipts and reports. It will never be able to pay bills, move money or change your team.');
    expect(grantSentence('Acme', ['READ', 'CODE', 'CLOSE_BOOKS'])).toContain('reports, code transactions (GL accounts, memos, receipts) and close accounting periods');
  });
  it.each([
    [['READ', 'CODE'], ['READ', 'CODE'], 'CODE', ['READ']],
    [['READ', 'CODE'], ['READ'], 'CODE', ['READ', 'CODE']],
    [['READ'], ['READ'], 'CODE', ['READ']],
    [['READ', 'CODE'], ['READ', 'CODE'], 'READ', ['READ', 'CODE']],
  ] as const)('asked %j, kept %j, toggling %s keeps %j', (asked, kept, right, want) => {
    expect(narrow(asked, kept, right)).toEqual(want);
  });
  it('words a known call, else method and path', () => {
    expect(auditWhat('transactions.patch', 'PATCH', '/x')).toBe('Changed a transaction');
    expect(auditWhat('odd.call', 'POST', '/v1/auth/odd')).toBe('POST /v1/auth/odd');
  });
  describe('who sees the business’s referral (§6 canViewReferrals)', () => {
    const user = (role: string) => ({ id: 'u1', role, is_manager: false, user_permissions: [] });
    it.each(['BUSINESS_OWNER', 'BUSINESS_ADMIN', 'BUSINESS_USER'])('its own %s does', (role) => {
      expect(seesReferrals({ user: user(role), external_firm_id: null })).toBe(true);
      expect(seesReferrals({ user: user(role) })).toBe(true);
    });
    it('a firm user acting in it does not, whatever the role', () => {
      expect(seesReferrals({ user: user('ADVISOR_CONSOLE_USER'), external_firm_id: 'f1' })).toBe(false);
      expect(seesReferrals({ user: user('BUSINESS_ADMIN'), external_firm_id: 'f1' })).toBe(false);
    });
    it('no one signed in does not', () => {
      expect(seesReferrals(null)).toBe(false);
    });
  });
});
