import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button.tsx';
import { ClaimFacts, ClaimHeadline, ClaimHistory, ClaimReceipts, ClaimRefusal } from '../../components/claim-details.tsx';
import { Drawer } from '../../components/drawer.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import type { DataClient } from '../../data-access/types.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { APPROVAL_LABELS, APPROVAL_TONES } from './approval-labels.ts';
import { KIND_NOUNS, type InboxRow } from './approval-rows.ts';
import { BillDetails } from './bill-details.tsx';
import { PayeeDetails, VendorPaymentDetails } from './payment-details.tsx';
import { readInboxRow } from './use-inbox-rows.ts';
import { CardRequestDetails } from './card-request-details.tsx';
import { SpendRequestDetails } from './spend-request-details.tsx';
import { formatLocalDateTime } from '../../lib/format.ts';
import { bookingSummary } from '../../lib/trip-labels.ts';

export interface ApprovalDrawerProps {
  id: string;
  client: DataClient;
  reference: ReferenceView;
  version: number;
  canDecide(row: InboxRow): boolean;
  onApprove(row: InboxRow): void;
  onReject(row: InboxRow): void;
  onClose(): void;
  returnFocus(): HTMLElement | null | undefined;
}


/**
 * One review: the claim (facts, receipts, history, the claimant), the card request (limit, card,
 * reason, requester and the cards they have) or the bill (lines, invoice document), and the review itself (status, who decided and when,
 * the reason), with Approve / Reject while it is the viewer's to decide.
 * Non-modal like the other drawers: the inbox beside it stays live (j/k move the open row).
 */
export function ApprovalDrawer({ id, client, reference, version, canDecide, onApprove, onReject, onClose, returnFocus }: ApprovalDrawerProps) {
  const [row, setRow] = useState<InboxRow | null | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  const userName = reference.names.user;

  useEffect(() => {
    heading.current?.focus();
  }, [id]);

  useEffect(() => {
    let live = true;
    void readInboxRow(client, id, userName).then((r) => {
      if (live) setRow(r);
    });
    return () => {
      live = false;
    };
  }, [client, id, version, userName]);

  const title = row ? `${row.claimant}: ${row.summary}` : row === null ? 'Approval not found' : 'Approval';
  const { approval } = row ?? {};
  return (
    <Drawer title={title} titleRef={heading} closeLabel="Close details" modal={false} onClose={onClose} returnFocus={returnFocus}>
      {row && approval && (
        <div className="drawer-body claim-detail">
          {row.claim && <ClaimHeadline claim={row.claim} />}
          {row.request && <CardRequestDetails request={row.request} client={client} reference={reference} version={version} />}
          {row.spendRequest && <SpendRequestDetails request={row.spendRequest} reference={reference} />}
          {row.bill && row.kind === 'bill' && <BillDetails bill={row.bill} reference={reference} client={client} version={version} />}
          {row.bill && row.kind === 'vendor-payment' && <VendorPaymentDetails bill={row.bill} reference={reference} client={client} version={version} />}
          {row.vendorId && <PayeeDetails vendorId={row.vendorId} approval={approval} reference={reference} />}
          {row.booking && row.trip && (
            <dl className="facts">
              <dt>Trip</dt>
              <dd>{row.trip.name}</dd>
              <dt>Booking</dt>
              <dd>{bookingSummary(row.booking)}</dd>
              <dt>Out of policy</dt>
              <dd>{row.booking.policy_reasons.join(' · ') || 'No reason given'}</dd>
            </dl>
          )}
          {!row.claim && !row.request && !row.bill && !row.booking && !row.spendRequest && !row.vendorId && (
            <p className="muted">This {KIND_NOUNS[row.kind]} has not reached this device yet.</p>
          )}
          <section aria-labelledby={`${row.id}-review`} className="approval-review">
            <h3 id={`${row.id}-review`} className="claim-section-title">Review</h3>
            <div className="marks">
              <StatusPill tone={APPROVAL_TONES[approval.status]}>{APPROVAL_LABELS[approval.status]}</StatusPill>
              <SyncMark row={approval} />
            </div>
            {approval.decided_at && (
              <p className="muted">
                {approval.status === 'REJECTED' ? 'Rejected' : 'Decided'}
                {approval.decided_by ? ` by ${userName(approval.decided_by) || 'a reviewer'}` : ''}
                {approval.on_behalf_of ? ` for ${userName(approval.on_behalf_of) || 'the approver'}` : ''} on{' '}
                <time dateTime={approval.decided_at}>{formatLocalDateTime(approval.decided_at)}</time>
              </p>
            )}
            {approval.reason && (
              <div className="notice notice-warn">
                <strong>Reason:</strong> {approval.reason}
              </div>
            )}
          </section>
          <ClaimRefusal row={approval} client={client} />
          {row.claim && (
            <>
              <ClaimFacts claim={row.claim} reference={reference} claimant />
              <ClaimReceipts claim={row.claim} client={client} version={version} />
              <ClaimHistory claim={row.claim} />
            </>
          )}
          {canDecide(row) && (
            <div className="drawer-actions">
              <Button variant="primary" onClick={() => onApprove(row)}>
                Approve
              </Button>
              <Button variant="danger" onClick={() => onReject(row)}>
                Reject…
              </Button>
            </div>
          )}
        </div>
      )}
    </Drawer>
  );
}
