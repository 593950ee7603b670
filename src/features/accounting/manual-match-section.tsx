import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section } from '../../components/section.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { manualMatchInput, type ManualMatchFormValues, type ManualMatchErrors } from './accounting-forms.ts';

const KIND_OPTIONS = [
  { value: 'bill', label: 'A bill it paid' },
  { value: 'bank_line', label: 'A bank statement line' },
];

/**
 * Reconciliation's manual match (`POST …/reconciliation/manual-match`): a card transaction tied
 * to the bill it paid (same currency and amount, checked by the server) or to a bank line's id.
 * The ids are pasted (from the transaction's and the bill's address or your bank's export).
 */
export function ManualMatchSection({ client, online }: { client: DataClient; online: boolean }) {
  const [values, setValues] = useState<ManualMatchFormValues>({ transaction_id: '', kind: 'bill', target: '' });
  const [errors, setErrors] = useState<ManualMatchErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<ManualMatchFormValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setErrors({});
    setDone(null);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    setDone(null);
    const built = manualMatchInput(values);
    if (!built.ok) return setErrors(built.errors);
    setBusy(true);
    try {
      const r = await client.manualMatch(built.body);
      if (!r.ok) return setFormError(errorText(r.error));
      setDone(r.match.bill_id ? 'Matched: the transaction is recorded as the payment of that bill.' : 'Matched: the transaction is recorded against that bank line.');
      setValues({ transaction_id: '', kind: values.kind, target: '' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title="Manual match" description="Reconcile a card transaction by hand: tie it to the bill it paid, or to a line of your bank statement.">
      <form className="accounting-match" onSubmit={(e) => void submit(e)} aria-label="Manual match">
        <FormError message={formError} />
        <div className="accounting-fields">
          <TextField field="transaction_id" label="Transaction id" value={values.transaction_id} autoComplete="off" error={errors.transaction_id}
            hint="The id in the transaction’s address (…/transactions?open=…)." onChange={(v) => set({ transaction_id: v })} />
          <SelectField label="Match to" value={values.kind} options={KIND_OPTIONS} onChange={(v) => set({ kind: v as ManualMatchFormValues['kind'], target: '' })} />
          <TextField field="target" label={values.kind === 'bill' ? 'Bill id' : 'Bank line id'} value={values.target} autoComplete="off" maxLength={200}
            error={errors.target}
            hint={values.kind === 'bill' ? 'The id in the bill’s address; same currency and amount as the transaction.' : 'As your bank’s statement export names the line.'}
            onChange={(v) => set({ target: v })} />
        </div>
        <div className="accounting-form-actions">
          <Button type="submit" loading={busy} disabled={!online}>
            Match
          </Button>
        </div>
        <div aria-live="polite">{done && <p className="notice">{done}</p>}</div>
      </form>
    </Section>
  );
}
