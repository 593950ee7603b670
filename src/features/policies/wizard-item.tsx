import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { CodingField, Violation } from '../../../schema/expense-policy.ts';
import type { MissingItemView } from '../../../workers/api.ts';
import { Button } from '../../components/button.tsx';
import { Combobox } from '../../components/combobox.tsx';
import { ReceiptCapture } from '../../components/receipt-capture.tsx';
import { ReceiptThumbnail } from '../../components/receipt-thumbnail.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';
import { receiptStateText, receiptStateTone, storeReceipts, useReceipts, reportAdded } from '../../lib/receipts.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastError } from '../../lib/toast-store.ts';
import { missingWords, type CodingValues, wizardPatch } from './wizard-patch.ts';

export interface WizardItemProps {
  client: DataClient;
  /** As it is now (or, once fixed, as first seen). */
  item: MissingItemView;
  fixed: boolean;
  dataVersion: number;
  reference: ReferenceView;
  canGoBack: boolean;
  isLast: boolean;
  onBack(): void;
  onSkip(): void;
  onNext(): void;
}

const has = (item: MissingItemView, code: Violation['code']) => item.violations.some((v) => v.code === code);
const CODING_LABELS: Record<CodingField, string> = { gl_account_id: 'GL account', department_id: 'Department', location_id: 'Location' };

/**
 * One item of the walk: what it is (merchant, amount, date), what is missing in words, and a
 * step for each: the receipt (a photo: the back camera on a phone; attached at once through the
 * outbox), the memo, the coding. Next saves the memo and coding typed (one command) and moves on.
 */
export function WizardItem({ client, item, fixed, dataVersion, reference, canGoBack, isLast, onBack, onSkip, onNext }: WizardItemProps) {
  // The steps are the ones the item needed when it was first shown; each is ticked once done.
  const [steps] = useState(() => ({ receipt: has(item, 'missing_receipt'), memo: has(item, 'missing_memo'), coding: item.violations.find((v) => v.code === 'missing_coding')?.fields ?? [] }));
  const [memo, setMemo] = useState(item.memo ?? '');
  const [coding, setCoding] = useState<CodingValues>({ gl_account_id: item.gl_account_id, department_id: item.department_id, location_id: item.location_id });
  const [saving, setSaving] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const receipts = useReceipts(client, item.receipt_ids, dataVersion);
  const patch = wizardPatch(item, memo, coding);
  const receiptDone = steps.receipt && (fixed || !has(item, 'missing_receipt'));

  async function addReceipt(files: File[]) {
    const inputs = files.map((f) => ({ name: f.name, type: f.type, file: f as Blob }));
    if (item.object_type === 'transaction') {
      reportAdded(await client.addReceipts(inputs, { transaction_id: item.object_id }));
      return;
    }
    const { ids } = await storeReceipts(client, files);
    if (ids.length === 0) return;
    const r = await client.run('reimbursement.update', { reimbursement_id: item.object_id, patch: { receipt_ids: [...item.receipt_ids, ...ids] } });
    if (!r.ok) toastError(r.error.message);
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    if (patch) {
      setSaving(true);
      try {
        const r = item.object_type === 'transaction'
          ? await client.run('transaction.code', { transaction_id: item.object_id, patch })
          : await client.run('reimbursement.update', { reimbursement_id: item.object_id, patch });
        if (!r.ok) return toastError(r.error.message);
      } finally {
        setSaving(false);
      }
    }
    onNext();
  }

  return (
    <form className="wizard-item" onSubmit={(e) => void save(e)} aria-labelledby="wizard-item-title">
      <header className="wizard-item-head">
        <h2 id="wizard-item-title" ref={heading} tabIndex={-1}>{item.merchant}</h2>
        <span className="wizard-item-amount">{formatMoney(item.amount, item.currency)}</span>
        <span className="wizard-item-date">{formatDay(`${item.date}T12:00:00Z`)} · {item.object_type === 'transaction' ? 'Card charge' : 'Claim'}</span>
      </header>
      {fixed ? (
        <p className="wizard-fixed" role="status">Nothing is missing any more: this item leaves your list.</p>
      ) : (
        <div className="wizard-missing">
          <p className="wizard-missing-title">Missing: {missingWords(item.violations)}</p>
          <ul>
            {item.violations.map((v) => <li key={v.code}>{v.message} <span className="muted">({v.policy_name})</span></li>)}
          </ul>
        </div>
      )}
      {steps.receipt && (
        <section className={receiptDone ? 'wizard-step wizard-step-done' : 'wizard-step'} aria-labelledby="step-receipt">
          <h3 id="step-receipt">{receiptDone ? '✓ Receipt added' : 'Add the receipt'}</h3>
          {receipts.length > 0 && (
            <ul className="receipt-list">
              {receipts.map((r) => (
                <ReceiptThumbnail key={r.id} name={r.name} url={r.url} contentType={r.content_type} stateText={receiptStateText(r)} tone={receiptStateTone(r.state)} />
              ))}
            </ul>
          )}
          {!receiptDone && <ReceiptCapture onFiles={(files) => void addReceipt(files)} label="Take a photo of the receipt" accept="image/*" multiple={false} hint="or choose a photo" />}
        </section>
      )}
      {steps.memo && (
        <section className="wizard-step" aria-labelledby="step-memo">
          <h3 id="step-memo">{fixed || !has(item, 'missing_memo') ? '✓ Memo' : 'Add a memo'}</h3>
          <label className="field">
            <span className="field-label">Memo</span>
            <textarea rows={3} maxLength={2000} value={memo} onChange={(e) => setMemo(e.target.value)} placeholder="What was it for?" />
          </label>
        </section>
      )}
      {steps.coding.length > 0 && (
        <section className="wizard-step" aria-labelledby="step-coding">
          <h3 id="step-coding">{fixed || !has(item, 'missing_coding') ? '✓ Coding' : 'Code it'}</h3>
          {steps.coding.map((f) => (
            <Combobox key={f} label={CODING_LABELS[f]} value={coding[f] ?? ''} leading={[{ value: '', label: 'None' }]}
              options={f === 'gl_account_id' ? reference.options.glAccounts : f === 'department_id' ? reference.options.departments : reference.options.locations}
              onChange={(v) => setCoding((c) => ({ ...c, [f]: v || null }))} />
          ))}
        </section>
      )}
      <div className="wizard-actions">
        {canGoBack && <Button variant="ghost" onClick={onBack}>Back</Button>}
        <span className="spacer" />
        <Button onClick={onSkip}>Skip</Button>
        <Button type="submit" variant="primary" loading={saving}>
          {patch ? (isLast ? 'Save and finish' : 'Save and next') : isLast ? 'Finish' : 'Next'}
        </Button>
      </div>
    </form>
  );
}
