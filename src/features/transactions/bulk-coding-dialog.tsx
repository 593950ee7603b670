import { useState, type FormEvent } from 'react';
import type { DataClient } from '../../data-access/types.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { Modal } from '../../components/modal.tsx';
import { Button } from '../../components/button.tsx';
import type { SelectOption } from '../../components/select-field.tsx';
import { Combobox } from '../../components/combobox.tsx';
import { CLEAR, KEEP, bulkPatch, emptyBulkForm, type BulkForm } from './coding-patch.ts';
import type { ReferenceView } from './use-reference-data.ts';
import { formatCount } from '../../lib/format.ts';

export interface BulkCodingDialogProps {
  ids: string[];
  client: DataClient;
  reference: ReferenceView;
  onDone(): void;
  onCancel(): void;
  /** Where focus goes when the dialog closes and its opener is gone (the grid, once the selection clears). */
  returnFocus(): HTMLElement | null | undefined;
}

/**
 * Codes many transactions at once. Every field starts at "No change": only what the user sets
 * goes into the patch. Applied locally at once; the outbox delivers it (10,000 per call).
 */
export function BulkCodingDialog({ ids, client, reference, onDone, onCancel, returnFocus }: BulkCodingDialogProps) {
  const [form, setForm] = useState<BulkForm>(emptyBulkForm);
  const [busy, setBusy] = useState(false);
  const patch = bulkPatch(form);
  const count = formatCount(ids.length);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!patch) return;
    setBusy(true);
    try {
      // One call: the worker splits the selection into outbox entries of at most 10,000.
      const result = await client.run('transaction.bulkCode', { transaction_ids: ids, patch });
      if (!result.ok) return toastError(result.error.message);
      toastInfo(`Coded ${count} ${ids.length === 1 ? 'transaction' : 'transactions'}. Changes sync in the background.`);
      onDone();
    } finally {
      setBusy(false);
    }
  }

  const { options, data } = reference;
  return (
    <Modal
      title={`Code ${count} ${ids.length === 1 ? 'transaction' : 'transactions'}`}
      onClose={onCancel}
      description="Fields left at “No change” keep each transaction’s current value."
      onSubmit={onSubmit}
      returnFocus={returnFocus}
      closeOnBackdrop
    >
      <div className="modal-fields">
        <BulkSelect label="GL account" value={form.gl_account_id} options={options.glAccounts} onChange={(v) => setForm({ ...form, gl_account_id: v })} />
        <BulkSelect label="Department" value={form.department_id} options={options.departments} onChange={(v) => setForm({ ...form, department_id: v })} />
        <BulkSelect label="Location" value={form.location_id} options={options.locations} onChange={(v) => setForm({ ...form, location_id: v })} />
        {data.tracking_categories.map((cat) => (
          <BulkSelect
            key={cat.id}
            label={cat.name}
            value={form.tracking[cat.id] ?? KEEP}
            options={cat.options.map((o) => ({ value: o.id, label: o.name }))}
            onChange={(v) => setForm({ ...form, tracking: { ...form.tracking, [cat.id]: v } })}
          />
        ))}
        <div className="field">
          <label className="check">
            <input
              type="checkbox"
              checked={form.memo.set}
              onChange={(e) => setForm({ ...form, memo: { ...form.memo, set: e.target.checked } })}
            />
            Set memo
          </label>
          <input
            type="text"
            aria-label="Memo"
            maxLength={2000}
            disabled={!form.memo.set}
            placeholder={form.memo.set ? 'Empty clears the memo' : 'No change'}
            value={form.memo.value}
            onChange={(e) => setForm({ ...form, memo: { ...form.memo, value: e.target.value } })}
          />
        </div>
      </div>
      <div className="modal-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" loading={busy} disabled={!patch}>
          {`Apply to ${count}`}
        </Button>
      </div>
    </Modal>
  );
}

/** "No change" keeps each transaction's value; "Clear" empties it. */
const BULK_CHOICES: readonly SelectOption[] = [
  { value: KEEP, label: 'No change' },
  { value: CLEAR, label: 'Clear' },
];

function BulkSelect(props: { label: string; value: string; options: readonly SelectOption[]; onChange(v: string): void }) {
  return <Combobox {...props} leading={BULK_CHOICES} />;
}
