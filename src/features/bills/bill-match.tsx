import { useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import type { PoMatch } from '../../../schema/bill-match.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { isAdmin } from '../../../schema/roles.ts';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatLocalDateTime, formatMoney } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { MATCH_LABELS, MATCH_TONES, matchLines, overrideText } from './bill-match-view.ts';
import type { BillView } from './use-bills.ts';

/** The override's reason: the call's limit. */
const MAX_REASON = 1000;

export interface BillMatchProps {
  bill: BillView;
  reference: ReferenceView;
  client: DataClient;
  online: boolean;
}

/**
 * Issue 28: a bill naming a purchase order shows its three-way match (`po_match`, the server's):
 * green when it matches, red with each reason per line, amber when an admin overrode it (who,
 * when, why). Admins get "Override match…" on a mismatch (online; a reason is required, audited).
 */
export function BillMatch({ bill, reference, client, online }: BillMatchProps) {
  const [overriding, setOverriding] = useState(false);
  // Admins may override a mismatch (the server checks too).
  const admin = useAppState((s) => (s.session ? isAdmin(s.session.user) : false));
  if (!bill.purchase_order_id) return null;
  const po = reference.data.purchase_orders.find((p) => p.id === bill.purchase_order_id);
  const m = bill.po_match;
  const lines = matchLines(bill, po, (n) => formatMoney(n, bill.currency));
  const override = overrideText(m, reference.names.user, formatLocalDateTime);
  return (
    <section aria-labelledby={`${bill.id}-match`} className={m ? `bill-match bill-match-${m.status.toLowerCase()}` : 'bill-match'}>
      <h3 id={`${bill.id}-match`} className="claim-section-title">Purchase order match</h3>
      <div className="marks">
        {po ? (
          <Link to="/purchase-orders/$poId" params={{ poId: po.id }}>{po.po_number}</Link>
        ) : (
          <span className="muted">A purchase order not on this device</span>
        )}
        {m ? <StatusPill tone={MATCH_TONES[m.status]}>{MATCH_LABELS[m.status]}</StatusPill> : <StatusPill tone="sync">Not checked yet</StatusPill>}
      </div>
      {!m && <p className="muted">The server checks the bill against the purchase order and its receipts once it has the bill.</p>}
      {m && m.reasons.length > 0 && (
        <ul className="bill-match-reasons">
          {m.reasons.map((r) => <li key={r.code}>{r.text}</li>)}
        </ul>
      )}
      {override && <p className="notice notice-warn">{override}</p>}
      {lines.length > 0 && (
        <ul className="bill-match-lines">
          {lines.map((l) => (
            <li key={l.id} className={l.matched ? 'bill-match-line matched' : 'bill-match-line mismatched'}>
              <span className="bill-match-line-head">
                <span className="bill-match-icon" aria-hidden="true">{l.matched ? '✓' : '✕'}</span>
                <strong>{l.label}</strong>
                <span className="sr-only">{l.matched ? ': matches' : ': does not match'}</span>
              </span>
              <span className="muted">
                {l.poLine ? `PO line: ${l.poLine}` : 'No PO line'}{l.billed ? ` · billed ${l.billed}` : ''}
              </span>
              {l.reasons.length > 0 && (
                <ul className="bill-match-line-reasons">
                  {l.reasons.map((r) => <li key={r}>{r}</li>)}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      {m && <p className="muted bill-match-checked">Checked <time dateTime={m.checked_at}>{formatLocalDateTime(m.checked_at)}</time></p>}
      {admin && m?.status === 'MISMATCHED' && (
        <div className="bill-match-override">
          <Button size="sm" disabled={!online} onClick={() => setOverriding(true)}>Override match…</Button>
          {!online && <span className="muted"> Overriding needs a connection.</span>}
        </div>
      )}
      {overriding && m && <OverrideMatchDialog bill={bill} match={m} client={client} onClose={() => setOverriding(false)} />}
    </section>
  );
}

function OverrideMatchDialog({ bill, match, client, onClose }: { bill: BillView; match: PoMatch; client: DataClient; onClose(): void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const count = match.reasons.length + match.lines.reduce((n, l) => n + l.reasons.length, 0);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const text = reason.trim();
    if (!text) return setError('Say why this bill may be paid as it is.');
    setBusy(true);
    try {
      const r = await client.overrideBillMatch(bill.id, text);
      if (!r.ok) return setFormError(errorText(r.error));
      toastInfo(`Match overridden: invoice ${bill.invoice_number} can be paid.`);
      onClose();
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal
      title="Override the match?"
      description={`Invoice ${bill.invoice_number} does not match its purchase order (${count} ${count === 1 ? 'reason' : 'reasons'}). Overriding lets it be paid as it is; your name and reason are recorded.`}
      onClose={onClose}
      onSubmit={submit}
    >
      <FormError message={formError} />
      <label className="field" data-field="reason">
        <span className="field-label">Reason</span>
        <textarea rows={3} maxLength={MAX_REASON} value={reason} aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${bill.id}-override-error` : undefined}
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }} />
        {error && <span id={`${bill.id}-override-error`} className="field-error">{error}</span>}
      </label>
      <ModalActions submitLabel="Override match" busy={busy} onCancel={onClose} />
    </Modal>
  );
}
