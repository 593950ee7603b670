import { createHash } from 'node:crypto';
import type { BankAccountBody } from '../../schema/api/calls-vendors.ts';
import type { VendorAddress } from '../../schema/entities/vendor.ts';
import { bankAccountVerification, maskBankAccount } from '../../schema/vendor-rules.ts';
import { bankContext, encryptBankValue, loadVendorBankKey } from '../auth/vendor-bank-crypto.ts';
import type { Queryable } from '../db/db.ts';
import { bulkInsert, cols } from './bulk-insert.ts';
import type { DemoData } from './types.ts';

/**
 * The demo business's vendors (issue 11): the suppliers a robotics company pays by bill, with
 * addresses (US ones with their state, as PAYEE_1007 requires), AP contacts, default GL coding,
 * and bank accounts for the ones paid by ACH (test routing numbers that pass the ABA checksum and
 * an ACH prefix, so they are verified: issue 25). Thames Robotics (a UK consultancy, no US
 * account) and the archived Summit have none: their bills are paid outside Ledgerline.
 * Deterministic: ids from the business id and name; only the ciphertext differs between runs
 * (a fresh nonce per value).
 */
export type DemoVendorSpec = {
  name: string; email: string | null; phone: string | null; address: VendorAddress; gl: string | null;
  contacts: { name: string; email: string | null; phone: string | null }[];
  bank: BankAccountBody | null; archived?: true;
};

const us = (line1: string, city: string, state: string, postal_code: string): VendorAddress =>
  ({ line1, line2: null, city, state, postal_code, country: 'US' });

export const DEMO_VENDORS: readonly DemoVendorSpec[] = [
  {
    name: 'Pacific Precision Machining', email: 'ar@pacificprecision.example', phone: '+1 510 555 0142',
    address: us('4200 Industrial Pkwy', 'Hayward', 'CA', '94545'), gl: '1500',
    contacts: [{ name: 'Dana Ortiz', email: 'dana.ortiz@pacificprecision.example', phone: '+1 510 555 0143' }],
    bank: { routing_number: '121000358', account_number: '4401927731', account_type: 'CHECKING' },
  },
  {
    name: 'Brightline Electronics Supply', email: 'billing@brightline.example', phone: '+1 512 555 0190',
    address: us('88 Commerce Dr', 'Austin', 'TX', '78744'), gl: '6040',
    contacts: [{ name: 'Sam Patel', email: 'sam@brightline.example', phone: null }, { name: 'Accounts Receivable', email: 'ar@brightline.example', phone: null }],
    bank: { routing_number: '111000025', account_number: '88120045', account_type: 'CHECKING' },
  },
  {
    name: 'Harbor Logistics Co.', email: 'invoices@harborlogistics.example', phone: '+1 718 555 0117',
    address: us('1 Pier Rd', 'Brooklyn', 'NY', '11201'), gl: null,
    contacts: [{ name: 'Morgan Lee', email: 'morgan@harborlogistics.example', phone: '+1 718 555 0118' }],
    bank: { routing_number: '026009593', account_number: '3300418862', account_type: 'CHECKING' },
  },
  {
    name: 'Keystone Commercial Properties', email: 'leasing@keystoneprops.example', phone: '+1 415 555 0101',
    address: { line1: '500 Howard St', line2: 'Suite 300', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' }, gl: null,
    contacts: [], bank: { routing_number: '021000021', account_number: '000987654321', account_type: 'CHECKING' },
  },
  {
    name: 'Thames Robotics Consulting Ltd', email: 'accounts@thamesrobotics.example', phone: '+44 20 7946 0958',
    address: { line1: '10 Fleet St', line2: null, city: 'London', state: null, postal_code: 'EC4Y 1AA', country: 'GB' }, gl: null,
    contacts: [{ name: 'Priya Shah', email: 'priya@thamesrobotics.example', phone: null }], bank: null,
  },
  {
    name: 'Summit Office Furniture', email: null, phone: '+1 303 555 0166',
    address: us('77 Larimer St', 'Denver', 'CO', '80202'), gl: '6040', contacts: [], bank: null, archived: true,
  },
];

/** A uuid derived from `key` (the same on every run), so seeded ids are stable. */
export function stableUuid(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A vendor's id and default GL account id, as its row will have them (ids are stable: business + name). */
export function vendorIdentity(data: Pick<DemoData, 'business' | 'glAccounts'>) {
  const glByCode = new Map(data.glAccounts.map((g) => [g.code, g.id]));
  return (v: DemoVendorSpec) => ({
    id: stableUuid(`${data.business.id}:vendor:${v.name}`),
    default_gl_account_id: v.gl ? glByCode.get(v.gl) ?? null : null,
  });
}

/**
 * The demo vendors' rows and contacts (and `extra` ones, e.g. the suppliers generated for
 * bills: seed/bills.ts), stamped with the seqs after `afterSeq`.
 */
export function demoVendors(data: Pick<DemoData, 'business' | 'glAccounts'>, afterSeq: number, extra: readonly DemoVendorSpec[] = []) {
  const businessId = data.business.id;
  const identity = vendorIdentity(data);
  const specs = [...DEMO_VENDORS, ...extra];
  const vendors = specs.map((v, i) => ({
    ...identity(v), business_id: businessId, name: v.name, email: v.email, phone: v.phone,
    address: v.address, status: v.archived ? 'ARCHIVED' : 'ACTIVE',
    bank: v.bank, change_seq: afterSeq + i + 1, updated_at: data.business.created_at, deleted: false,
  }));
  const contacts = specs.flatMap((v, i) => v.contacts.map((c, j) => ({
    id: stableUuid(`${businessId}:vendor-contact:${v.name}:${j}`), business_id: businessId, vendor_id: vendors[i]!.id, ...c,
    // Ordered as listed: the doc sorts contacts by created_at.
    created_at: new Date(Date.parse(data.business.created_at) + j * 1000).toISOString(),
  })));
  return { vendors, contacts, maxChangeSeq: afterSeq + vendors.length };
}

export type SeededVendor = ReturnType<typeof demoVendors>['vendors'][number];

export async function insertVendors(tx: Queryable, seeded: ReturnType<typeof demoVendors>): Promise<void> {
  const key = await loadVendorBankKey(tx);
  const rows = seeded.vendors.map(({ bank, ...v }) => ({
    ...v,
    bank_account_type: bank?.account_type ?? null,
    bank_routing_cipher: bank ? encryptBankValue(key, bank.routing_number, bankContext(v.id, 'routing_number')) : null,
    bank_account_cipher: bank ? encryptBankValue(key, bank.account_number, bankContext(v.id, 'account_number')) : null,
    bank_routing_last_four: bank ? maskBankAccount(bank).routing_last_four : null,
    bank_account_last_four: bank ? maskBankAccount(bank).last_four : null,
    // Verified as the API would have verified them when stored (issue 25).
    bank_verified_at: bank && bankAccountVerification(bank).ok ? v.updated_at : null,
  }));
  await bulkInsert(tx, 'vendors', cols(
    'id:uuid', 'business_id:uuid', 'name:text', 'email:text', 'phone:text', 'address:jsonb', 'default_gl_account_id:uuid', 'status:text',
    'bank_account_type:text', 'bank_routing_cipher:text', 'bank_account_cipher:text', 'bank_routing_last_four:text', 'bank_account_last_four:text',
    'bank_verified_at:timestamptz', 'change_seq:bigint', 'updated_at:timestamptz', 'deleted:boolean',
  ), rows);
  await bulkInsert(tx, 'vendor_contacts', cols(
    'id:uuid', 'business_id:uuid', 'vendor_id:uuid', 'name:text', 'email:text', 'phone:text', 'created_at:timestamptz',
  ), seeded.contacts);
}
