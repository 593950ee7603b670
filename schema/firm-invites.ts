/**
 * Firm invites (issue 31): OPEN → ACCEPTED | EXPIRED | REVOKED; a resend keeps it OPEN with a new
 * token and a new expiry (as team invites), at most FIRM_INVITE_MAX_RESENDS times.
 */
export const FIRM_INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const FIRM_INVITE_MAX_RESENDS = 5;

type FirmInviteRow = { accepted_at: string | Date | null; revoked_at: string | Date | null; expires_at: string | Date };
type FirmInviteStatus = 'OPEN' | 'ACCEPTED' | 'EXPIRED' | 'REVOKED';

export function firmInviteStatus(row: FirmInviteRow, now: number): FirmInviteStatus {
  if (row.accepted_at) return 'ACCEPTED';
  if (row.revoked_at) return 'REVOKED';
  return new Date(row.expires_at).getTime() <= now ? 'EXPIRED' : 'OPEN';
}

/** Why an invite cannot be resent (REQUEST_7001), or null. An expired invite may be resent. */
export function firmInviteResendRefusal(row: FirmInviteRow & { resend_count: number }, now: number): string | null {
  const status = firmInviteStatus(row, now);
  if (status === 'ACCEPTED') return 'This invite was already accepted.';
  if (status === 'REVOKED') return 'This invite was withdrawn.';
  if (row.resend_count >= FIRM_INVITE_MAX_RESENDS) return `An invite can be sent again at most ${FIRM_INVITE_MAX_RESENDS} times.`;
  return null;
}

/** Why an invite cannot be accepted (404 for unknown / withdrawn, REQUEST_7001 otherwise), or null. */
export function firmInviteAcceptRefusal(row: FirmInviteRow | null, now: number): { code: 'REQUEST_7004' | 'REQUEST_7001'; message: string } | null {
  if (!row) return { code: 'REQUEST_7004', message: 'This invite does not exist.' };
  const status = firmInviteStatus(row, now);
  if (status === 'REVOKED') return { code: 'REQUEST_7004', message: 'This invite does not exist.' };
  if (status === 'ACCEPTED') return { code: 'REQUEST_7001', message: 'This invite has already been accepted.' };
  if (status === 'EXPIRED') return { code: 'REQUEST_7001', message: 'This invite has expired. Ask the firm to send it again.' };
  return null;
}
