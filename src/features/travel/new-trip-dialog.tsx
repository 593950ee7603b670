import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { DateField } from '../../components/date-field.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { AirportField } from './airport-field.tsx';
import { emptyTripValues, tripCreateInput, type TripFieldErrors, type TripFormValues } from './trip-form.ts';

export interface NewTripDialogProps {
  client: DataClient;
  /** The business's currency: the budget's. */
  currency: string;
  today: string;
  onClose(): void;
  /** The trip's create is durable on this device (it shows at once and syncs in the background). */
  onCreated(id: string): void;
  returnFocus?: () => HTMLElement | null | undefined;
}

/**
 * "Plan a trip": name, destination (airport type-ahead), dates, purpose, budget → the
 * `trip.create` command with a client id. It works offline: the trip is in the list at once.
 */
export function NewTripDialog({ client, currency, today, onClose, onCreated, returnFocus }: NewTripDialogProps) {
  const [values, setValues] = useState<TripFormValues>(() => emptyTripValues(today));
  const [errors, setErrors] = useState<TripFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // One id per dialog: a create refused here and sent again is still the same trip.
  const id = useRef(crypto.randomUUID());
  const set = <K extends keyof TripFormValues>(key: K, value: TripFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value, ...(key === 'start_date' && v.end_date < (value as string) ? { end_date: value as string } : {}) }));
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const built = tripCreateInput(values, id.current, currency, new Date());
    if (!built.ok) {
      setErrors(built.errors);
      return setFormError('Check the fields marked below.');
    }
    setBusy(true);
    try {
      const result = await client.run('trip.create', { ...built.input, currency });
      if (!result.ok) return setFormError(errorText(result.error));
      toastInfo('Trip saved. It syncs in the background.');
      onCreated(id.current);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title="Plan a trip" description="Where and when. You can book flights and hotels for it next." onClose={onClose} onSubmit={onSubmit} returnFocus={returnFocus}>
      <FormError message={formError} />
      <div className="modal-fields trip-fields">
        <TextField label="Trip name" value={values.name} autoFocus maxLength={200} error={errors.name} onChange={(v) => set('name', v)} />
        <AirportField label="Destination" value={values.destination} error={errors.destination} onChange={(v) => set('destination', v)} />
        <DateField label="Start date" value={values.start_date} error={errors.start_date} onChange={(v) => set('start_date', v)} />
        <DateField label="End date" value={values.end_date} min={values.start_date || undefined} error={errors.end_date} onChange={(v) => set('end_date', v)} />
        <TextField label="Purpose" value={values.purpose} maxLength={2000} error={errors.purpose} hint="Optional: why you travel (a client visit, a conference)." onChange={(v) => set('purpose', v)} />
        <TextField label={`Budget (${currency})`} value={values.budget} error={errors.budget} hint="Optional." onChange={(v) => set('budget', v)} />
      </div>
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy} disabled={busy}>
          Plan trip
        </Button>
      </div>
    </Modal>
  );
}
