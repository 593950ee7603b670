import { Link } from '@tanstack/react-router';
import { MAX_ATTENDEES } from '../../../schema/entities/transaction.ts';
import { Button } from '../../components/button.tsx';
import { Combobox } from '../../components/combobox.tsx';
import { ReceiptCapture } from '../../components/receipt-capture.tsx';
import { ReceiptThumbnail } from '../../components/receipt-thumbnail.tsx';
import type { SelectOption } from '../../components/select-field.tsx';
import type { TransactionView } from '../../data-access/types.ts';
import type { CardView } from '../../lib/cards.ts';
import { cardName } from '../../lib/card-labels.ts';
import { formatMoney, formatUtcDateTime } from '../../lib/format.ts';
import { receiptStateText, receiptStateTone, type useTransactionReceipts } from '../../lib/receipts.ts';
import type { DrawerValues } from './drawer-form.ts';
import { CardStatePill, SyncMark } from './status-marks.tsx';
import type { ReferenceView } from './use-reference-data.ts';
import type { useDetailDrawer } from './use-detail-drawer.ts';

/** The amount and the facts: date, cardholder, card (a link to it), category, state, sync. */
export function TransactionFacts({ txn, card, names }: { txn: TransactionView; card: CardView | null | undefined; names: ReferenceView['names'] }) {
  return (
    <>
      <div className="drawer-amount">{formatMoney(txn.amount, txn.currency)}</div>
      <dl className="facts">
        <dt>Date</dt>
        <dd>{formatUtcDateTime(txn.occurred_at)}</dd>
        <dt>Cardholder</dt>
        <dd>{names.user(txn.user_id)}</dd>
        <dt>Card</dt>
        <dd>{card ? <Link to="/cards" search={{ open: card.id }}>{cardName(card)}</Link> : '—'}</dd>
        <dt>Category</dt>
        <dd>{txn.merchant_category || '—'}</dd>
        <dt>State</dt>
        <dd>
          <CardStatePill state={txn.state} />
        </dd>
        <dt>Sync</dt>
        <dd>{txn.pending ? <SyncMark row={txn} /> : 'Synced'}</dd>
      </dl>
    </>
  );
}

type Edit = (patch: Partial<DrawerValues>) => void;

/** Memo and attendees; a reader (auditor, guest) is told why the fields are shut. */
export function MemoFields({ form, edit, viewOnly }: { form: DrawerValues; edit: Edit; viewOnly: boolean }) {
  return (
    <>
      <label className="field">
        <span className="field-label">Memo</span>
        <textarea rows={3} maxLength={2000} value={form.memo ?? ''} aria-describedby={viewOnly ? 'txn-view-only' : undefined}
          onChange={(e) => edit({ memo: e.target.value })} />
        {/* Why the fields are shut (an exported row says so in its own notice above). */}
        {viewOnly && (
          <span id="txn-view-only" className="field-hint muted">
            View only: your role can see transactions but not change their memo or coding.
          </span>
        )}
      </label>
      <label className="field">
        <span className="field-label">Attendees</span>
        <textarea rows={2} value={form.attendees} aria-describedby="txn-attendees-hint" onChange={(e) => edit({ attendees: e.target.value })} />
        <span id="txn-attendees-hint" className="field-hint muted">
          Who was there: one name or email a line (up to {MAX_ATTENDEES}).
        </span>
      </label>
    </>
  );
}

type Suggestion = NonNullable<ReturnType<typeof useDetailDrawer>['suggestion']>;

/** A mapping rule's coding for an uncoded row, applied to the form on request (issue 12). */
export function SuggestionNote({ suggestion, form, edit, names, onDismiss }: {
  suggestion: Suggestion; form: DrawerValues; edit: Edit; names: ReferenceView['names']; onDismiss: () => void;
}) {
  const { rule, coding } = suggestion;
  return (
    <div className="coding-suggestion" role="note">
      <span>
        Suggested by a mapping rule ({rule.match_field === 'merchant_category' ? 'category' : 'merchant'} {rule.match_operator === 'contains' ? 'contains' : 'is'} “{rule.match_value}”):{' '}
        <strong>{[names.glAccount(coding.gl_account_id), names.department(coding.department_id)].filter(Boolean).join(', ') || 'tracking'}</strong>
      </span>
      <Button
        size="sm"
        onClick={() => edit({
          ...(coding.gl_account_id !== null && { gl_account_id: coding.gl_account_id }),
          ...(coding.department_id !== null && { department_id: coding.department_id }),
          tracking: { ...form.tracking, ...coding.tracking },
        })}
      >
        Apply suggestion
      </Button>
      {/* Issue 29: stored (and synced) so this transaction is not suggested this coding again. */}
      <Button size="sm" variant="ghost" onClick={onDismiss}>
        Dismiss suggestion
      </Button>
    </div>
  );
}

/** GL account, department, location and the business's tracking categories. */
export function CodingFields({ txn, form, edit, reference }: { txn: TransactionView; form: DrawerValues; edit: Edit; reference: ReferenceView }) {
  const { names, options, data } = reference;
  return (
    <>
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
    </>
  );
}

/** The row's receipts: thumbnails (removable by a coder) and the capture control. */
export function ReceiptsSection({ receipts, canCode }: { receipts: ReturnType<typeof useTransactionReceipts>; canCode: boolean }) {
  return (
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
