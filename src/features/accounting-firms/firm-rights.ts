import { canViewReferrals, type Actor } from '../../../schema/roles.ts';
import type { AdvisorRight } from '../../../workers/api.ts';

/**
 * Issue 31, the client business's side: a firm's rights in words (the console has its own copy in
 * features/surfaces/console — a feature does not import another).
 */
export const RIGHTS: readonly AdvisorRight[] = ['READ', 'CODE', 'CLOSE_BOOKS'];
export const RIGHT_NAMES: Record<AdvisorRight, string> = { READ: 'Read', CODE: 'Code', CLOSE_BOOKS: 'Close books' };
const DOES: Record<AdvisorRight, string> = {
  READ: 'see your transactions, bills, receipts and reports',
  CODE: 'code transactions (GL accounts, memos, receipts)',
  CLOSE_BOOKS: 'close accounting periods and sync to your ledger',
};

export const rightsNames = (rights: readonly AdvisorRight[]) => RIGHTS.filter((r) => rights.includes(r)).map((r) => RIGHT_NAMES[r]).join(', ');

/** What the firm will be able to do, and what never (paying, moving money, the team). */
export function grantSentence(firm: string, rights: readonly AdvisorRight[]): string {
  const held = RIGHTS.filter((r) => rights.includes(r)).map((r) => DOES[r]);
  const list = held.length <= 1 ? (held[0] ?? 'see nothing') : `${held.slice(0, -1).join(', ')} and ${held[held.length - 1]}`;
  return `${firm} will be able to ${list}. It will never be able to pay bills, move money or change your team.`;
}

/** Narrowing what a proposal asks: READ always stays; only rights it asked for can be kept. */
export function narrow(asked: readonly AdvisorRight[], kept: readonly AdvisorRight[], right: AdvisorRight): AdvisorRight[] {
  if (right === 'READ' || !asked.includes(right)) return RIGHTS.filter((r) => kept.includes(r) || r === 'READ');
  const next = kept.includes(right) ? kept.filter((r) => r !== right) : [...kept, right];
  return RIGHTS.filter((r) => r === 'READ' || next.includes(r));
}

/** The audit log's "what" for a row: the call in words where known, else its method and path. */
export function auditWhat(callId: string, method: string, path: string): string {
  const known: Record<string, string> = {
    'transactions.patch': 'Changed a transaction',
    'businesses.firmProposals.accept': 'Accepted an accounting firm',
    'businesses.firmProposals.reject': 'Declined an accounting firm',
    'businesses.firms.end': 'Ended an accounting firm’s access',
    'bills.pay': 'Paid a bill',
  };
  return known[callId] ?? `${method} ${path}`;
}

/**
 * §6 canViewReferrals on this device: who referred the business is shown to its own people, never
 * to a firm user acting in it (the token's `external_firm_id`; the server refuses them too).
 */
export function seesReferrals(session: { user: Omit<Actor, 'external_firm'>; external_firm_id?: string | null } | null | undefined): boolean {
  if (!session) return false;
  const firm = session.external_firm_id ? { uuid: session.external_firm_id, id: session.external_firm_id } : null;
  return canViewReferrals({ ...session.user, external_firm: firm });
}
