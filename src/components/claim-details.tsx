import type { ReactNode } from 'react';
import { formatMoney } from '../../schema/money.ts';
import type { DataClient } from '../data-access/types.ts';
import { claimTimeline, formatClaimDate, STATUS_LABELS, STATUS_TONES, TYPE_LABELS, type ClaimView } from '../lib/claim-labels.ts';
import type { ReferenceView } from '../lib/reference-data.ts';
import { Button } from './button.tsx';
import { ClaimIcon } from './claim-icon.tsx';
import { StatusPill } from './status-pill.tsx';
import { SyncMark } from './sync-mark.tsx';

/**
 * The pieces of one claim's detail, shared by the claimant's drawer (reimbursements) and the
 * reviewer's (approvals): amount and marks, the server's refusal with Retry/Discard, the rejection
 * reason, the facts per type, the receipts slot and the history.
 */
export function ClaimHeadline({ claim }: { claim: ClaimView }) {
  return (
    <>
      <div className="drawer-amount">{formatMoney(claim.amount, claim.currency)}</div>
      <div className="marks">
        <StatusPill tone={STATUS_TONES[claim.status]}>{STATUS_LABELS[claim.status]}</StatusPill>
        <SyncMark row={claim} />
      </div>
    </>
  );
}

/** A change the server refused, said with its own words, and what to do (Retry/Discard). */
export function ClaimRefusal({ row, client }: { row: { failure: ClaimView['failure'] }; client: DataClient }) {
  const failure = row.failure;
  if (!failure) return null;
  return (
    <div className="notice notice-error" role="alert">
      <strong>The server refused this change:</strong> {failure.message}
      <div className="row-actions">
        <Button size="sm" onClick={() => void client.retryCommand(failure.command_id)}>
          Retry
        </Button>
        <Button size="sm" variant="ghost" onClick={() => void client.discardCommand(failure.command_id)}>
          Discard
        </Button>
      </div>
    </div>
  );
}

export function ClaimFacts({ claim, reference, claimant = false }: { claim: ClaimView; reference: ReferenceView; claimant?: boolean }) {
  const { names } = reference;
  const rows: [string, ReactNode][] = [];
  if (claimant) rows.push(['Claimant', names.user(claim.user_id) || '—']);
  rows.push(['Type', <span className="claim-type" key="t"><ClaimIcon type={claim.type} /> {TYPE_LABELS[claim.type]}</span>]);
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

/** The receipts region (the same slot as the claim form's), filled by the receipts work. */
export function ClaimReceipts({ children }: { children?: ReactNode }) {
  return (
    <div className="receipt-slot claim-wide" role="group" aria-label="Receipts">
      {children ?? <p className="muted">Receipts: attaching a photo or PDF arrives soon.</p>}
    </div>
  );
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function ClaimHistory({ claim }: { claim: ClaimView }) {
  return (
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
  );
}
