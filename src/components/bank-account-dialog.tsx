import { useState } from 'react';
import { BANK_ACCOUNT_TYPES, type Vendor } from '../../schema/entities/vendor.ts';
import { Button } from './button.tsx';
import { FormError } from './form-error.tsx';
import { Modal } from './modal.tsx';
import { SelectField } from './select-field.tsx';
import { TextField } from './text-field.tsx';
import type { DataClient } from '../data-access/types.ts';
import { errorText } from '../lib/error-text.ts';
import { useSensitiveAction } from '../lib/use-sensitive-action.ts';
import { StepUpDialog } from './step-up-dialog.tsx';
import { ACCOUNT_TYPE_LABELS, bankBody, bankErrorsFromMessages, emptyBankValues, type BankFormValues, type FormErrors } from '../lib/bank-form.ts';

export interface BankAccountDialogProps {
  vendor: Vendor;
  client: DataClient;
  /** The drawer's step-up: it renders the prompt, this dialog stays open underneath with its values. */
  sensitive: ReturnType<typeof useSensitiveAction>;
  onClose(): void;
  onSaved(vendor: Vendor): void;
}

/**
 * Set (or replace) a vendor's bank account: routing number (ABA checksum checked here first),
 * account number, type. Saving needs the `sensitive` scope: redirecting a vendor's payments is
 * the classic payment fraud, so the person confirms it's them first.
 */
export function BankAccountDialog({ vendor, client, sensitive, onClose, onSaved }: BankAccountDialogProps) {
  const [values, setValues] = useState<BankFormValues>(emptyBankValues);
  const [errors, setErrors] = useState<FormErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<BankFormValues>) => setValues((v) => ({ ...v, ...patch }));

  async function submit() {
    const checked = bankBody(values);
    setError(null);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    setBusy(true);
    let saved: Vendor | null = null;
    await sensitive.run(
      async () => {
        const r = await client.setVendorBankAccount(vendor.id, checked.body);
        if (r.ok) saved = r.vendor;
        return r;
      },
      (r) => {
        setBusy(false);
        if (saved) return onSaved(saved);
        if (r.ok) return;
        if (r.error.errors) setErrors(bankErrorsFromMessages(r.error.errors));
        setError(errorText(r.error));
      },
    );
    // Also when the step-up prompt is on top: a cancel there leaves this form as it was.
    setBusy(false);
  }

  return (
    <Modal
      title={vendor.bank_account ? `Replace ${vendor.name}’s bank account` : `Set ${vendor.name}’s bank account`}
      description="US ACH details. You’ll be asked to confirm it’s you before they’re saved."
      onClose={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="modal-fields">
        <TextField label="Routing number" autoComplete="off" value={values.routing_number} onChange={(routing_number) => set({ routing_number })} error={errors.routing_number} autoFocus />
        <TextField label="Account number" autoComplete="off" value={values.account_number} onChange={(account_number) => set({ account_number })} error={errors.account_number} />
        <SelectField
          label="Account type"
          value={values.account_type}
          options={BANK_ACCOUNT_TYPES.map((t) => ({ value: t, label: ACCOUNT_TYPE_LABELS[t] }))}
          onChange={(t) => set({ account_type: t as BankFormValues['account_type'] })}
        />
      </div>
      <FormError message={error} />
      <div className="modal-actions">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" loading={busy}>
          Save bank account
        </Button>
      </div>
    </Modal>
  );
}

export interface AddBankDetailsProps {
  vendor: Vendor;
  client: DataClient;
  onClose(): void;
  onSaved(vendor: Vendor): void;
}

/**
 * The bank details form with its own step-up (issue 25): opened from a bill that cannot be paid
 * until its vendor has verified bank details ("Add bank details"), outside the vendor's drawer.
 */
export function AddBankDetails({ vendor, client, onClose, onSaved }: AddBankDetailsProps) {
  const sensitive = useSensitiveAction();
  return (
    <>
      <BankAccountDialog vendor={vendor} client={client} sensitive={sensitive} onClose={onClose} onSaved={onSaved} />
      {sensitive.prompting && <StepUpDialog onDone={sensitive.confirmed} onCancel={sensitive.cancelled} />}
    </>
  );
}
