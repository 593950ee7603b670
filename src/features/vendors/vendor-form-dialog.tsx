import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { ContactDraft, FormErrors, VendorFormValues } from './vendor-form.ts';
import { useVendorForm, type VendorFormDialogProps } from './vendor-form-state.ts';

let localKey = 0;

/**
 * Add or edit a vendor: name, email, phone, the address (a US one needs its state: PAYEE_1007,
 * checked here with the rule the server applies, and the server's own refusal lands on the same
 * field), and contacts (add, edit, remove). Nothing typed is lost when a call fails: the values
 * stay until the person saves or cancels. An edit that failed half way retries only what is left.
 */
export function VendorFormDialog({ vendor, client, online, onAnswer, onClose, onSaved, returnFocus }: VendorFormDialogProps) {
  const { values, set, setContact, errors, error, busy, countries, us, submit } = useVendorForm({ vendor, client, onAnswer, onSaved });

  return (
    <Modal
      title={vendor ? `Edit ${vendor.name}` : 'Add vendor'}
      description={vendor ? undefined : 'A business you pay by bill. You can add its bank account once it is saved.'}
      size="lg"
      onClose={onClose}
      returnFocus={returnFocus}
      onSubmit={async (e) => {
        e.preventDefault();
        await submit();
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

      <ContactFields contacts={values.contacts} errors={errors} set={set} setContact={setContact} />

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

/** The vendor's contacts: each one's name, email and phone, removed or added. */
function ContactFields({ contacts, errors, set, setContact }: {
  contacts: ContactDraft[];
  errors: FormErrors;
  set(patch: Partial<VendorFormValues>): void;
  setContact(key: string, patch: Partial<ContactDraft>): void;
}) {
  return (
    <fieldset className="vendor-contacts-fields">
      <legend>Contacts</legend>
      {contacts.length === 0 && <p className="muted">No contacts. Add who sends invoices or answers payment questions.</p>}
      {contacts.map((c, i) => (
        <div className="vendor-contact-row" key={c.key} role="group" aria-label={`Contact ${i + 1}`}>
          <TextField label="Contact name" value={c.name} onChange={(name) => setContact(c.key, { name })} error={errors[`contacts.${i}.name`]} />
          <TextField label="Contact email" type="email" value={c.email} onChange={(email) => setContact(c.key, { email })} error={errors[`contacts.${i}.email`]} />
          <TextField label="Contact phone" type="tel" value={c.phone} onChange={(phone) => setContact(c.key, { phone })} error={errors[`contacts.${i}.phone`]} />
          <Button size="sm" variant="ghost" onClick={() => set({ contacts: contacts.filter((x) => x.key !== c.key) })}>
            Remove<span className="sr-only"> contact {i + 1}</span>
          </Button>
        </div>
      ))}
      <Button
        size="sm"
        onClick={() => set({ contacts: [...contacts, { key: `new-${++localKey}`, id: null, name: '', email: '', phone: '' }] })}
      >
        Add contact
      </Button>
    </fieldset>
  );
}
