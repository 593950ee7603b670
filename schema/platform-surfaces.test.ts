/** Issue 31: the mobile wrapper refuses the financing application and every non-business surface. */
import { describe, expect, it } from 'vitest';
import { mobileUnsupportedReason } from './platform.ts';

const REFUSED = 'This user is not supported on the mobile app';

describe('mobileUnsupportedReason with the surfaces', () => {
  it.each([
    ['/application', null, null, REFUSED],
    ['/application/business-details', null, null, REFUSED],
    ['/application/start', null, 'BUSINESS', REFUSED],
    ['/onboarding', null, null, REFUSED],
    ['/onboarding/step', 'BUSINESS_OWNER', null, REFUSED],
    ['/applications', null, null, null],
    ['/transactions', null, 'ADVISOR_CONSOLE', REFUSED],
    ['/transactions', null, 'VENDOR_PORTAL', REFUSED],
    ['/', null, 'FINANCING_APPLICATION', REFUSED],
    ['/settings', null, 'ADVISOR_CONSOLE_APPLICATION', REFUSED],
    ['/transactions', 'BUSINESS_ADMIN', 'BUSINESS', null],
    ['/transactions', 'BUSINESS_ADMIN', null, null],
    ['/transactions', 'ADVISOR_CONSOLE_USER', 'BUSINESS', REFUSED],
  ] as const)('%s as %s on %s → %s', (pathname, role, surface, expected) => {
    expect(mobileUnsupportedReason('mobile', { pathname, role, surface })).toBe(expected);
  });

  it('the web is never refused', () => {
    expect(mobileUnsupportedReason('web', { pathname: '/application', role: null, surface: 'VENDOR_PORTAL' })).toBeNull();
  });
});
