import { useEffect, useState, type FormEvent } from 'react';
import type { MatchTolerances } from '../../../schema/bill-match.ts';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { matchingRulesBody, matchingRulesText, matchingRulesValues, type MatchingRulesValues } from './matching-rules.ts';

export interface MatchingRulesDialogProps {
  client: DataClient;
  online: boolean;
  onClose(): void;
}

/**
 * Admins: the business's three-way match tolerances (price ± %, quantity %), read and saved online
 * (`matchTolerances` / `saveMatchTolerances`); offline the dialog says so and saves nothing. Bills
 * naming a PO are checked again with the new rules by the server.
 */
export function MatchingRulesDialog({ client, online, onClose }: MatchingRulesDialogProps) {
  const [saved, setSaved] = useState<MatchTolerances | null>(null);
  const [values, setValues] = useState<MatchingRulesValues | null>(null);
  const [errors, setErrors] = useState<Partial<Record<keyof MatchingRulesValues, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.matchTolerances().then((r) => {
      if (!live) return;
      if (!r.ok) return setFormError(errorText(r.error));
      setSaved(r.tolerances);
      setValues(matchingRulesValues(r.tolerances));
    });
    return () => {
      live = false;
    };
  }, [client, online]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!values) return;
    const checked = matchingRulesBody(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return setFormError('Check the fields marked below.');
    }
    setBusy(true);
    try {
      const r = await client.saveMatchTolerances(checked.body);
      if (!r.ok) return setFormError(errorText(r.error));
      toastInfo(`Matching rules saved. ${matchingRulesText(checked.body)}`);
      onClose();
    } finally {
      setBusy(false);
    }
  }

  const set = (field: keyof MatchingRulesValues) => (v: string) => {
    setValues((x) => (x ? { ...x, [field]: v } : x));
    setErrors((x) => ({ ...x, [field]: undefined }));
  };
  return (
    <Modal
      title="Matching rules"
      description="How far a bill may differ from its purchase order and still match. A bill outside them cannot be paid until it matches or an admin overrides it."
      onClose={onClose}
      onSubmit={submit}
    >
      <FormError message={formError} />
      {!online && <p className="notice">You’re offline. The matching rules are read and saved on the server: connect to see or change them.</p>}
      {online && !values && !formError && <p className="muted" role="status">Reading the matching rules…</p>}
      {values && (
        <div className="modal-fields">
          <TextField field="price" label="Unit price tolerance (± %)" value={values.price} error={errors.price} onChange={set('price')}
            hint="A bill line’s unit price may be this much above or below the PO line’s." />
          <TextField field="quantity" label="Quantity tolerance (%)" value={values.quantity} error={errors.quantity} onChange={set('quantity')}
            hint="A bill may bill this much more than ordered; 0 means exactly what was ordered." />
          {saved && <p className="muted">Now: {matchingRulesText(saved)}</p>}
        </div>
      )}
      <ModalActions submitLabel="Save rules" busy={busy} submitDisabled={!online || !values} onCancel={onClose} />
    </Modal>
  );
}
