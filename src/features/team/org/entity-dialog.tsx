import { useMemo, useState, type FormEvent } from 'react';
import type { BusinessEntity } from '../../../../schema/api/calls-admin.ts';
import type { UserRow } from '../../../../schema/entities/spend-user.ts';
import { ModalActions } from '../../../components/modal-actions.tsx';
import { Combobox } from '../../../components/combobox.tsx';
import { FieldNote } from '../../../components/field-note.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { TextField } from '../../../components/text-field.tsx';
import type { BusinessEntityInput, DataClient } from '../../../data-access/types.ts';
import { toastInfo } from '../../../lib/toast-store.ts';
import { countryChoices, currencyChoices, defaultCurrencyFor } from './org-choices.ts';
import { refusalText } from './org-dialogs.tsx';
import { nameError } from './org-view.ts';
import { OwnersField } from './owners-field.tsx';

export interface EntityDialogProps {
  /** null: a new entity. */
  entity: { id: string; name: string; country: string; currency: string } | null;
  client: DataClient;
  users: readonly UserRow[];
  names: ReadonlyMap<string, string>;
  /** Each answer of the server, so the list shows it before the feed brings it. */
  onAnswer(entity: BusinessEntity): void;
  onClose(): void;
}

type Errors = Partial<Record<'name' | 'country' | 'currency', string>>;

/**
 * A business entity (a legal entity the business books spend under): name, country and currency
 * (the full ISO lists, type-ahead), and for a new one its owners. A new entity's currency follows
 * its country until the admin picks one. What was typed stays when the server refuses.
 */
export function EntityDialog({ entity, client, users, names, onAnswer, onClose }: EntityDialogProps) {
  const [values, setValues] = useState<BusinessEntityInput>(() => entity ?? { name: '', country: 'US', currency: 'USD' });
  const [currencyChosen, setCurrencyChosen] = useState(entity !== null);
  const [owners, setOwners] = useState<string[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const countries = useMemo(() => countryChoices(values.country), [values.country]);
  const currencies = useMemo(() => currencyChoices(values.currency), [values.currency]);

  function setCountry(country: string) {
    const suggested = currencyChosen ? null : defaultCurrencyFor(country);
    setValues((v) => ({ ...v, country, ...(suggested ? { currency: suggested } : {}) }));
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const nameErr = nameError(values.name, 'entity');
    setErrors(nameErr ? { name: nameErr } : {});
    if (nameErr) return;
    setBusy(true);
    try {
      const body = { ...values, name: values.name.trim() };
      const r = entity ? await client.updateEntity(entity.id, changed(entity, body)) : await client.createEntity(body);
      if (!r.ok) {
        const { form, fields } = refusalText(r);
        setErrors(fields);
        return setError(form ?? 'Check the highlighted fields.');
      }
      onAnswer(r.entity);
      if (!entity && owners.length > 0) {
        const o = await client.setEntityOwners(r.entity.id, owners);
        if (o.ok) onAnswer(o.entity);
        toastInfo(o.ok ? `Entity ${body.name} created.` : `Entity ${body.name} created, but its owners were not saved: ${o.error.message}`);
      } else {
        toastInfo(entity ? `Entity ${body.name} saved.` : `Entity ${body.name} created.`);
      }
      onClose();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title={entity ? `Edit ${entity.name}` : 'New entity'} description="A legal entity of the business: a subsidiary or a branch that books its own spend." onClose={onClose} onSubmit={submit}>
      <TextField label="Legal name" value={values.name} onChange={(name) => setValues((v) => ({ ...v, name }))} autoFocus required maxLength={200} error={errors.name} field="name" />
      <div className="org-entity-codes">
        <div data-field="country">
          <Combobox label="Country" value={values.country} options={countries} onChange={setCountry} />
          <FieldNote id="org-entity-country-note" error={errors.country} />
        </div>
        <div data-field="currency">
          <Combobox
            label="Currency" value={values.currency} options={currencies}
            onChange={(currency) => {
              setCurrencyChosen(true);
              setValues((v) => ({ ...v, currency }));
            }}
          />
          <FieldNote id="org-entity-currency-note" error={errors.currency} />
        </div>
      </div>
      {!entity && <OwnersField value={owners} onChange={setOwners} users={users} names={names} />}
      <FormError message={error} />
      <ModalActions onCancel={onClose} submitLabel={entity ? 'Save entity' : 'Create entity'} busy={busy} />
    </Modal>
  );
}

/** Only the fields that changed (a PATCH of nothing changed still answers the row). */
function changed(before: BusinessEntityInput, after: BusinessEntityInput): Partial<BusinessEntityInput> {
  const patch: Partial<BusinessEntityInput> = {};
  if (after.name !== before.name) patch.name = after.name;
  if (after.country !== before.country) patch.country = after.country;
  if (after.currency !== before.currency) patch.currency = after.currency;
  return patch;
}
