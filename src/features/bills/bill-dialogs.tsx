import { useState, type FormEvent } from 'react';
import { MAX_BILL_MEMO_LENGTH } from '../../../schema/entities/bill.ts';
import { Button } from '../../components/button.tsx';
import { DateField } from '../../components/date-field.tsx';
import { Modal } from '../../components/modal.tsx';
import { TextField } from '../../components/text-field.tsx';
import { formatCount, formatMoney } from '../../lib/format.ts';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import type { VendorPaymentCheck } from '../../../schema/vendor-rules.ts';
import type { PayPlan } from './bill-actions.ts';

/** Moved to src/components (accounting confirms with it too); re-exported for bill pay's dialogs. */
export { ConfirmDialog, type ConfirmDialogProps } from '../../components/confirm-dialog.tsx';

export type BulkValueKind = 'due_date' | 'payment_date' | 'memo';

const VALUE_WORDS: Record<BulkValueKind, { title: string; label: string; apply: string }> = {
  due_date: { title: 'Set due date', label: 'Due date', apply: 'Set due date' },
  payment_date: { title: 'Set payment date', label: 'Payment date', apply: 'Schedule payment' },
  memo: { title: 'Set memo', label: 'Memo', apply: 'Set memo' },
};

export interface BulkValueDialogProps {
  kind: BulkValueKind;
  /** Bills the action will be sent for. */
  count: number;
  /** Selected bills left out (their status refuses the action). */
  skipped: number;
  /** The earliest date allowed (payment dates: today). */
  min?: string;
  onClose(): void;
  onApply(value: string): Promise<boolean>;
  returnFocus?: () => HTMLElement | null | undefined;
}

/** The value a bulk date or memo action sets on every bill it is sent for. */
export function BulkValueDialog({ kind, count, skipped, min, onClose, onApply, returnFocus }: BulkValueDialogProps) {
  const words = VALUE_WORDS[kind];
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const bills = `${formatCount(count)} ${count === 1 ? 'bill' : 'bills'}`;
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (kind !== 'memo' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return setError(`Choose the ${words.label.toLowerCase()}.`);
    if (kind !== 'memo' && min && value < min) return setError('Choose today or a later day.');
    if (kind === 'memo' && value.length > MAX_BILL_MEMO_LENGTH) return setError(`A memo can be at most ${formatCount(MAX_BILL_MEMO_LENGTH)} characters.`);
    setBusy(true);
    try {
      if (await onApply(value)) onClose();
    } finally {
      setBusy(false);
    }
  }
  const description = `For ${bills}${skipped > 0 ? `; ${formatCount(skipped)} selected ${skipped === 1 ? 'bill is' : 'bills are'} left as ${skipped === 1 ? 'it is' : 'they are'} (their status does not allow it)` : ''}.${kind === 'memo' ? ' Leave it empty to clear the memo.' : ''}`;
  return (
    <Modal title={words.title} description={description} onClose={onClose} onSubmit={submit} returnFocus={returnFocus}>
      {kind === 'memo' ? (
        <TextField label={words.label} value={value} autoFocus error={error} onChange={(v) => { setValue(v); setError(null); }} />
      ) : (
        <DateField label={words.label} value={value} error={error} onChange={(v) => { setValue(v); setError(null); }} />
      )}
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy}>
          {words.apply} for {bills}
        </Button>
      </div>
    </Modal>
  );
}

/** The pay confirmation's summary: what moves (count and total per currency) and what is skipped, and why. */
export function PaySummary<B extends { id: string; vendor_id: string; invoice_number: string; currency: string; amount: number }>({
  plan, vendorName,
}: { plan: PayPlan<B>; vendorName(id: string): string }) {
  return (
    <div className="bill-pay-summary">
      {plan.totals.length > 0 && (
        <ul className="bill-pay-totals" aria-label="What moves">
          {plan.totals.map((t) => (
            <li key={t.currency}>
              <span>{formatCount(t.count)} {t.count === 1 ? 'payment' : 'payments'} in {t.currency}</span>
              <strong>{formatMoney(t.amount, t.currency)}</strong>
            </li>
          ))}
        </ul>
      )}
      {plan.skipped.length > 0 && (
        <div className="bill-pay-skipped" role="note" data-testid="bill-pay-skipped">
          <strong>{formatCount(plan.skipped.length)} {plan.skipped.length === 1 ? 'bill is' : 'bills are'} not paid:</strong>
          <ul aria-label="Skipped">
            {plan.skipped.map(({ bill, reason }) => (
              <li key={bill.id}>
                <span className="bill-pay-vendor">{vendorName(bill.vendor_id) || 'Vendor'} · {bill.invoice_number} · {formatMoney(bill.amount, bill.currency)}</span>
                <span className="bill-pay-reason">{reason}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** Why this bill cannot be paid through Ledgerline, and the way forward: the vendor's bank details. */
export function CannotPay({ check, vendor, online, onAdd }: { check: Exclude<VendorPaymentCheck, { ok: true }>; vendor: Vendor; online: boolean; onAdd(): void }) {
  const canAdd = check.reason !== 'CURRENCY';
  return (
    <div className="notice notice-warn bill-cannot-pay" role="note" data-testid="bill-cannot-pay">
      <p><strong>Can’t pay yet.</strong> {check.message}</p>
      {canAdd && (
        <div className="row-actions">
          <Button size="sm" variant="primary" disabled={!online} title={online ? undefined : 'This needs a connection.'} onClick={onAdd}>
            {vendor.bank_account ? 'Update bank details' : 'Add bank details'}
          </Button>
        </div>
      )}
    </div>
  );
}
