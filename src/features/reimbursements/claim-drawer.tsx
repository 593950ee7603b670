import { useEffect, useRef, useState, type ReactNode } from 'react';
import { formatMoney } from '../../../schema/money.ts';
import { checkEditable, checkMove } from '../../../schema/reimbursement-rules.ts';
import { Button } from '../../components/button.tsx';
import { Drawer } from '../../components/drawer.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { ReceiptsSlot } from './claim-form-dialog.tsx';
import { ClaimIcon } from './claim-icon.tsx';
import { claimDescription, claimTimeline, STATUS_LABELS, STATUS_TONES, TYPE_LABELS, type ClaimView } from './claim-labels.ts';
import { formatClaimDate } from './reimbursements-table.tsx';
import { readClaim } from './use-claim-rows.ts';
import type { ClaimOwner } from './use-claim-rows.ts';

export interface ClaimDrawerProps {
  id: string;
  client: DataClient;
  reference: ReferenceView;
  dataVersion: number;
  /** Whose claims a create made here belongs to (the session's user and business). */
  owner: ClaimOwner;
  /** The receipts region (same slot as the form's), plugged in by the receipts work. */
  receipts?: ReactNode;
  onEdit(claim: ClaimView): void;
  onClose(): void;
  returnFocus(): HTMLElement | null | undefined;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * One claim: its fields, sync state (with the server's reason when refused), receipts, history,
 * and the moves the status machine allows (schema/reimbursement-rules.ts): edit while a draft or
 * rejected, submit (or resubmit). A move the server would refuse is not offered.
 */
export function ClaimDrawer({ id, client, reference, dataVersion, owner, receipts, onEdit, onClose, returnFocus }: ClaimDrawerProps) {
  const [claim, setClaim] = useState<ClaimView | null | undefined>(undefined);
  const [submitting, setSubmitting] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    heading.current?.focus();
  }, [id]);

  useEffect(() => {
    let live = true;
    void readClaim(client, id, owner).then((c) => {
      if (live) setClaim(c);
    });
    return () => {
      live = false;
    };
  }, [client, id, dataVersion, owner]);

  async function submit(c: ClaimView) {
    setSubmitting(true);
    try {
      const result = await client.run('reimbursement.submit', { reimbursement_id: c.id });
      if (!result.ok) return toastError(errorText(result.error));
      toastInfo('Submitted. It syncs in the background.');
    } finally {
      setSubmitting(false);
    }
  }

  const title = claim ? claimDescription(claim) : claim === null ? 'Reimbursement not found' : 'Reimbursement';
  return (
    // Non-modal like the transactions drawer: the list beside it stays live (j/k move the open claim).
    <Drawer title={title} titleRef={heading} closeLabel="Close details" modal={false} onClose={onClose} returnFocus={returnFocus}>
      {claim && (
        <div className="drawer-body claim-detail">
          <div className="drawer-amount">{formatMoney(claim.amount, claim.currency)}</div>
          <div className="marks">
            <StatusPill tone={STATUS_TONES[claim.status]}>{STATUS_LABELS[claim.status]}</StatusPill>
            <SyncMark row={claim} />
          </div>
          {claim.failure && (
            <div className="notice notice-error" role="alert">
              <strong>The server refused this change:</strong> {claim.failure.message}
              <div className="row-actions">
                <Button size="sm" onClick={() => void client.retryCommand(claim.failure!.command_id)}>
                  Retry
                </Button>
                <Button size="sm" variant="ghost" onClick={() => void client.discardCommand(claim.failure!.command_id)}>
                  Discard
                </Button>
              </div>
            </div>
          )}
          {claim.status === 'REJECTED' && claim.rejection_reason && (
            <div className="notice notice-warn">
              <strong>Rejected:</strong> {claim.rejection_reason}
            </div>
          )}
          <ClaimFacts claim={claim} reference={reference} />
          <ReceiptsSlot>{receipts}</ReceiptsSlot>
          <section aria-labelledby={`${claim.id}-history`}>
            <h3 id={`${claim.id}-history`} className="claim-section-title">History</h3>
            <ol className="claim-timeline">
              {claimTimeline(claim).map((step) => (
                <li key={step.label}>
                  <span className="claim-timeline-label">{step.label}</span>
                  {step.at && <time dateTime={step.at} className="muted"> {timeFormat.format(new Date(step.at))}</time>}
                  {step.detail && <div className="muted">{step.detail}</div>}
                </li>
              ))}
            </ol>
          </section>
          <ClaimActions claim={claim} submitting={submitting} onEdit={onEdit} onSubmit={(c) => void submit(c)} />
        </div>
      )}
    </Drawer>
  );
}

function ClaimFacts({ claim, reference }: { claim: ClaimView; reference: ReferenceView }) {
  const { names } = reference;
  const rows: [string, ReactNode][] = [
    ['Type', <span className="claim-type" key="t"><ClaimIcon type={claim.type} /> {TYPE_LABELS[claim.type]}</span>],
  ];
  switch (claim.type) {
    case 'OUT_OF_POCKET':
      rows.push(['Merchant', claim.merchant ?? '—'], ['Date', formatClaimDate(claim.transaction_date)]);
      break;
    case 'MILEAGE':
      rows.push(
        ['Trip', `${claim.start_location ?? '—'} → ${claim.end_location ?? '—'}`],
        ['Trip date', formatClaimDate(claim.trip_date ?? claim.transaction_date)],
        ['Distance', claim.distance_miles === null ? '—' : `${claim.distance_miles} mi`],
      );
      break;
    case 'PER_DIEM':
      rows.push(
        ['Location', claim.location ?? '—'],
        ['Dates', claim.start_date && claim.end_date ? `${formatClaimDate(claim.start_date)} – ${formatClaimDate(claim.end_date)}` : '—'],
      );
      break;
  }
  rows.push(
    ['Memo', claim.memo || '—'],
    ['GL account', names.glAccount(claim.gl_account_id) || '—'],
    ['Department', names.department(claim.department_id) || '—'],
    ['Sync', claim.pending ? <SyncMark row={claim} key="s" /> : 'Synced'],
  );
  return (
    <dl className="facts">
      {rows.map(([label, value]) => (
        <div key={label} className="facts-row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function ClaimActions(props: { claim: ClaimView; submitting: boolean; onEdit(c: ClaimView): void; onSubmit(c: ClaimView): void }) {
  const { claim } = props;
  const editable = checkEditable(claim.status).ok;
  const submittable = checkMove(claim.status, 'SUBMITTED').ok;
  if (!editable && !submittable) return null;
  return (
    <div className="drawer-actions">
      {submittable && (
        <Button variant="primary" loading={props.submitting} onClick={() => props.onSubmit(claim)}>
          {claim.status === 'REJECTED' ? 'Resubmit' : 'Submit'}
        </Button>
      )}
      {editable && <Button onClick={() => props.onEdit(claim)}>Edit</Button>}
    </div>
  );
}
