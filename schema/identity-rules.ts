import type { OfacStatus } from './entities/identity.ts';

/** §4: these OFAC statuses flag the user for sanctions and block money movement. */
const SANCTIONS_FLAGGED: readonly OfacStatus[] = ['MANUAL_REVIEW', 'MANUAL_REVIEW_IN_PROGRESS', 'FAILED_MANUAL_CHECK'];
export const isSanctionsFlagged = (status: string | null | undefined): boolean =>
  status != null && (SANCTIONS_FLAGGED as readonly string[]).includes(status);

/** §3: the business name; else 'New application (date)' from created-at; else 'New application'. */
export function financingApplicationLabel(app: { business_name: string | null; created_at: string | null }, locale = 'en-US'): string {
  if (app.business_name) return app.business_name;
  if (app.created_at) {
    const d = new Date(app.created_at);
    if (!Number.isNaN(d.getTime())) {
      const date = d.toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
      return `New application (${date})`;
    }
  }
  return 'New application';
}

/** §4: an invite is pending until the cardholder agreement is accepted, except for vendor network admins. */
export const isInvitePending = (u: { role: string; has_accepted_cardholder_agreement: boolean }) =>
  u.role !== 'VENDOR_NETWORK_ADMIN' && !u.has_accepted_cardholder_agreement;
