import { randomUUID } from 'node:crypto';
import type { BankAccountBody, VendorCreateBody, VendorPatchBody } from '../../schema/api/calls-vendors.ts';
import type { Approval } from '../../schema/entities/approval.ts';
import type { PayeeApproval, Vendor } from '../../schema/entities/vendor.ts';
import { canManageBillPayAccounting } from '../../schema/roles.ts';
import { bankAccountVerification, checkVendorAddress, maskBankAccount } from '../../schema/vendor-rules.ts';
import { bankContext, decryptBankValue, encryptBankValue, loadVendorBankKey } from '../auth/vendor-bank-crypto.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { cancelOpenApproval, hasOpenApproval, openApproval, policySaved } from './approval-rows.ts';
import { checkCodingRefs } from './coding.ts';
import { COLLECTIONS, writeMirrored, type MirroredWrite } from './collections.ts';
import { findLiveDoc } from './live-doc.ts';

/**
 * Vendors (payees, issue 11): mirrored reference data, every write through writeMirrored (seqs
 * reserved first, announced on commit); a contact or bank change stamps its vendor with a new seq,
 * since contacts and the masked account travel in the vendor doc. Another business's vendor or
 * contact answers 404 like an unknown one. Merges and bulk uploads are in domain/vendor-bulk.ts.
 */
const VENDOR_DOC = COLLECTIONS.vendors.docSql;

/** §6 "manage bill pay accounting": admin, AP clerk (AP_ACCESS) or bookkeeper; checked before any lookup. */
export function assertMayManageVendors(user: ActingUser): void {
  if (!canManageBillPayAccounting(user)) {
    throw new ApiError('FORBIDDEN_7003', 'Only administrators, bookkeepers and AP clerks can manage vendors.');
  }
}

/** A live vendor of the business (locked for a write); anything else is 404. */
export async function findVendor(db: Queryable, businessId: string, id: string, lock = false): Promise<Vendor> {
  return findLiveDoc<Vendor>(db, { table: 'vendors', doc: VENDOR_DOC, notFound: 'This vendor was not found.' }, businessId, id, lock);
}

/** PAYEE_1007 for a US address without a state; a state that is no USPS code is a plain 422. */
function assertAddress(address: VendorCreateBody['address']): void {
  const check = checkVendorAddress(address);
  if (check.ok) return;
  throw new ApiError(check.code, check.message, { [check.field]: check.message });
}

/** The default coding must be the business's live GL account and department (named by their vendor field). */
async function assertDefaults(tx: Queryable, businessId: string, f: { default_gl_account_id?: string | null; default_department_id?: string | null }) {
  try {
    await checkCodingRefs(tx, businessId, { gl_account_id: f.default_gl_account_id ?? null, department_id: f.default_department_id ?? null });
  } catch (err) {
    if (!(err instanceof ApiError) || !err.errors) throw err;
    const errors = Object.fromEntries(Object.entries(err.errors).map(([k, m]) => [`default_${k}`, m.replace(k, `default_${k}`)]));
    throw validationError(errors);
  }
}

/** One live vendor of a name (vendorNameKey); the unique index backs this clearer message. */
async function assertNameFree(tx: Queryable, businessId: string, name: string, exceptId: string | null): Promise<void> {
  const rows = await tx.query(
    'SELECT 1 FROM vendors WHERE business_id = $1 AND NOT deleted AND lower(btrim(name)) = lower(btrim($2)) AND id IS DISTINCT FROM $3',
    [businessId, name, exceptId],
  );
  if (rows.length > 0) throw validationError({ name: `A vendor named '${name.trim()}' already exists.` });
}

/**
 * Issue 28, payee policy: while the business has a saved `payee` policy, new payee details (a new
 * vendor, a new bank account) wait for an approval (object_type 'payee', object_id the vendor; the
 * requester is who made the change, so the chain never names them), recorded on the vendor as
 * `payee_approval` PENDING; bills to it can be written but not paid (BILL_PAY_7102,
 * bill-payments.ts) until the chain completes. A change while one waits supersedes it (its
 * approval canceled, a new one opened, so approvers decide what the vendor holds now); a new
 * vendor stays NEW_VENDOR until approved. Stamps the vendor with the last seq. No-op without a policy.
 */
export async function askPayeeApproval(
  tx: Queryable, user: ActingUser, vendorId: string, change: PayeeApproval['change'], w: Pick<MirroredWrite, 'reserve'>, at: string,
): Promise<void> {
  if (!(await policySaved(tx, user.business_id, 'payee'))) return;
  const [row] = await tx.query<{ payee_approval: PayeeApproval | null }>('SELECT payee_approval FROM vendors WHERE id = $1', [vendorId]);
  const waiting = row?.payee_approval;
  const kind = waiting?.status === 'PENDING' && waiting.change === 'NEW_VENDOR' ? 'NEW_VENDOR' : change;
  const reviewed = { id: vendorId, business_id: user.business_id, updated_at: at };
  if (await hasOpenApproval(tx, user.business_id, vendorId)) await cancelOpenApproval(tx, reviewed, (await w.reserve(1)).last);
  // The subject: a payee has no amount; vendor conditions of the policy's steps read its id.
  await openApproval(tx, { ...reviewed, user_id: user.id, amount: 0, currency: 'USD', vendor_id: vendorId }, (await w.reserve(1)).last, 'payee');
  const asked: PayeeApproval = { status: 'PENDING', change: kind, requested_by: user.id, requested_at: at, reason: null, decided_by: null };
  await tx.query('UPDATE vendors SET payee_approval = $2::jsonb, change_seq = $3, updated_at = now() WHERE id = $1',
    [vendorId, JSON.stringify(asked), (await w.reserve(1)).last]);
}

/**
 * The payee chain completed (domain/approvals.ts, after the approval's and instance's locks):
 * approved, the hold is lifted (the vendor's bills can be paid); rejected, it stays with the
 * reason (still no payments; a new bank account asks again). `seq` stamps the vendor.
 */
export async function decidePayeeApproval(
  tx: Queryable, user: ActingUser, approval: Approval, decision: { status: 'APPROVED' } | { status: 'REJECTED'; reason: string },
  seq: number, at: string,
): Promise<Vendor> {
  const vendor = await findVendor(tx, user.business_id, approval.object_id, true);
  const asked = vendor.payee_approval;
  if (asked?.status !== 'PENDING') throw new ApiError('REQUEST_7001', 'This vendor has no payee change waiting for approval.');
  const next = decision.status === 'APPROVED' ? null : { ...asked, status: 'REJECTED', reason: decision.reason, decided_by: user.id };
  await tx.query('UPDATE vendors SET payee_approval = $3::jsonb, change_seq = $4, updated_at = $5 WHERE business_id = $1 AND id = $2',
    [user.business_id, vendor.id, next && JSON.stringify(next), seq, at]);
  return findVendor(tx, user.business_id, vendor.id);
}

/**
 * Issue 28: vendors that go away (deleted, merged into another) take their open payee approval with
 * them (CANCELED, one seq each), so no approver is left with a decision nobody can make.
 */
export async function withdrawPayeeApprovals(
  tx: Queryable, businessId: string, vendorIds: readonly string[], w: Pick<MirroredWrite, 'reserve'>, at: string,
): Promise<void> {
  for (const id of vendorIds) {
    if (await hasOpenApproval(tx, businessId, id)) await cancelOpenApproval(tx, { id, business_id: businessId, updated_at: at }, (await w.reserve(1)).last);
  }
}

/** `requester`: who creates it (issue 28: the payee policy's requester). */
export async function createVendor(tx: Queryable, requester: ActingUser, body: VendorCreateBody, now: Date): Promise<Vendor> {
  const businessId = requester.business_id;
  assertAddress(body.address);
  return writeMirrored(tx, businessId, 1, async ({ seqs, reserve }) => {
    await assertNameFree(tx, businessId, body.name, null);
    await assertDefaults(tx, businessId, body);
    const id = randomUUID();
    await tx.query(
      `INSERT INTO vendors (id, business_id, name, email, phone, address, default_gl_account_id, default_department_id, change_seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [id, businessId, body.name, body.email, body.phone, body.address && JSON.stringify(body.address),
        body.default_gl_account_id, body.default_department_id, seqs.last],
    );
    for (const c of body.contacts) await insertContact(tx, businessId, id, c);
    await askPayeeApproval(tx, requester, id, 'NEW_VENDOR', { reserve }, now.toISOString());
    return findVendor(tx, businessId, id);
  });
}

export async function updateVendor(tx: Queryable, businessId: string, id: string, patch: VendorPatchBody): Promise<Vendor> {
  if (patch.address !== undefined) assertAddress(patch.address);
  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    const current = await findVendor(tx, businessId, id, true);
    if (patch.name !== undefined) await assertNameFree(tx, businessId, patch.name, id);
    await assertDefaults(tx, businessId, patch);
    const next = { ...current, ...patch };
    await tx.query(
      `UPDATE vendors SET name = $3, email = $4, phone = $5, address = $6, default_gl_account_id = $7,
              default_department_id = $8, status = $9, change_seq = $10, updated_at = now()
        WHERE business_id = $1 AND id = $2`,
      [businessId, id, next.name, next.email, next.phone, next.address && JSON.stringify(next.address),
        next.default_gl_account_id, next.default_department_id, next.status, seqs.last],
    );
    return findVendor(tx, businessId, id);
  });
}

/** A tombstone: mirrors drop it; its name is free again. */
export async function deleteVendor(tx: Queryable, businessId: string, id: string, now: Date): Promise<Vendor> {
  return writeMirrored(tx, businessId, 1, async ({ seqs, reserve }) => {
    await findVendor(tx, businessId, id, true);
    await withdrawPayeeApprovals(tx, businessId, [id], { reserve }, now.toISOString());
    const rows = await tx.query<{ doc: Vendor }>(
      `UPDATE vendors r SET deleted = true, change_seq = $3, updated_at = now() WHERE r.business_id = $1 AND r.id = $2
       RETURNING ${VENDOR_DOC} AS doc`,
      [businessId, id, seqs.last],
    );
    return rows[0]!.doc;
  });
}

/** Stamps a vendor with a new seq after a change of its contacts or bank account. */
async function touchVendor(tx: Queryable, businessId: string, id: string, seq: number): Promise<Vendor> {
  await tx.query('UPDATE vendors SET change_seq = $3, updated_at = now() WHERE business_id = $1 AND id = $2', [businessId, id, seq]);
  return findVendor(tx, businessId, id);
}

/** What a payee merge moved to the survivor besides bills (counts of rows). */
export type MovedVendorRecords = { vendor_credits: number; recurring_bills: number; bill_templates: number; provisional_bills: number };

/**
 * A payee merge's records besides bills (moveBillsToVendor moves those), inside the merge's
 * transaction: the merged payees' vendor credits (what is applied of one lives on credit lines of
 * its vendor's bills, which move with it), recurring bill templates (the job bills their vendor)
 * and bill templates name the survivor, so none is left naming a tombstone. None of those is
 * mirrored; a live provisional bill is, so each moved one is stamped with its own seq from
 * `reserve`, as bills are.
 */
export async function moveVendorRecords(
  tx: Queryable, businessId: string, fromIds: readonly string[], toId: string, reserve: MirroredWrite['reserve'],
): Promise<MovedVendorRecords> {
  const from = [...fromIds];
  const move = async (table: 'vendor_credits' | 'recurring_bill_templates' | 'bill_templates') =>
    (await tx.query(
      `UPDATE ${table} SET vendor_id = $3, updated_at = now() WHERE business_id = $1 AND vendor_id = ANY($2::uuid[]) RETURNING 1`,
      [businessId, from, toId],
    )).length;
  const moved = {
    vendor_credits: await move('vendor_credits'),
    recurring_bills: await move('recurring_bill_templates'),
    bill_templates: await move('bill_templates'),
  };
  const provisional = await tx.query<{ id: string }>(
    'SELECT id::text FROM provisional_bills WHERE business_id = $1 AND vendor_id = ANY($2::uuid[]) AND NOT deleted ORDER BY id FOR UPDATE',
    [businessId, from],
  );
  if (provisional.length > 0) {
    const seqs = await reserve(provisional.length);
    await tx.query(
      `UPDATE provisional_bills p SET vendor_id = $2, change_seq = $3 + array_position($4::uuid[], p.id) - 1, updated_at = now()
        WHERE p.business_id = $1 AND p.id = ANY($4::uuid[])`,
      [businessId, toId, seqs.first, provisional.map((r) => r.id)],
    );
  }
  return { ...moved, provisional_bills: provisional.length };
}

type ContactFields = { name: string; email: string | null; phone: string | null };
async function insertContact(tx: Queryable, businessId: string, vendorId: string, c: ContactFields): Promise<void> {
  await tx.query(
    'INSERT INTO vendor_contacts (id, business_id, vendor_id, name, email, phone) VALUES ($1, $2, $3, $4, $5, $6)',
    [randomUUID(), businessId, vendorId, c.name, c.email, c.phone],
  );
}

const MAX_CONTACTS_PER_VENDOR = 200;

export async function addContact(tx: Queryable, businessId: string, vendorId: string, c: ContactFields): Promise<Vendor> {
  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    const vendor = await findVendor(tx, businessId, vendorId, true);
    if (vendor.contacts.length >= MAX_CONTACTS_PER_VENDOR) {
      throw validationError({ contacts: `A vendor can have at most ${MAX_CONTACTS_PER_VENDOR} contacts.` });
    }
    await insertContact(tx, businessId, vendorId, c);
    return touchVendor(tx, businessId, vendorId, seqs.last);
  });
}

export async function updateContact(
  tx: Queryable, businessId: string, vendorId: string, contactId: string, patch: Partial<ContactFields>,
): Promise<Vendor> {
  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    const vendor = await findVendor(tx, businessId, vendorId, true);
    const current = vendor.contacts.find((c) => c.id === contactId);
    if (!current) throw new ApiError('REQUEST_7004', 'This contact was not found.');
    const next = { ...current, ...patch };
    await tx.query('UPDATE vendor_contacts SET name = $2, email = $3, phone = $4 WHERE id = $1', [contactId, next.name, next.email, next.phone]);
    return touchVendor(tx, businessId, vendorId, seqs.last);
  });
}

/** All or none: an id that is not a contact of this vendor refuses the call (404) before any delete. */
export async function deleteContacts(tx: Queryable, businessId: string, vendorId: string, contactIds: readonly string[]): Promise<Vendor> {
  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    const vendor = await findVendor(tx, businessId, vendorId, true);
    const own = new Set(vendor.contacts.map((c) => c.id));
    if (contactIds.some((id) => !own.has(id))) throw new ApiError('REQUEST_7004', 'This contact was not found.');
    await tx.query('DELETE FROM vendor_contacts WHERE vendor_id = $1 AND id = ANY($2::uuid[])', [vendorId, [...new Set(contactIds)]]);
    return touchVendor(tx, businessId, vendorId, seqs.last);
  });
}

/** Writes (or clears, with null) a vendor's bank columns: ciphertext plus the last fours the doc shows. */
export async function storeBankAccount(tx: Queryable, vendorId: string, bank: BankAccountBody | null): Promise<void> {
  if (!bank) {
    await tx.query(
      `UPDATE vendors SET bank_account_type = NULL, bank_routing_cipher = NULL, bank_account_cipher = NULL,
              bank_routing_last_four = NULL, bank_account_last_four = NULL, bank_verified_at = NULL WHERE id = $1`,
      [vendorId],
    );
    return;
  }
  const key = await loadVendorBankKey(tx);
  const masked = maskBankAccount(bank);
  await tx.query(
    `UPDATE vendors SET bank_account_type = $2, bank_routing_cipher = $3, bank_account_cipher = $4,
            bank_routing_last_four = $5, bank_account_last_four = $6,
            bank_verified_at = CASE WHEN $7::boolean THEN now() ELSE NULL END WHERE id = $1`,
    [vendorId, bank.account_type, encryptBankValue(key, bank.routing_number, bankContext(vendorId, 'routing_number')),
      encryptBankValue(key, bank.account_number, bankContext(vendorId, 'account_number')), masked.routing_last_four, masked.last_four,
      // Issue 25: verified when the details validate (vendor-rules.ts); an unverified account is stored but never paid.
      bankAccountVerification(bank).ok],
  );
}

/** `requester`: who changes it (issue 28: a new bank account asks the payee policy's approval). */
export async function setBankAccount(tx: Queryable, requester: ActingUser, vendorId: string, bank: BankAccountBody, now: Date): Promise<Vendor> {
  const businessId = requester.business_id;
  return writeMirrored(tx, businessId, 1, async ({ seqs, reserve }) => {
    await findVendor(tx, businessId, vendorId, true);
    await storeBankAccount(tx, vendorId, bank);
    await touchVendor(tx, businessId, vendorId, seqs.last);
    await askPayeeApproval(tx, requester, vendorId, 'BANK_ACCOUNT', { reserve }, now.toISOString());
    return findVendor(tx, businessId, vendorId);
  });
}

export async function deleteBankAccount(tx: Queryable, businessId: string, vendorId: string): Promise<Vendor> {
  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    const vendor = await findVendor(tx, businessId, vendorId, true);
    if (!vendor.bank_account) throw new ApiError('REQUEST_7004', 'This vendor has no bank account.');
    await storeBankAccount(tx, vendorId, null);
    return touchVendor(tx, businessId, vendorId, seqs.last);
  });
}

/** The full numbers of a live vendor's account (decrypted here, never stored or logged elsewhere). */
export async function readBankAccount(db: Queryable, businessId: string, vendorId: string): Promise<BankAccountBody | null> {
  const rows = await db.query<{ account_type: BankAccountBody['account_type'] | null; routing: string | null; account: string | null }>(
    `SELECT bank_account_type AS account_type, bank_routing_cipher AS routing, bank_account_cipher AS account
       FROM vendors WHERE business_id = $1 AND id = $2 AND NOT deleted`,
    [businessId, vendorId],
  );
  const row = rows[0];
  if (!row) throw new ApiError('REQUEST_7004', 'This vendor was not found.');
  if (!row.account_type || !row.routing || !row.account) return null;
  const key = await loadVendorBankKey(db);
  return {
    routing_number: decryptBankValue(key, row.routing, bankContext(vendorId, 'routing_number')),
    account_number: decryptBankValue(key, row.account, bankContext(vendorId, 'account_number')),
    account_type: row.account_type,
  };
}
