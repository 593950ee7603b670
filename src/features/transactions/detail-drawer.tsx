import { useEffect, useRef, useState, type FormEvent } from 'react';
import { suggestCoding } from '../../../schema/mapping-rules.ts';
import { formatMoney, formatUtcDateTime } from '../../lib/format.ts';
import type { DataClient, TransactionView } from '../../data-access/types.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import type { SelectOption } from '../../components/select-field.tsx';
import { Combobox } from '../../components/combobox.tsx';
import { diffCoding, type CodingValues } from './coding-patch.ts';
import { MAX_ATTENDEES } from '../../../schema/entities/transaction.ts';
import type { CodingPatch } from '../../../schema/commands/coding-patch.ts';
import { CardStatePill, SyncMark } from './status-marks.tsx';
import { Drawer } from '../../components/drawer.tsx';
import { Button } from '../../components/button.tsx';
import type { ReferenceView } from './use-reference-data.ts';
import { ReceiptCapture } from '../../components/receipt-capture.tsx';
import { ReceiptThumbnail } from '../../components/receipt-thumbnail.tsx';
import { receiptStateText, receiptStateTone, useTransactionReceipts } from '../../lib/receipts.ts';
import { Link } from '@tanstack/react-router';
import { useCard } from '../../lib/cards.ts';
import { cardName } from '../../lib/card-labels.ts';
import { SyncedLock } from '../../components/synced-lock.tsx';
import { HeldChargeSection } from '../../components/held-charges.tsx';
import { ConflictNotice } from '../../components/conflict-notice.tsx';

export interface DetailDrawerProps {
  id: string;
  client: DataClient;
  reference: ReferenceView;
  dataVersion: number;
  /** Auditors and guests read but do not code (§6). */
  canCode: boolean;
  onClose(): void;
  /** Where focus goes when the drawer closes (the grid). */
  returnFocus(): HTMLElement | null | undefined;
}

/** The drawer's form: the coding, and the attendees as typed (one name or email a line). */
type DrawerValues = CodingValues & { attendees: string };

const valuesOf = (t: TransactionView): DrawerValues => ({
  memo: t.memo,
  gl_account_id: t.gl_account_id,
  department_id: t.department_id,
  location_id: t.location_id,
  tracking: { ...t.tracking },
  attendees: (t.attendees ?? []).join('\n'),
});

/** Attendees typed one a line (or comma-separated): trimmed, blanks and repeats dropped. */
const attendeeList = (text: string) => [...new Set(text.split(/[\n,]/).map((a) => a.trim()).filter(Boolean))];

/** The coding patch the form asks for (attendees replace the list when they changed), or null. */
function drawerPatch(txn: TransactionView, form: DrawerValues): CodingPatch | null {
  const patch: CodingPatch = diffCoding(valuesOf(txn), form) ?? {};
  const attendees = attendeeList(form.attendees);
  if (attendees.join('\n') !== (txn.attendees ?? []).join('\n')) patch.attendees = attendees;
  return Object.keys(patch).length ? patch : null;
}

/** One transaction: facts, sync state (with the server's reason when refused), memo and coding. */
export function DetailDrawer({ id, client, reference, dataVersion, canCode, onClose, returnFocus }: DetailDrawerProps) {
  const [txn, setTxn] = useState<TransactionView | null | undefined>(undefined);
  const [form, setForm] = useState<DrawerValues | null>(null);
  const [saving, setSaving] = useState(false);
  const dirty = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    dirty.current = false;
    heading.current?.focus();
  }, [id]);

  useEffect(() => {
    let live = true;
    void client.getTransaction(id).then((t) => {
      if (!live) return;
      setTxn(t);
      // A sync update replaces the form only while the user has not started editing.
      if (t && !dirty.current) setForm(valuesOf(t));
    });
    return () => {
      live = false;
    };
  }, [client, id, dataVersion]);

  const edit = (patch: Partial<DrawerValues>) => {
    dirty.current = true;
    setForm((f) => (f ? { ...f, ...patch } : f));
  };

  async function onSave(e: FormEvent) {
    e.preventDefault();
    if (!txn || !form) return;
    const patch = drawerPatch(txn, form);
    if (!patch) return;
    setSaving(true);
    try {
      const result = await client.run('transaction.code', { transaction_id: txn.id, patch });
      if (!result.ok) return toastError(result.error.message);
      dirty.current = false;
      toastInfo('Saved. It syncs in the background.');
    } finally {
      setSaving(false);
    }
  }

  const receipts = useTransactionReceipts(client, txn ?? null, dataVersion);
  // Cards are mirrored rows (issue 10), not reference data: read the card itself.
  const card = useCard(client, txn?.card_id, dataVersion);
  const { names, options, data } = reference;
  const changed = txn && form ? drawerPatch(txn, form) !== null : false;
  // Issue 12: exported to accounting, the coding is locked until the row is marked not synced.
  const locked = !!txn?.accounting_synced_at;
  // Issue 12: an uncoded transaction gets the first matching mapping rule's coding as a suggestion
  // (the rules are mirrored: offline too); nothing changes until the person applies and saves it.
  const suggestion = txn && form && canCode && !locked && txn.gl_account_id === null && form.gl_account_id === null
    ? suggestCoding(data.mapping_rules, { merchant_name: txn.merchant_name, merchant_category: txn.merchant_category })
    : null;

  return (
    // Non-modal: the list beside it stays live (j/k and clicks move the open row).
    <Drawer
      title={txn ? txn.merchant_name : txn === null ? 'Transaction not found' : 'Transaction'}
      titleRef={heading}
      closeLabel="Close details"
      modal={false}
      onClose={onClose}
      returnFocus={returnFocus}
    >
      {/* Outside the coding form: its answers and dialogs are not the form's. */}
      {txn?.fraud_status && (
        <div className="drawer-held">
          <HeldChargeSection tx={txn} />
        </div>
      )}
      {txn && form && (
        <form className="drawer-body" onSubmit={(e) => void onSave(e)}>
          {txn.accounting_synced_at && <SyncedLock client={client} type="transaction" id={txn.id} syncedAt={txn.accounting_synced_at} />}
          <fieldset disabled={!canCode || locked} className="plain-fieldset">
          <div className="drawer-amount">{formatMoney(txn.amount, txn.currency)}</div>
          <dl className="facts">
            <dt>Date</dt>
            <dd>{formatUtcDateTime(txn.occurred_at)}</dd>
            <dt>Cardholder</dt>
            <dd>{names.user(txn.user_id)}</dd>
            <dt>Card</dt>
            <dd>
              {card ? (
                <Link to="/cards" search={{ open: card.id }}>
                  {cardName(card)}
                </Link>
              ) : (
                '—'
              )}
            </dd>
            <dt>Category</dt>
            <dd>{txn.merchant_category || '—'}</dd>
            <dt>State</dt>
            <dd>
              <CardStatePill state={txn.state} />
            </dd>
            <dt>Sync</dt>
            <dd>{txn.pending ? <SyncMark row={txn} /> : 'Synced'}</dd>
          </dl>
          {txn.failure?.conflict && <ConflictNotice commandId={txn.failure.command_id} />}
          {txn.failure && !txn.failure.conflict && (
            <div className="notice notice-error" role="alert">
              <strong>The server refused this change:</strong> {txn.failure.message}
              <div className="row-actions">
                <Button size="sm" onClick={() => void client.retryCommand(txn.failure!.command_id)}>
                  Retry
                </Button>
                <Button size="sm" variant="ghost" onClick={() => void client.discardCommand(txn.failure!.command_id)}>
                  Discard
                </Button>
              </div>
            </div>
          )}
          <label className="field">
            <span className="field-label">Memo</span>
            <textarea
              rows={3}
              maxLength={2000}
              value={form.memo ?? ''}
              aria-describedby={!canCode && !locked ? 'txn-view-only' : undefined}
              onChange={(e) => edit({ memo: e.target.value })}
            />
            {/* Why the fields are shut (an exported row says so in its own notice above). */}
            {!canCode && !locked && (
              <span id="txn-view-only" className="field-hint muted">
                View only: your role can see transactions but not change their memo or coding.
              </span>
            )}
          </label>
          <label className="field">
            <span className="field-label">Attendees</span>
            <textarea
              rows={2}
              value={form.attendees}
              aria-describedby="txn-attendees-hint"
              onChange={(e) => edit({ attendees: e.target.value })}
            />
            <span id="txn-attendees-hint" className="field-hint muted">
              Who was there: one name or email a line (up to {MAX_ATTENDEES}).
            </span>
          </label>
          {suggestion && (
            <div className="coding-suggestion" role="note">
              <span>
                Suggested by a mapping rule ({suggestion.rule.match_field === 'merchant_category' ? 'category' : 'merchant'} {suggestion.rule.match_operator === 'contains' ? 'contains' : 'is'} “{suggestion.rule.match_value}”):{' '}
                <strong>{[names.glAccount(suggestion.coding.gl_account_id), names.department(suggestion.coding.department_id)].filter(Boolean).join(', ') || 'tracking'}</strong>
              </span>
              <Button
                size="sm"
                onClick={() => edit({
                  ...(suggestion.coding.gl_account_id !== null && { gl_account_id: suggestion.coding.gl_account_id }),
                  ...(suggestion.coding.department_id !== null && { department_id: suggestion.coding.department_id }),
                  tracking: { ...form.tracking, ...suggestion.coding.tracking },
                })}
              >
                Apply suggestion
              </Button>
            </div>
          )}
          <CodingSelect label="GL account" value={form.gl_account_id} options={options.glAccounts} current={names.glAccount(txn.gl_account_id)} onChange={(v) => edit({ gl_account_id: v })} />
          <CodingSelect label="Department" value={form.department_id} options={options.departments} onChange={(v) => edit({ department_id: v })} />
          <CodingSelect label="Location" value={form.location_id} options={options.locations} onChange={(v) => edit({ location_id: v })} />
          {data.tracking_categories.map((cat) => (
            <CodingSelect
              key={cat.id}
              label={cat.name}
              value={form.tracking[cat.id] ?? null}
              options={cat.options.map((o) => ({ value: o.id, label: o.name }))}
              onChange={(v) => {
                const tracking = { ...form.tracking };
                if (v) tracking[cat.id] = v;
                else delete tracking[cat.id];
                edit({ tracking });
              }}
            />
          ))}
          </fieldset>
          <section className="receipts" aria-labelledby="receipts-heading">
            <h3 id="receipts-heading" className="receipts-heading">Receipts</h3>
            {receipts.receipts.length === 0 && <p className="receipts-empty">No receipt yet.</p>}
            <ul className="receipt-list">
              {receipts.receipts.map((r) => (
                <ReceiptThumbnail key={r.id} name={r.name} url={r.url} contentType={r.content_type} stateText={receiptStateText(r)}
                  tone={receiptStateTone(r.state)} onRemove={canCode ? () => void receipts.detach(r.id) : undefined} />
              ))}
            </ul>
            {canCode && <ReceiptCapture onFiles={(files) => void receipts.add(files)} />}
          </section>
          <div className="drawer-actions" hidden={!canCode || locked}>
            <Button type="submit" variant="primary" loading={saving} disabled={!changed}>
              Save
            </Button>
            <Button
              disabled={!changed}
              onClick={() => {
                dirty.current = false;
                setForm(valuesOf(txn));
              }}
            >
              Reset
            </Button>
          </div>
        </form>
      )}
    </Drawer>
  );
}

const NONE: SelectOption = { value: '', label: 'None' };

function CodingSelect(props: {
  label: string;
  value: string | null;
  options: readonly SelectOption[];
  /** Name of the current value when it is not offered any more (e.g. an inactive GL account). */
  current?: string;
  onChange(v: string | null): void;
}) {
  const { label, value, options, current, onChange } = props;
  const offered = value === null || options.some((o) => o.value === value);
  const leading = offered ? [NONE] : [NONE, { value, label: current || 'Current value' }];
  return <Combobox label={label} value={value ?? ''} options={options} leading={leading} onChange={(v) => onChange(v || null)} />;
}
