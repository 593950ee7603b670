import { describe, expect, it } from 'vitest';
import { anonymisePath, eventIdentity, maskSensitive, sanitiseUrl, skipsRecordingStartup, trackingSwitches } from './telemetry.ts';
import { detectPlatform, mobileUnsupportedReason, requestTimeoutMs, tokenWaitMs } from './platform.ts';

describe('logged paths', () => {
  it.each([
    ['/transactions/3f2b1c9e-8a7d-4e6f-9b0a-1c2d3e4f5a6b', '/transactions/:id'],
    ['/bills/123/edit', '/bills/:id/edit'],
    ['/actions/apply/approve-all', '/actions/apply/:x'],
    ['/workflows/submission-policy/new/reimbursement', '/workflows/submission-policy/new/:x'],
    ['/cards/AbC123dEf456GhI789/details', '/cards/:id/details'],
    ['/settings/profile', '/settings/profile'],
  ])('%s → %s', (path, expected) => {
    expect(anonymisePath(path)).toBe(expected);
  });
  it('strips router tokens and adds sanitized_path', () => {
    expect(sanitiseUrl('https://app.test/sso/callback/42?code=abc&state=xyz&oobCode=q&tab=2')).toBe(
      '/sso/callback/:id?tab=2&sanitized_path=%2Fsso%2Fcallback%2F%3Aid',
    );
  });
});

describe('tracking switches and identity', () => {
  it.each([
    ['', true, true],
    ['?no_track=true', false, false],
    ['?no_segment=true', true, false],
    ['?no_track=false&no_segment=true', true, false],
  ])('%s → track %s analytics %s', (search, track, analytics) => {
    expect(trackingSwitches(search)).toEqual({ track, analytics });
  });
  it('sign-in and sign-up skip recording start-up', () => {
    expect(skipsRecordingStartup('/sign-in')).toBe(true);
    expect(skipsRecordingStartup('/sign-up/verify')).toBe(true);
    expect(skipsRecordingStartup('/transactions')).toBe(false);
  });
  it('console events carry the firm id only', () => {
    const ids = { spend_user_id: 'u', business_id: 'b', external_firm_id: 'f' };
    expect(eventIdentity('/console/clients', ids)).toEqual({ external_firm_id: 'f' });
    expect(eventIdentity('/transactions', ids)).toEqual({ spend_user_id: 'u', business_id: 'b' });
  });
});

describe('error-report masking', () => {
  it('masks sensitive keys and values in realistic payloads', () => {
    const report = {
      message: 'Payment failed for IBAN GB82 WEST 1234 5698 7654 32 with token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig',
      request: {
        headers: { Authorization: 'Bearer abc.def', 'RAMP-ID-TOKEN': 'eyJ.x.y', accept: 'application/json' },
        body: { password: 'hunter2', account_number: '000123456789', routing_number: '021000021', ssn: '123-45-6789', tin: '12-3456789', memo: 'Dinner' },
      },
      breadcrumbs: [{ note: 'card 4111 1111 1111 1111 declined' }, { note: 'SSN 987-65-4321 entered' }],
    };
    const masked = JSON.stringify(maskSensitive(report));
    for (const secret of ['GB82', 'eyJhbGci', 'abc.def', 'hunter2', '000123456789', '021000021', '123-45-6789', '12-3456789', '4111', '987-65-4321']) {
      expect(masked).not.toContain(secret);
    }
    expect(masked).toContain('Dinner');
    expect(maskSensitive('POST /login failed: password=hunter2&user=a {"token": "abc123"}')).toBe(
      'POST /login failed: password=[masked]&user=a {"token": "[masked]"}',
    );
    expect(masked).toContain('application/json');
    expect(maskSensitive(report).request.body.memo).toBe('Dinner');
  });

  it('masks a traveller profile (issue 27): birth date, known traveller number, every loyalty number; names and seat stay', () => {
    const body = {
      legal_first_name: 'Ana', legal_last_name: 'Ruiz', date_of_birth: '1990-04-14', known_traveler_number: 'TT1234567',
      loyalty_programs: [{ airline_code: 'UA', number: 'MP99887766' }], seat_preference: 'AISLE',
    };
    const masked = maskSensitive({ request: { body } });
    expect(masked.request.body).toEqual({ ...body, date_of_birth: '[masked]', known_traveler_number: '[masked]', loyalty_programs: '[masked]' });
    expect(maskSensitive('PUT profile failed: date_of_birth=1990-04-14 known_traveler_number: TT1234567')).toBe(
      'PUT profile failed: date_of_birth=[masked] known_traveler_number: [masked]',
    );
  });
});

describe('mobile wrapper', () => {
  const now = 1_000_000;
  it.each([
    [{ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)', search: '', rememberedAt: null }, 'mobile', null],
    [{ userAgent: 'Mozilla/5.0 (Linux; Android 14)', search: '', rememberedAt: null }, 'mobile', null],
    [{ userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', search: '?is_mobile_app=true', rememberedAt: null }, 'mobile', now],
    [{ userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', search: '', rememberedAt: now - 4 * 60_000 }, 'mobile', now - 4 * 60_000],
    [{ userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', search: '', rememberedAt: now - 5 * 60_000 }, 'web', null],
    [{ userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', search: '', rememberedAt: null }, 'web', null],
  ])('%j → %s', (input, platform, remember) => {
    expect(detectPlatform({ ...input, now })).toEqual({ platform, remember });
  });
  it('timeouts and token waits per platform', () => {
    expect(requestTimeoutMs('mobile')).toBe(15_000);
    expect(requestTimeoutMs('web')).toBeNull();
    expect(tokenWaitMs('mobile')).toBe(1_000);
    expect(tokenWaitMs('web')).toBe(10_000);
  });
  it('unsupported surfaces and roles on mobile', () => {
    expect(mobileUnsupportedReason('mobile', { pathname: '/console', role: null })).toBe('This user is not supported on the mobile app');
    expect(mobileUnsupportedReason('mobile', { pathname: '/transactions', role: 'VENDOR_NETWORK_ADMIN' })).toMatch(/not supported/);
    expect(mobileUnsupportedReason('mobile', { pathname: '/transactions', role: 'BUSINESS_USER' })).toBeNull();
    expect(mobileUnsupportedReason('web', { pathname: '/console', role: null })).toBeNull();
  });
});
