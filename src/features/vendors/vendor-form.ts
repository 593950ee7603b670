import {
  vendorContactBodySchema, vendorCreateBodySchema, vendorPatchBodySchema,
  type VendorCreateBody, type VendorPatchBody,
} from '../../../schema/api/calls-vendors.ts';
import type { Vendor, VendorContact } from '../../../schema/entities/vendor.ts';
import { validationMessages } from '../../../schema/errors.ts';
import { checkVendorAddress } from '../../../schema/vendor-rules.ts';

/**
 * The vendor forms' values ↔ the calls' bodies, checked with the calls' own schemas and the
 * vendor rules (PAYEE_1007, ABA checksum) before anything is sent; the server's refusals are
 * mapped back onto the same fields. Errors are keyed by form field, in the fields' words.
 */
export interface ContactDraft {
  /** React key: the contact's id, or a local one for a new row. */
  key: string;
  id: string | null;
  name: string;
  email: string;
  phone: string;
}

export interface VendorFormValues {
  name: string;
  email: string;
  phone: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  contacts: ContactDraft[];
}

export type FormErrors = Record<string, string>;

export const emptyVendorValues = (): VendorFormValues => ({
  name: '', email: '', phone: '', line1: '', line2: '', city: '', state: '', postal_code: '', country: 'US', contacts: [],
});

export const contactDraft = (c: VendorContact): ContactDraft => ({ key: c.id, id: c.id, name: c.name, email: c.email ?? '', phone: c.phone ?? '' });

export function valuesFromVendor(v: Vendor): VendorFormValues {
  const a = v.address;
  return {
    name: v.name, email: v.email ?? '', phone: v.phone ?? '',
    line1: a?.line1 ?? '', line2: a?.line2 ?? '', city: a?.city ?? '', state: a?.state ?? '', postal_code: a?.postal_code ?? '',
    country: a?.country ?? 'US',
    contacts: v.contacts.map(contactDraft),
  };
}

/** Field labels, for messages that name the field as the person sees it. */
export const FIELD_LABELS: Record<string, string> = {
  name: 'Name', email: 'Email', phone: 'Phone', line1: 'Street address', line2: 'Address line 2', city: 'City',
  state: 'State', postal_code: 'Postal code', country: 'Country', routing_number: 'Routing number',
  account_number: 'Account number', account_type: 'Account type',
};

/** A body path (or CSV column) → the form field it belongs to. */
function fieldOf(path: string): string {
  const m = /^contacts\.(\d+)\.(\w+)$/.exec(path);
  if (m) return `contacts.${m[1]}.${m[2]}`;
  return path.replace(/^address\./, '');
}

/** §5 messages ("address.line1 is required") in the form's words ("Street address is required."). */
function friendly(path: string, message: string): string {
  const field = fieldOf(path);
  const label = FIELD_LABELS[field.replace(/^contacts\.\d+\./, '')] ?? field;
  const text = message.startsWith(path) ? `${label}${message.slice(path.length)}` : message;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

export function errorsFromMessages(messages: Record<string, string>): FormErrors {
  return Object.fromEntries(Object.entries(messages).map(([path, m]) => [fieldOf(path), friendly(path, m)]));
}

const blank = (s: string) => (s.trim() === '' ? null : s.trim());

function addressOf(v: VendorFormValues) {
  const any = [v.line1, v.line2, v.city, v.state, v.postal_code].some((s) => s.trim() !== '');
  if (!any) return null;
  return {
    line1: v.line1.trim(), line2: blank(v.line2), city: v.city.trim(),
    state: blank(v.state)?.toUpperCase() ?? null, postal_code: v.postal_code.trim(), country: v.country.trim().toUpperCase(),
  };
}

function contactInput(c: ContactDraft) {
  return { name: c.name.trim(), email: blank(c.email), phone: blank(c.phone) };
}

/**
 * The create body, or the fields' messages: the call's schema first, then PAYEE_1007 (a US
 * address needs its state), exactly as the server checks them.
 */
export function createBody(values: VendorFormValues): { ok: true; body: VendorCreateBody } | { ok: false; errors: FormErrors } {
  const input = {
    name: values.name.trim(), email: blank(values.email), phone: blank(values.phone), address: addressOf(values),
    contacts: values.contacts.map(contactInput),
  };
  const parsed = vendorCreateBodySchema.safeParse(input);
  const errors = parsed.success ? {} : errorsFromMessages(validationMessages(parsed.error, input));
  const address = checkVendorAddress(input.address);
  if (!address.ok) errors.state = address.message;
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: parsed.data };
}

export interface VendorEdit {
  patch: VendorPatchBody;
  add: ReturnType<typeof contactInput>[];
  update: { id: string; patch: ReturnType<typeof contactInput> }[];
  remove: string[];
}

/**
 * An edit as calls: the vendor's changed fields (PATCH sends only those), then the contacts
 * added, changed and removed. Checked like the create (same schema, same PAYEE_1007).
 */
export function editOf(vendor: Vendor, values: VendorFormValues): { ok: true; edit: VendorEdit } | { ok: false; errors: FormErrors } {
  const checked = createBody(values);
  if (!checked.ok) return checked;
  const body = checked.body;
  const patch: VendorPatchBody = {};
  if (body.name !== vendor.name) patch.name = body.name;
  if (body.email !== vendor.email) patch.email = body.email;
  if (body.phone !== vendor.phone) patch.phone = body.phone;
  if (JSON.stringify(body.address) !== JSON.stringify(vendor.address)) patch.address = body.address;
  vendorPatchBodySchema.parse(patch);
  const kept = new Set(values.contacts.map((c) => c.id).filter((id): id is string => id !== null));
  const before = new Map(vendor.contacts.map((c) => [c.id, c]));
  const update = values.contacts
    .filter((c) => c.id !== null && before.has(c.id))
    .map((c) => ({ id: c.id!, patch: contactInput(c) }))
    .filter(({ id, patch: p }) => {
      const was = before.get(id)!;
      return p.name !== was.name || p.email !== was.email || p.phone !== was.phone;
    });
  for (const c of values.contacts) vendorContactBodySchema.parse(contactInput(c));
  return {
    ok: true,
    edit: {
      patch,
      add: values.contacts.filter((c) => c.id === null).map(contactInput),
      update,
      remove: vendor.contacts.filter((c) => !kept.has(c.id)).map((c) => c.id),
    },
  };
}

export const editIsEmpty = (e: VendorEdit) => Object.keys(e.patch).length === 0 && e.add.length + e.update.length + e.remove.length === 0;

/**
 * The server's refusal on the form: its field messages, and PAYEE_1007 (whose body names
 * `address.state`) always on State, so a rule the client did not know still lands by its field.
 */
export function serverErrors(error: { error_code: string; message: string; errors?: Record<string, string> }): FormErrors {
  const errors = error.errors ? errorsFromMessages(error.errors) : {};
  if (error.error_code === 'PAYEE_1007') errors.state = error.message;
  return errors;
}

export { bankBody, emptyBankValues, type BankFormValues } from '../../lib/bank-form.ts';
