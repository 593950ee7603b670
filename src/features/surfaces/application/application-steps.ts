import { z } from 'zod';
import { ENTITY_TYPES } from '../../../../schema/application-rules.ts';
import {
  APPLICATION_PRODUCTS, bankAccountInputSchema, businessDetailsSchema, checkboxSchema, companySchema, financialDetailsSchema,
  kycIndividualInputSchema, leadershipSchema, ownerInputSchema, productsSchema, type FinancingApplication,
} from '../../../../schema/entities/financing-application.ts';
import type { FieldSpec, FormValues, ListSpec } from './step-fields.ts';

/**
 * Issue 31, the financing application's steps (docs/design/issue-31-surfaces.md §2.4, §4): their
 * order, addresses, forms, the server's `missing` keys each answers for, and each step's state
 * from the server's answer and this device's draft.
 */
export type FormStepKey = 'business_details' | 'financial_details' | 'company' | 'leadership' | 'ownerships' | 'products' | 'bank_accounts' | 'checkbox';

export interface FormStep {
  key: FormStepKey;
  slug: string;
  title: string;
  intro: string;
  fields: readonly FieldSpec[];
  list?: ListSpec;
  schema: z.ZodType;
  /** The form's values from the server's answer (null: not answered yet). */
  fromAnswer(app: FinancingApplication): FormValues | null;
}

const opt = (values: readonly string[], words: (v: string) => string = (v) => v.charAt(0) + v.slice(1).toLowerCase().replace(/_/g, ' ')) =>
  values.map((value) => ({ value, label: words(value) }));
const address = (prefix: string): FieldSpec[] => [
  { name: `${prefix}.line1`, label: 'Address', kind: 'text', autoComplete: 'address-line1' },
  { name: `${prefix}.line2`, label: 'Address line 2', kind: 'text', optional: true, autoComplete: 'address-line2' },
  { name: `${prefix}.city`, label: 'City', kind: 'text', autoComplete: 'address-level2' },
  { name: `${prefix}.state`, label: 'State', kind: 'text', optional: true, hint: 'Two letters for a US state, e.g. CA.' },
  { name: `${prefix}.postal_code`, label: 'Postal code', kind: 'text', autoComplete: 'postal-code' },
  { name: `${prefix}.country`, label: 'Country', kind: 'text', hint: 'Two letters, e.g. US.', autoComplete: 'country' },
];
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
/** Nested answers as the form's flat strings (money in dollars, basis points as percent). */
function flatten(value: unknown, prefix = '', out: FormValues = {}): FormValues {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    if (typeof o.amount === 'number' && typeof o.currency === 'string' && Object.keys(o).length === 2) {
      out[prefix.slice(0, -1)] = String(o.amount / 100);
      return out;
    }
    for (const [k, v] of Object.entries(o)) flatten(v, `${prefix}${k}.`, out);
  } else if (Array.isArray(value) && value.some((v) => v !== null && typeof v === 'object')) {
    // A list's rows (owners, accounts): `owners.0.name`.
    value.forEach((row, i) => flatten(row, `${prefix}${i}.`, out));
  } else out[prefix.slice(0, -1)] = Array.isArray(value) ? value.join(',') : str(value);
  return out;
}

export const FORM_STEPS: readonly FormStep[] = [
  {
    key: 'business_details', slug: 'business-details', title: 'Business details', intro: 'Who the business is, as registered.',
    fields: [
      { name: 'legal_name', label: 'Legal name', kind: 'text', autoComplete: 'organization' },
      { name: 'dba', label: 'Doing business as', kind: 'text', optional: true },
      { name: 'entity_type', label: 'Entity type', kind: 'select', options: opt(ENTITY_TYPES, (v) => v.replace(/_/g, ' ').replace('C CORP', 'C corporation').replace('S CORP', 'S corporation')) },
      { name: 'ein', label: 'EIN', kind: 'text', hint: 'Nine digits, e.g. 12-3456789.' },
      { name: 'incorporation_state', label: 'State of incorporation', kind: 'text', hint: 'Two letters, e.g. DE.' },
      { name: 'incorporation_date', label: 'Date of incorporation', kind: 'date' },
      { name: 'website', label: 'Website', kind: 'url', optional: true },
      { name: 'phone', label: 'Phone', kind: 'tel', autoComplete: 'tel' },
      ...address('address'),
    ],
    schema: businessDetailsSchema,
    fromAnswer: (a) => (a.business_details ? flatten(a.business_details) : null),
  },
  {
    key: 'financial_details', slug: 'financial-details', title: 'Financial details', intro: 'Amounts in US dollars.',
    fields: [
      { name: 'annual_revenue', label: 'Annual revenue', kind: 'money' },
      { name: 'cash_on_hand', label: 'Cash on hand', kind: 'money' },
      { name: 'monthly_spend_estimate', label: 'Expected monthly card spend', kind: 'money' },
    ],
    schema: financialDetailsSchema,
    fromAnswer: (a) => (a.financial_details ? flatten(a.financial_details) : null),
  },
  {
    key: 'company', slug: 'company', title: 'Company', intro: 'What the business does.',
    fields: [
      { name: 'industry_code', label: 'Industry (NAICS code)', kind: 'text', hint: '2 to 6 digits, e.g. 541511.' },
      { name: 'description', label: 'What the business does', kind: 'textarea' },
      { name: 'employee_count', label: 'Employees', kind: 'number' },
    ],
    schema: companySchema,
    fromAnswer: (a) => (a.company ? flatten(a.company) : null),
  },
  {
    key: 'leadership', slug: 'leadership', title: 'Leadership', intro: 'The person who controls the business (the control person) gets an identity check.',
    fields: [
      { name: 'control_person.first_name', label: 'First name', kind: 'text' },
      { name: 'control_person.last_name', label: 'Last name', kind: 'text' },
      { name: 'control_person.title', label: 'Title', kind: 'text' },
      { name: 'control_person.email', label: 'Email', kind: 'email' },
      { name: 'control_person.is_applicant', label: 'This is me', kind: 'check' },
    ],
    schema: leadershipSchema,
    fromAnswer: (a) => (a.leadership ? flatten(a.leadership) : null),
  },
  {
    key: 'ownerships', slug: 'ownership', title: 'Ownership', intro: 'Everyone who owns part of the business. Each person owning 25 % or more gets an identity check.',
    fields: [],
    list: {
      name: 'owners', item: 'Owner', min: 1, max: 10,
      fields: [
        { name: 'id', label: 'Id', kind: 'hidden' },
        { name: 'kind', label: 'Owner is', kind: 'select', options: [{ value: 'INDIVIDUAL', label: 'A person' }, { value: 'ENTITY', label: 'A company' }] },
        { name: 'name', label: 'Name', kind: 'text' },
        { name: 'email', label: 'Email', kind: 'email', optional: true },
        { name: 'percent_bp', label: 'Ownership (%)', kind: 'percent' },
      ],
    },
    schema: z.object({ owners: z.array(ownerInputSchema).min(1).max(10) }),
    fromAnswer: (a) => (a.owners.length === 0 ? null : flatten({ owners: a.owners.map((o) => ({ id: o.id, kind: o.kind, name: o.name, email: o.email, percent_bp: o.percent_bp / 100 })) })),
  },
  {
    key: 'products', slug: 'products', title: 'Products', intro: 'What you want to use Ledgerline for.',
    fields: [{ name: 'products', label: 'Products', kind: 'multi', options: opt(APPLICATION_PRODUCTS, (v) => ({ CARDS: 'Corporate cards', BILL_PAY: 'Bill pay', REIMBURSEMENTS: 'Reimbursements', TREASURY: 'Treasury' })[v] ?? v) }],
    schema: productsSchema,
    fromAnswer: (a) => (a.products ? { products: a.products.join(',') } : null),
  },
  {
    key: 'bank_accounts', slug: 'bank-accounts', title: 'Bank accounts', intro: 'The business’s bank accounts (up to 3). Numbers are shown as their last four once saved.',
    fields: [],
    list: {
      name: 'accounts', item: 'Bank account', min: 1, max: 3,
      fields: [
        { name: 'id', label: 'Id', kind: 'hidden' },
        { name: 'holder_name', label: 'Account holder', kind: 'text' },
        { name: 'routing_number', label: 'Routing number', kind: 'secret' },
        { name: 'account_number', label: 'Account number', kind: 'secret' },
        { name: 'type', label: 'Account type', kind: 'select', options: [{ value: 'CHECKING', label: 'Checking' }, { value: 'SAVINGS', label: 'Savings' }] },
      ],
    },
    schema: z.object({ accounts: z.array(bankAccountInputSchema).min(1).max(3) }),
    fromAnswer: (a) => (a.bank_accounts.length === 0 ? null : flatten({ accounts: a.bank_accounts.map((b) => ({ id: b.id, holder_name: b.holder_name, type: b.type })) })),
  },
  {
    key: 'checkbox', slug: 'review', title: 'Review & certify', intro: 'Check what you entered, then certify.',
    fields: [
      { name: 'certify_owners', label: 'I certify that the owners and the control person listed are complete and correct', kind: 'check' },
      { name: 'accept_terms', label: 'I accept the Ledgerline terms', kind: 'check' },
    ],
    schema: checkboxSchema,
    fromAnswer: (a) => (a.checkbox ? flatten(a.checkbox) : null),
  },
];

/** The identity check's form for one person (`kyc:<id>`). The SSN is shown masked once saved and never kept on this device. */
export const KYC_FIELDS: readonly FieldSpec[] = [
  { name: 'first_name', label: 'First name', kind: 'text' },
  { name: 'last_name', label: 'Last name', kind: 'text' },
  { name: 'dob', label: 'Date of birth', kind: 'date' },
  { name: 'ssn', label: 'SSN', kind: 'secret', hint: 'Nine digits. Not kept on this device.' },
  ...address('address'),
  { name: 'citizenship', label: 'Citizenship', kind: 'text', hint: 'Two letters, e.g. US.' },
];
export const KYC_SCHEMA = kycIndividualInputSchema;
export function kycFromAnswer(app: FinancingApplication, id: string): FormValues | null {
  const i = app.kyc_individuals.find((k) => k.id === id);
  if (!i) return null;
  const { first_name, last_name, dob, address: addr, citizenship } = i;
  return flatten({ first_name, last_name, dob, address: addr ?? undefined, citizenship });
}
