import { Facts, syncFact, type Fact } from './facts.tsx';
import { useEffect, useState, type ReactNode } from 'react';
import { formatLocalDateTime, formatMoney } from '../lib/format.ts';
import type { DataClient } from '../data-access/types.ts';
import { claimTimeline, formatClaimDate, STATUS_LABELS, STATUS_TONES, TYPE_LABELS, type ClaimView } from '../lib/claim-labels.ts';
import type { ReferenceView } from '../lib/reference-data.ts';
import { receiptStateText, receiptStateTone, useReceiptsWithRemote, type ReceiptDisplay } from '../lib/receipts.ts';
import { Button, buttonClass } from './button.tsx';
import { ClaimIcon } from './claim-icon.tsx';
import { Modal } from './modal.tsx';
import { ReceiptThumbnail } from './receipt-thumbnail.tsx';
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

/** A change the server refused (kept under its old name for the drawers that import it from here). */
export { RefusedChange as ClaimRefusal } from './refused-change.tsx';

export function ClaimFacts({ claim, reference, claimant = false }: { claim: ClaimView; reference: ReferenceView; claimant?: boolean }) {
  const { names } = reference;
  const rows: Fact[] = [];
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
    syncFact(claim),
  );
  return (
    <Facts rows={rows} />
  );
}

/**
 * The receipts region. Given the claim and the client it shows the claim's receipts as
 * thumbnails (fetched from the server when they are not on this device, kept for offline); a
 * thumbnail opens the full image or PDF. `children` (e.g. the claimant's capture widget) follow.
 */
export function ClaimReceipts({ claim, client, version = 0, children }: {
  claim?: Pick<ClaimView, 'id' | 'receipt_ids'>; client?: DataClient; version?: number; children?: ReactNode;
}) {
  return (
    <div className="receipt-slot claim-wide" role="group" aria-label="Receipts">
      {claim && client ? <ClaimReceiptList ids={claim.receipt_ids} client={client} version={version} /> : null}
      {children ?? (!claim || !client ? <p className="muted">No receipts.</p> : null)}
    </div>
  );
}

function ClaimReceiptList({ ids, client, version }: { ids: readonly string[]; client: DataClient; version: number }) {
  const receipts = useReceiptsWithRemote(client, ids, version);
  const [open, setOpen] = useState<ReceiptDisplay | null>(null);
  if (ids.length === 0) return <p className="muted">No receipts.</p>;
  return (
    <>
      <ul className="receipt-list">
        {receipts.map((r) => (
          <ReceiptThumbnail key={r.id} name={r.name} url={r.url} contentType={r.content_type} loading={r.loading}
            stateText={receiptStateText(r)} tone={r.state === 'remote' ? 'neutral' : receiptStateTone(r.state)}
            onOpen={r.state === 'remote' ? undefined : () => setOpen(r)} />
        ))}
      </ul>
      {open && <ReceiptLightbox receipt={open} client={client} onClose={() => setOpen(null)} />}
    </>
  );
}

/** The full receipt: an image shown whole, a PDF opened in a new tab from a link. */
export function ReceiptLightbox({ receipt, client, onClose }: { receipt: ReceiptDisplay; client: DataClient; onClose: () => void }) {
  const [file, setFile] = useState<{ url: string; type: string } | null | 'missing'>(null);
  useEffect(() => {
    let live = true;
    let url = '';
    void client.receiptFile(receipt.id).then((blob) => {
      if (!live) return;
      if (!blob) return setFile('missing');
      url = URL.createObjectURL(blob);
      setFile({ url, type: blob.type || receipt.content_type || '' });
    });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [client, receipt.id, receipt.content_type]);
  return (
    <Modal title={receipt.name} onClose={onClose} closeOnBackdrop size="lg">
      {file === null ? (
        <p className="muted" aria-busy="true">Loading…</p>
      ) : file === 'missing' ? (
        <p className="muted">Not available offline</p>
      ) : file.type === 'application/pdf' ? (
        <p className="muted">A PDF: open it in a new tab.</p>
      ) : (
        <img className="receipt-lightbox-image" src={file.url} alt={receipt.name} />
      )}
      <div className="modal-actions">
        <a className={buttonClass({ variant: 'ghost' })} href={file && file !== 'missing' ? file.url : undefined} target="_blank" rel="noopener noreferrer"
          aria-disabled={!file || file === 'missing'}>
          Open in a new tab
        </a>
        <Button onClick={onClose}>Close</Button>
      </div>
    </Modal>
  );
}


export function ClaimHistory({ claim }: { claim: ClaimView }) {
  return (
    <section aria-labelledby={`${claim.id}-history`}>
      <h3 id={`${claim.id}-history`} className="claim-section-title">History</h3>
      <ol className="claim-timeline">
        {claimTimeline(claim).map((step) => (
          <li key={step.label}>
            <span className="claim-timeline-label">{step.label}</span>
            {step.at && <time dateTime={step.at} className="muted"> {formatLocalDateTime(step.at)}</time>}
            {step.detail && <div className="muted">{step.detail}</div>}
          </li>
        ))}
      </ol>
    </section>
  );
}
