import type { ApprovalObjectType } from '../../../schema/entities/approval.ts';
import type { NotificationSubjectType } from '../../../schema/entities/notification.ts';
import { formatMoney } from '../../../schema/money.ts';

/**
 * What the approval notifications say and where they open (issue 29): pure, shared by the
 * producers (producers.ts) and the demo seed (seed/notifications.ts) so both read the same.
 */
const NOUN: Record<ApprovalObjectType, string> = {
  reimbursement: 'claim', card_request: 'card request', bill: 'bill', travel_booking: 'travel booking',
  spend_request: 'spend request', 'vendor-payment': 'bill payment', payee: 'vendor payment details change',
};

/** What an approval reviews, as the notifications name it. */
export type Reviewed = { approval_id: string; object_type: ApprovalObjectType; object_id: string; requester: string; amount: number | null; currency: string | null };

const worth = (r: Reviewed) => (r.amount && r.currency ? ` for ${formatMoney(r.amount, r.currency)}` : '');

export const waitingTitle = (r: Reviewed) => `${r.requester}'s ${NOUN[r.object_type]}${worth(r)} is waiting for your approval`;
export const decidedTitle = (r: Reviewed, status: 'APPROVED' | 'REJECTED') =>
  `Your ${NOUN[r.object_type]}${worth(r)} was ${status === 'APPROVED' ? 'approved' : 'rejected'}`;
export const rejectedBody = (reason: string | null, by: string | null) =>
  [reason ? `Reason: ${reason}` : '', by ? `Rejected by ${by}.` : ''].filter(Boolean).join('\n');

/** The approver's side: the inbox with the approval open (src/features/approvals search `open`). */
export const approvalPath = (approvalId: string) => `/approvals?open=${approvalId}`;

/** The requester's side: the reviewed object in its own page, where the app has one. */
export function requesterTarget(r: Reviewed): { path: string; subject_type: NotificationSubjectType; subject_id: string } {
  switch (r.object_type) {
    case 'reimbursement': return { path: `/reimbursements?open=${r.object_id}`, subject_type: 'reimbursement', subject_id: r.object_id };
    case 'bill': case 'vendor-payment': return { path: `/bills?open=${r.object_id}`, subject_type: 'bill', subject_id: r.object_id };
    case 'spend_request': return { path: `/requests?open=${r.object_id}`, subject_type: 'spend_request', subject_id: r.object_id };
    case 'card_request': return { path: '/cards', subject_type: 'card_request', subject_id: r.object_id };
    case 'payee': return { path: `/vendors?open=${r.object_id}`, subject_type: 'vendor', subject_id: r.object_id };
    case 'travel_booking': return { path: '/travel', subject_type: 'approval', subject_id: r.approval_id };
  }
}

export const largeTransactionTitle = (t: { amount: number; currency: string; merchant_name: string }, cardholder: string) =>
  `${cardholder} spent ${formatMoney(t.amount, t.currency)} at ${t.merchant_name}`;
export const largeTransactionBody = (threshold: { amount: number; currency: string }) =>
  `This card transaction is at or above your notify threshold of ${formatMoney(threshold.amount, threshold.currency)}.`;
