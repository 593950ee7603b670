/**
 * The vendor network's pure rules (issue 31, docs/design/issue-31-surfaces.md §2.6): the link and
 * edit-proposal status machines, the TIN checks (EIN format + IRS campus prefix, SSN rules) and the
 * network invite email refusal (BILL_PAY_7017). The server applies them with authority.
 */
import { isValidEin, isValidSsn, ssnDigits } from './tax-ids.ts';

export const LINK_STATUSES = ['INVITED', 'ACTIVE', 'DECLINED'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];
export type LinkAction = 'join' | 'decline';

/** A payer's vendor joined to the network: `INVITED → ACTIVE` (join) `| DECLINED`; both final. */
export function linkTransition(status: LinkStatus, action: LinkAction): LinkStatus | null {
  if (status !== 'INVITED') return null;
  return action === 'join' ? 'ACTIVE' : 'DECLINED';
}

export const EDIT_PROPOSAL_STATUSES = ['PENDING', 'ACCEPTED', 'REJECTED', 'WITHDRAWN'] as const;
export type EditProposalStatus = (typeof EDIT_PROPOSAL_STATUSES)[number];
export type EditProposalAction = 'accept' | 'reject' | 'withdraw';

const PROPOSAL_NEXT: Record<EditProposalAction, EditProposalStatus> = { accept: 'ACCEPTED', reject: 'REJECTED', withdraw: 'WITHDRAWN' };

/**
 * An edit proposal: `PENDING → ACCEPTED | REJECTED` (the payer) `| WITHDRAWN` (the vendor). A
 * decided proposal answers VENDOR_NETWORK_7001 naming what it became.
 */
export function editProposalTransition(
  status: EditProposalStatus, action: EditProposalAction,
): { ok: true; next: EditProposalStatus } | { ok: false; code: 'VENDOR_NETWORK_7001'; message: string } {
  if (status === 'PENDING') return { ok: true, next: PROPOSAL_NEXT[action] };
  return { ok: false, code: 'VENDOR_NETWORK_7001', message: `This change was already ${status.toLowerCase()}.` };
}

/** Whether an EIN (`12-3456789` or 9 digits) starts with a prefix the IRS issues (schema/tax-ids.ts). */
export const einPrefixValid = isValidEin;

export type TinType = 'EIN' | 'SSN';
export type TinCheck = { ok: true; digits: string } | { ok: false; message: string };

/**
 * A TIN as a vendor types it: an EIN `^\d{2}-?\d{7}$` with an issued prefix, or an SSN
 * `^\d{3}-?\d{2}-?\d{4}$` whose area is not 000, 666 or 9xx, group not 00 and serial not 0000.
 * Answers the nine digits to store, or the message for the `tin` field.
 */
export function tinCheck(type: TinType, tin: string): TinCheck {
  const t = tin.trim();
  if (type === 'EIN') {
    if (!/^\d{2}-?\d{7}$/.test(t)) return { ok: false, message: 'tin must be an EIN like 12-3456789' };
    if (!einPrefixValid(t)) return { ok: false, message: `tin starts with ${t.slice(0, 2)}, which is not an EIN prefix the IRS issues` };
    return { ok: true, digits: t.replace('-', '') };
  }
  if (!/^\d{3}-?\d{2}-?\d{4}$/.test(t)) return { ok: false, message: 'tin must be an SSN like 123-45-6789' };
  const digits = ssnDigits(t);
  const area = digits.slice(0, 3);
  if (area === '000' || area === '666' || area.startsWith('9')) return { ok: false, message: 'tin is not a valid SSN (its first three digits are never issued)' };
  if (!isValidSsn(t)) return { ok: false, message: 'tin is not a valid SSN' };
  return { ok: true, digits };
}

/** Mailbox names that are no person's (a vendor admin must be able to read the invite and sign in). */
const ROLE_LOCAL_PARTS: ReadonlySet<string> = new Set([
  'noreply', 'no-reply', 'donotreply', 'do-not-reply', 'no_reply', 'mailer-daemon', 'postmaster', 'bounce', 'bounces', 'abuse', 'nobody',
]);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * BILL_PAY_7017's reasons, or null when the address may be invited: not an email, a role address
 * nobody reads (noreply@…), or one of the payer's own members (their vendor must be someone else).
 * `memberEmails` are the payer's members' addresses, folded (lower case).
 */
export function networkEmailRefusal(email: string, memberEmails: readonly string[]): string | null {
  const folded = email.trim().toLowerCase();
  if (!EMAIL.test(folded) || folded.length > 320) return 'The network vendor email is not an email address.';
  const local = folded.slice(0, folded.indexOf('@')).split('+')[0]!;
  if (ROLE_LOCAL_PARTS.has(local)) return 'The network vendor email is a no-reply address; invite a person who reads their mail.';
  if (memberEmails.includes(folded)) return 'The network vendor email belongs to a member of your business.';
  return null;
}

/** What a vendor's new detail does to one payer's vendor (D9): filled at once when empty, else a proposal. */
export function d9Outcome(payerHolds: boolean, sameValue: boolean): 'fill' | 'propose' | 'none' {
  if (!payerHolds) return 'fill';
  return sameValue ? 'none' : 'propose';
}
