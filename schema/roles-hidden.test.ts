/** Issue 31: a hidden spend user (firm, vendor network) is never the §6 default spend user. */
import { describe, expect, it } from 'vitest';
import { defaultSpendUser, type Actor } from './roles.ts';

type U = Actor & { business_id: string; has_accepted_cardholder_agreement: boolean };
const u = (id: string, over: Partial<U> = {}): U => ({
  id, role: 'BUSINESS_USER', is_manager: false, user_permissions: [], external_firm: null, business_id: `b-${id}`,
  has_finished_onboarding: true, is_business_locked: false, has_accepted_cardholder_agreement: true, ...over,
});
const firm = u('firm', { role: 'ADVISOR_CONSOLE_ADMIN', external_firm: { uuid: 'f', id: 'fu' } });
const firmUser = u('firm-user', { role: 'ADVISOR_CONSOLE_USER', external_firm: { uuid: 'f', id: 'fu2' } });
const vendor = u('vendor', { role: 'VENDOR_NETWORK_ADMIN' });
const owner = u('owner', { role: 'BUSINESS_OWNER' });

describe('defaultSpendUser with hidden users', () => {
  it.each([
    ['the owner among a firm user and a vendor network user', [firm, vendor, owner], null, 'owner'],
    ['the owner, whatever the order', [vendor, owner, firmUser], null, 'owner'],
    ['not the stored business when its user there is hidden', [firm, owner], 'b-firm', 'owner'],
    ['not the stored vendor network business either', [vendor, owner], 'b-vendor', 'owner'],
    ['the stored business when its user is shown', [owner, u('other')], 'b-other', 'other'],
    ['nobody when every user is hidden (even with an accepted agreement)', [firm, vendor, firmUser], null, undefined],
    ['the approved fallback, never a hidden one', [vendor, u('new', { has_finished_onboarding: false })], null, 'new'],
  ] as const)('%s', (_, users, stored, expected) => {
    expect(defaultSpendUser(users, stored)?.id).toBe(expected);
  });
});
