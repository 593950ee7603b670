import { describe, expect, it } from 'vitest';
import { FIRM_INVITE_MAX_RESENDS, firmInviteAcceptRefusal, firmInviteResendRefusal, firmInviteStatus } from './firm-invites.ts';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const open = { accepted_at: null, revoked_at: null, expires_at: '2026-12-01T00:00:00Z', resend_count: 0 };

describe('firm invites (issue 31)', () => {
  it.each([
    [open, 'OPEN'],
    [{ ...open, expires_at: '2026-11-30T12:00:00Z' }, 'EXPIRED'],
    [{ ...open, accepted_at: '2026-11-29T00:00:00Z' }, 'ACCEPTED'],
    [{ ...open, revoked_at: '2026-11-29T00:00:00Z' }, 'REVOKED'],
  ] as const)('status of %j is %s', (row, status) => {
    expect(firmInviteStatus(row, NOW)).toBe(status);
  });

  it('resends an open or expired invite up to the limit, never a used or withdrawn one', () => {
    expect(firmInviteResendRefusal(open, NOW)).toBeNull();
    expect(firmInviteResendRefusal({ ...open, expires_at: '2026-11-01T00:00:00Z' }, NOW)).toBeNull();
    expect(firmInviteResendRefusal({ ...open, resend_count: FIRM_INVITE_MAX_RESENDS }, NOW)).toBe('An invite can be sent again at most 5 times.');
    expect(firmInviteResendRefusal({ ...open, accepted_at: '2026-11-29T00:00:00Z' }, NOW)).toBe('This invite was already accepted.');
    expect(firmInviteResendRefusal({ ...open, revoked_at: '2026-11-29T00:00:00Z' }, NOW)).toBe('This invite was withdrawn.');
  });

  it('accepts only an open invite: unknown and withdrawn are not found, used and expired say so', () => {
    expect(firmInviteAcceptRefusal(open, NOW)).toBeNull();
    expect(firmInviteAcceptRefusal(null, NOW)?.code).toBe('REQUEST_7004');
    expect(firmInviteAcceptRefusal({ ...open, revoked_at: '2026-11-29T00:00:00Z' }, NOW)?.code).toBe('REQUEST_7004');
    expect(firmInviteAcceptRefusal({ ...open, accepted_at: '2026-11-29T00:00:00Z' }, NOW)).toEqual({ code: 'REQUEST_7001', message: 'This invite has already been accepted.' });
    expect(firmInviteAcceptRefusal({ ...open, expires_at: '2026-11-01T00:00:00Z' }, NOW)?.message).toBe('This invite has expired. Ask the firm to send it again.');
  });
});
