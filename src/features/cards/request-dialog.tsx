import { useId, useRef, type FormEvent } from 'react';
import { ModalActions } from '../../components/modal-actions.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { MoneyField } from '../../components/money-field.tsx';
import { SelectField } from '../../components/select-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { emptyRequestValues, requestCommand, type RequestValues } from './card-form.ts';
import { CardKindField, INTERVAL_OPTIONS } from './card-dialogs.tsx';
import { runCardCommand } from './commands.ts';
import { useCardForm } from './use-card-form.ts';

export interface RequestDialogProps {
  client: DataClient;
  /** The business's currency: the request's default. */
  currency: string;
  online: boolean;
  onClose(): void;
  returnFocus?: () => HTMLElement | null | undefined;
}

/**
 * "Request a card": virtual or physical, the limit needed and why. The request is a command
 * (offline too, with a client id so a resend is the same request); it shows under "Your
 * requests" at once, waiting to sync, then pending review by a manager or an admin.
 */
export function RequestDialog({ client, currency, online, onClose, returnFocus }: RequestDialogProps) {
  const { values, errors, formError, setFormError, busy, currencies, set, checked, run } = useCardForm(() => emptyRequestValues(currency), currency);
  // One id per dialog: a request refused here and sent again is still the same request.
  const id = useRef(crypto.randomUUID());
  const reasonError = useId();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const built = checked(requestCommand(values, id.current));
    if (!built) return;
    await run(async () => {
      const done = online ? 'Request sent for review.' : 'Request saved on this device. It is sent for review when you’re back online.';
      if (await runCardCommand(client, built.name, built.input, done)) onClose();
    });
  }

  return (
    <Modal title="Request a card" description="A manager or an admin reviews your request." onClose={onClose} onSubmit={submit} returnFocus={returnFocus}>
      <FormError message={formError} />
      <CardKindField
        name="request-kind"
        isPhysical={values.is_physical}
        autoFocus
        hints={{ virtual: 'Ready to use online as soon as it is approved', physical: 'Shipped to you; activate it when it arrives' }}
        onChange={(v) => set('is_physical', v)}
      />
      <div className="modal-fields card-fields">
        <MoneyField
          amountLabel="Limit you need"
          amount={values.amount}
          currency={values.currency}
          currencies={currencies}
          error={errors.amount ?? errors.currency}
          onAmount={(v) => set('amount', v)}
          onCurrency={(v) => set('currency', v)}
        />
        <SelectField label="Interval" value={values.interval} options={INTERVAL_OPTIONS} onChange={(v) => set('interval', v as RequestValues['interval'])} />
        <label className="field card-wide">
          <span className="field-label">Reason</span>
          <textarea
            rows={3}
            maxLength={1000}
            placeholder="What is the card for?"
            value={values.reason}
            aria-invalid={errors.reason ? true : undefined}
            aria-describedby={errors.reason ? reasonError : undefined}
            onChange={(e) => set('reason', e.target.value)}
          />
          {errors.reason && <span id={reasonError} className="field-error">{errors.reason}</span>}
        </label>
      </div>
      {!online && (
        <p className="notice notice-warn" role="note">
          You’re offline. The request is saved on this device and sent when you’re back online.
        </p>
      )}
      <ModalActions onCancel={onClose} submitLabel="Send request" busy={busy} />
    </Modal>
  );
}
