import { useEffect, useMemo, useState } from 'react';
import { splitIsStale } from '../../../schema/attendee-split.ts';
import { Button } from '../../components/button.tsx';
import type { DataClient, TransactionView } from '../../data-access/types.ts';
import { formatMoney, formatUtcDateTime } from '../../lib/format.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import type { ReferenceView } from './use-reference-data.ts';
import { initialAmounts, liveSplit, pickPurchase, purchaseFilter, sameAsSaved, splitRows, type SplitMode } from './attendee-split-form.ts';
import '../../styles/attendee-split.css';

const MODES: { mode: SplitMode; label: string }[] = [{ mode: 'even', label: 'Split evenly' }, { mode: 'custom', label: 'Custom amounts' }];

/**
 * Issue 32: the amount split across the saved attendees, evenly (the schema's rounding rule) or by
 * custom amounts with a live "left to assign" line. Saved through the outbox (offline too), like
 * the attendees' own edit; "Remove split" clears it the same way. The drawer keys it by the
 * transaction and its attendees, so another row or a new list starts again from what is saved.
 */
export function AttendeeSplitSection({ txn, client, reference, canEdit }: { txn: TransactionView; client: DataClient; reference: ReferenceView; canEdit: boolean }) {
  const saved = txn.attendee_split ?? null;
  // Keyed by the text: every re-read brings a new array, and typing must survive a sync.
  const attendeesText = (txn.attendees ?? []).join('\n');
  const rows = useMemo(() => splitRows(attendeesText ? attendeesText.split('\n') : [], reference.data.users), [attendeesText, reference.data.users]);
  const [mode, setMode] = useState<SplitMode>(saved?.mode ?? 'even');
  const [typed, setTyped] = useState<string[]>(() => initialAmounts(rows, saved, txn.currency));
  const [busy, setBusy] = useState(false);
  if (rows.length === 0 && !saved) return null;
  const live = liveSplit(txn.amount, txn.currency, mode, rows, typed);
  const unchanged = sameAsSaved(saved, live.body) && !splitIsStale(saved!, txn);

  async function run(name: 'transaction.splitAttendees' | 'transaction.clearAttendeeSplit') {
    setBusy(true);
    try {
      const names = Object.fromEntries(rows.flatMap((r) => (r.attendee.kind === 'internal' ? [[r.attendee.user_id, r.label]] : [])));
      const result = name === 'transaction.splitAttendees'
        ? await client.run(name, { transaction_id: txn.id, split: live.body!, names })
        : await client.run(name, { transaction_id: txn.id });
      if (!result.ok) return toastError(result.error.message);
      toastInfo(name === 'transaction.splitAttendees' ? 'Split saved. It syncs in the background.' : 'Split removed.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <fieldset className="attendee-split" disabled={!canEdit || busy}>
      <legend className="attendee-split-heading">Split between attendees</legend>
      {saved && splitIsStale(saved, txn) && (
        <p className="field-hint" role="note">
          This split was made for {formatMoney(saved.total, saved.currency)}; the transaction is now {formatMoney(txn.amount, txn.currency)}. Update the split to divide the new amount.
        </p>
      )}
      <div className="segmented" role="radiogroup" aria-label="How to split">
        {MODES.map((m) => (
          <label key={m.mode}>
            <input type="radio" name={`split-mode-${txn.id}`} value={m.mode} checked={mode === m.mode} onChange={() => setMode(m.mode)} />
            <span>{m.label}</span>
          </label>
        ))}
      </div>
      <ul className="attendee-split-list">
        {rows.map((r, i) => (
          <li key={`${i}:${r.label}`} className="attendee-split-row">
            <span>{r.label}{r.attendee.kind === 'internal' ? '' : ' · guest'}</span>
            {mode === 'even'
              ? <span className="attendee-split-amount">{formatMoney(live.shares[i] ?? 0, txn.currency)}</span>
              : <input inputMode="decimal" aria-label={`Amount for ${r.label}`} value={typed[i] ?? ''} placeholder="0.00"
                  aria-invalid={live.shares[i] === null || undefined}
                  onChange={(e) => setTyped((t) => rows.map((_, j) => (j === i ? e.target.value : (t[j] ?? ''))))} />}
          </li>
        ))}
      </ul>
      <p className="attendee-split-status" aria-live="polite" data-tone={live.body ? 'done' : undefined}>{live.problem && live.problem !== live.status ? live.problem : live.status}</p>
      <div className="attendee-split-actions">
        <Button size="sm" variant="primary" disabled={!live.body || unchanged} loading={busy} onClick={() => void run('transaction.splitAttendees')}>
          {saved ? 'Update split' : 'Split the amount'}
        </Button>
        {saved && <Button size="sm" onClick={() => void run('transaction.clearAttendeeSplit')}>Remove split</Button>}
      </div>
    </fieldset>
  );
}

/**
 * Issue 32: a refund without receipts is offered its original purchase's (the newest purchase on
 * the same card at the same merchant, with receipts, made before it). The same files are linked.
 */
export function CopyReceiptsOffer({ txn, client, canEdit, dataVersion }: { txn: TransactionView; client: DataClient; canEdit: boolean; dataVersion: number }) {
  const [found, setFound] = useState<{ forId: string; purchase: TransactionView | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const eligible = canEdit && txn.amount < 0 && txn.receipt_ids.length === 0;
  useEffect(() => {
    if (!eligible) return;
    let live = true;
    void client.queryTransactions({ filter: purchaseFilter(txn), sort: 'occurred_desc', offset: 0, limit: 20 })
      .then((r) => live && setFound({ forId: txn.id, purchase: pickPurchase(txn, r.rows) }));
    return () => {
      live = false;
    };
  }, [client, txn, eligible, dataVersion]);
  const purchase = found?.forId === txn.id ? found.purchase : null;
  if (!eligible || !purchase) return null;

  async function copy() {
    if (!purchase) return;
    setBusy(true);
    try {
      const result = await client.run('transaction.copyReceipts', { transaction_id: txn.id, source_transaction_id: purchase.id, receipt_ids: [...purchase.receipt_ids] });
      if (!result.ok) return toastError(result.error.message);
      toastInfo(`Receipts copied from the ${formatMoney(purchase.amount, purchase.currency)} purchase.`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="copy-receipts">
      <p>
        The original purchase ({formatMoney(purchase.amount, purchase.currency)} on {formatUtcDateTime(purchase.occurred_at)}) has{' '}
        {purchase.receipt_ids.length === 1 ? 'a receipt' : `${purchase.receipt_ids.length} receipts`}.
      </p>
      <Button size="sm" loading={busy} onClick={() => void copy()}>Copy receipts from the original purchase</Button>
    </div>
  );
}
