import type { AdvisorRight, FirmClient, FirmClientApplication, FirmProposal } from '../../../../workers/api.ts';

/**
 * Issue 31, the advisor console's words: rights, proposal statuses and a client's open items as
 * people read them (pure, table-tested in console-words.test.ts).
 */
export const RIGHT_WORDS: Record<AdvisorRight, { name: string; does: string }> = {
  READ: { name: 'Read', does: 'see transactions, bills, receipts and reports' },
  CODE: { name: 'Code', does: 'code transactions (GL accounts, memos, receipts)' },
  CLOSE_BOOKS: { name: 'Close books', does: 'close accounting periods and sync to the ledger' },
};
export const RIGHTS_ORDER: readonly AdvisorRight[] = ['READ', 'CODE', 'CLOSE_BOOKS'];

/** "Read, Code": the rights held, in the catalogue's order. */
export function rightsText(rights: readonly AdvisorRight[]): string {
  const held = RIGHTS_ORDER.filter((r) => rights.includes(r));
  return held.length ? held.map((r) => RIGHT_WORDS[r].name).join(', ') : 'No access';
}

/** What a firm holding these rights will be able to do, as one sentence. */
export function rightsSentence(firm: string, rights: readonly AdvisorRight[]): string {
  const held = RIGHTS_ORDER.filter((r) => rights.includes(r)).map((r) => RIGHT_WORDS[r].does);
  if (!held.length) return `${firm} will not be able to see anything.`;
  const list = held.length === 1 ? held[0] : `${held.slice(0, -1).join(', ')} and ${held[held.length - 1]}`;
  return `${firm} will be able to ${list}. It will not be able to pay bills, move money or change your team.`;
}

/** Rights with READ kept (the server refuses any set without it) when a box is toggled. */
export function toggleRight(rights: readonly AdvisorRight[], right: AdvisorRight): AdvisorRight[] {
  if (right === 'READ') return RIGHTS_ORDER.filter((r) => r === 'READ' || rights.includes(r));
  const next = rights.includes(right) ? rights.filter((r) => r !== right) : [...rights, right];
  return RIGHTS_ORDER.filter((r) => r === 'READ' || next.includes(r));
}

export const STATUS_WORDS: Record<FirmProposal['status'], { text: string; tone: 'neutral' | 'info' | 'ok' | 'warn' | 'danger' }> = {
  DRAFT: { text: 'Draft — not sent', tone: 'neutral' },
  PENDING: { text: 'Sent — waiting for the client', tone: 'info' },
  ACCEPTED: { text: 'Accepted', tone: 'ok' },
  REJECTED: { text: 'Declined', tone: 'danger' },
  REVOKED: { text: 'Withdrawn', tone: 'warn' },
};

/** The open items worth a look, in words ("3 uncoded, 1 missing receipt"), or "Nothing open". */
export function openItemsText(items: FirmClient['open_items']): string {
  const parts: string[] = [];
  const add = (n: number, one: string, many: string) => n > 0 && parts.push(`${n} ${n === 1 ? one : many}`);
  add(items.uncoded, 'uncoded', 'uncoded');
  add(items.missing_receipts, 'missing receipt', 'missing receipts');
  add(items.unsynced, 'not synced', 'not synced');
  add(items.pending_bills, 'bill waiting', 'bills waiting');
  return parts.length ? parts.join(', ') : 'Nothing open';
}

/** "as of 10:42" / "as of 28 Nov, 10:42": when an offline list was read. */
export function readAtText(at: number, now = Date.now()): string {
  const d = new Date(at);
  const time = d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  if (new Date(now).toDateString() === d.toDateString()) return `as of ${time}`;
  return `as of ${d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' })}, ${time}`;
}

/** A financing application the firm started for a client, its status as the firm reads it. */
export const APPLICATION_WORDS: Record<FirmClientApplication['status'], { text: string; tone: 'neutral' | 'info' | 'ok' | 'warn' | 'danger'; next: string }> = {
  DRAFT: { text: 'Draft', tone: 'neutral', next: 'Waiting for the applicant to finish it from the email we sent.' },
  SUBMITTED: { text: 'Submitted', tone: 'info', next: 'Submitted by the applicant: Ledgerline is deciding.' },
  MANUAL_REVIEW: { text: 'In review', tone: 'warn', next: 'Ledgerline is checking a few details by hand before deciding.' },
  APPROVED: { text: 'Approved', tone: 'ok', next: 'Approved: the business is your client (Clients).' },
  REJECTED: { text: 'Declined', tone: 'danger', next: 'Ledgerline could not approve this application.' },
  WITHDRAWN: { text: 'Withdrawn', tone: 'neutral', next: 'Withdrawn before it was submitted.' },
};
