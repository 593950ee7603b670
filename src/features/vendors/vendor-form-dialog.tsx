import { useMemo, useRef, useState } from 'react';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient, VendorResult } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { directConflictMessage, NO_NAMES } from '../../lib/conflict-view.ts';
import { countryOptions } from './countries.ts';
import {
  createBody, editIsEmpty, editOf, emptyVendorValues, serverErrors, valuesFromVendor, type ContactDraft, type FormErrors,
  type VendorFormValues,
} from './vendor-form.ts';

export interface VendorFormDialogProps {
  /** null: a new vendor. */
  vendor: Vendor | null;
  client: DataClient;
  online: boolean;
  /** Each answer of the server, so the list and the drawer show it before the feed brings it. */
  onAnswer(vendor: Vendor): void;
  onClose(): void;
  onSaved(vendor: Vendor, created: boolean): void;
  returnFocus(): HTMLElement | null | undefined;
}

let localKey = 0;

/**
 * Add or edit a vendor: name, email, phone, the address (a US one needs its state: PAYEE_1007,
 * checked here with the rule the server applies, and the server's own refusal lands on the same
 * field), and contacts (add, edit, remove). Nothing typed is lost when a call fails: the values
 * stay until the person saves or cancels. An edit that failed half way retries only what is left.
 */
export function VendorFormDialog({ vendor, client, online, onAnswer, onClose, onSaved, returnFocus }: VendorFormDialogProps) {
  const [values, setValues] = useState<VendorFormValues>(() => (vendor ? valuesFromVendor(vendor) : emptyVendorValues()));
  const [errors, setErrors] = useState<FormErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The server's latest copy: a retry after a partial failure diffs against it.
  const base = useRef<Vendor | null>(vendor);
  // Issue 24: after a 409 CONFLICT, saving again keeps mine on the version the conflict named.
  const conflictVersion = useRef<number | null>(null);
  const countries = useMemo(() => countryOptions(values.country), [values.country]);
  const set = (patch: Partial<VendorFormValues>) => setValues((v) => ({ ...v, ...patch }));
  const setContact = (key: string, patch: Partial<ContactDraft>) =>
    setValues((v) => ({ ...v, contacts: v.contacts.map((c) => (c.key === key ? { ...c, ...patch } : c)) }));
  const us = values.country === 'US';

  function refused(r: Extract<VendorResult, { ok: false }>) {
    const conflict = directConflictMessage(r.error.conflicts, { names: NO_NAMES });
    if (conflict && r.error.current_version !== undefined) {
      conflictVersion.current = r.error.current_version;
      setErrors({});
      return setError(conflict);
    }
    setErrors(serverErrors(r.error));
    setError(r.offline || !r.error.errors ? errorText(r.error) : 'Check the highlighted fields.');
  }

  async function save(): Promise<void> {
    setError(null);
    if (!base.current) {
      const checked = createBody(values);
      if (!checked.ok) {
        setErrors(checked.errors);
        return setError('Check the highlighted fields.');
      }
      setErrors({});
      const r = await client.createVendor(checked.body);
      if (!r.ok) return refused(r);
      onAnswer(r.vendor);
      return onSaved(r.vendor, true);
    }
    const planned = editOf(base.current, values);
    if (!planned.ok) {
      setErrors(planned.errors);
      return setError('Check the highlighted fields.');
    }
    setErrors({});
    const { patch, add, update, remove } = planned.edit;
    if (editIsEmpty(planned.edit)) return onSaved(base.current, false);
    const id = base.current.id;
    const calls: (() => Promise<VendorResult>)[] = [
      // The version the form was made from (If-Match), or the one a conflict named when saving again.
      ...(Object.keys(patch).length > 0 ? [() => client.updateVendor(id, patch, conflictVersion.current ?? base.current?.change_seq)] : []),
      ...(remove.length > 0 ? [() => client.deleteVendorContacts(id, remove)] : []),
      ...update.map((u) => () => client.updateVendorContact(id, u.id, u.patch)),
      ...add.map((c) => () => client.addVendorContact(id, c)),
    ];
    for (const call of calls) {
      const r = await call();
      if (!r.ok) return refused(r);
      base.current = r.vendor;
      conflictVersion.current = null;
      onAnswer(r.vendor);
      // Contacts added so far have ids now: the form's rows take them, so a retry never adds one twice.
      setValues((v) => adoptContactIds(v, r.vendor));
    }
    onSaved(base.current, false);
  }

  return (
    <Modal
      title={vendor ? `Edit ${vendor.name}` : 'Add vendor'}
      description={vendor ? undefined : 'A business you pay by bill. You can add its bank account once it is saved.'}
      size="lg"
      onClose={onClose}
      returnFocus={returnFocus}
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        try {
          await save();
        } finally {
          setBusy(false);
        }
      }}
    >
      {!online && (
        <p className="notice notice-warn" role="note">
          You’re offline. Vendor changes need a connection: you can fill this in now and save once you’re back online.
        </p>
      )}
      <div className="modal-fields vendor-fields">
        <TextField label="Name" value={values.name} onChange={(name) => set({ name })} error={errors.name} autoFocus required />
        <TextField label="Email" type="email" value={values.email} onChange={(email) => set({ email })} error={errors.email} />
        <TextField label="Phone" type="tel" value={values.phone} onChange={(phone) => set({ phone })} error={errors.phone} />
        <SelectField label="Country" value={values.country} options={countries} onChange={(country) => set({ country })} />
        <div className="vendor-wide">
          <TextField label="Street address" value={values.line1} onChange={(line1) => set({ line1 })} error={errors.line1} />
        </div>
        <div className="vendor-wide">
          <TextField label="Address line 2" value={values.line2} onChange={(line2) => set({ line2 })} error={errors.line2} />
        </div>
        <TextField label="City" value={values.city} onChange={(city) => set({ city })} error={errors.city} />
        <TextField label={us ? 'State' : 'State or region'} value={values.state} onChange={(state) => set({ state })} error={errors.state} />
        <TextField label={us ? 'ZIP code' : 'Postal code'} value={values.postal_code} onChange={(postal_code) => set({ postal_code })} error={errors.postal_code} />
        {us && <p className="field-hint muted vendor-state-hint">US vendors need a two-letter state code, such as CA or NY: checks and 1099s go by it.</p>}
      </div>

      <fieldset className="vendor-contacts-fields">
        <legend>Contacts</legend>
        {values.contacts.length === 0 && <p className="muted">No contacts. Add who sends invoices or answers payment questions.</p>}
        {values.contacts.map((c, i) => (
          <div className="vendor-contact-row" key={c.key} role="group" aria-label={`Contact ${i + 1}`}>
            <TextField label="Contact name" value={c.name} onChange={(name) => setContact(c.key, { name })} error={errors[`contacts.${i}.name`]} />
            <TextField label="Contact email" type="email" value={c.email} onChange={(email) => setContact(c.key, { email })} error={errors[`contacts.${i}.email`]} />
            <TextField label="Contact phone" type="tel" value={c.phone} onChange={(phone) => setContact(c.key, { phone })} error={errors[`contacts.${i}.phone`]} />
            <Button size="sm" variant="ghost" onClick={() => set({ contacts: values.contacts.filter((x) => x.key !== c.key) })}>
              Remove<span className="sr-only"> contact {i + 1}</span>
            </Button>
          </div>
        ))}
        <Button
          size="sm"
          onClick={() => set({ contacts: [...values.contacts, { key: `new-${++localKey}`, id: null, name: '', email: '', phone: '' }] })}
        >
          Add contact
        </Button>
      </fieldset>

      <FormError message={error} />
      <div className="modal-actions">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" loading={busy}>
          {vendor ? 'Save changes' : 'Add vendor'}
        </Button>
      </div>
    </Modal>
  );
}

/** New contact rows whose contact the server now holds (same name, email, phone) take its id. */
function adoptContactIds(values: VendorFormValues, vendor: Vendor): VendorFormValues {
  const taken = new Set(values.contacts.map((c) => c.id).filter(Boolean));
  const contacts = values.contacts.map((c) => {
    if (c.id !== null) return c;
    const match = vendor.contacts.find(
      (s) => !taken.has(s.id) && s.name === c.name.trim() && (s.email ?? '') === c.email.trim() && (s.phone ?? '') === c.phone.trim(),
    );
    if (!match) return c;
    taken.add(match.id);
    return { ...c, id: match.id };
  });
  return { ...values, contacts };
}
