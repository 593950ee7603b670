import { useMemo, useRef, useState } from 'react';
import type { Vendor } from '../../../schema/entities/vendor.ts';
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

/**
 * The form's values, field errors and refusal, and saving: a new vendor in one call, an edit as
 * the calls it needs (patch, contacts removed, changed, added), each answer becoming the base a
 * retry diffs against, so an edit that failed half way retries only what is left.
 */
export function useVendorForm({ vendor, client, onAnswer, onSaved }: Pick<VendorFormDialogProps, 'vendor' | 'client' | 'onAnswer' | 'onSaved'>) {
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

  async function submit() {
    setBusy(true);
    try {
      await save();
    } finally {
      setBusy(false);
    }
  }

  return { values, set, setContact, errors, error, busy, countries, us, submit };
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
