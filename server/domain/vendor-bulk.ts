import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { BulkVendorRow, vendorListQuerySchema } from '../../schema/api/calls-vendors.ts';
import type { Vendor } from '../../schema/entities/vendor.ts';
import { checkMerge, mergedFields, vendorNameKey } from '../../schema/vendor-rules.ts';
import { vendorsFromRows } from '../../schema/vendor-upload.ts';
import { bankContext, decryptBankValue, loadVendorBankKey } from '../auth/vendor-bank-crypto.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { moveBillsToVendor } from './bills.ts';
import { listCollection } from './reference-lists.ts';
import { writeMirrored, type MirroredWrite } from './collections.ts';
import { askPayeeApproval, findVendor, moveVendorRecords, storeBankAccount, withdrawPayeeApprovals } from './vendors.ts';
import { policySaved } from './approval-rows.ts';

/** Vendors (issue 11) in numbers: the searchable list, payee merges and bulk uploads. */

type ListQuery = z.output<typeof vendorListQuerySchema>;
const likeEscaped = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A keyset page (lower(name), id) of the business's live vendors, every member's to read (they
 * are mirrored to everyone). `q` finds a vendor by its name or a contact's name or email.
 */
export async function listVendors(db: Queryable, user: ActingUser, q: ListQuery) {
  return listCollection(db, user, 'vendors', q, (params) => vendorListConditions(q, params)) as Promise<{
    data: Vendor[]; page: { next: string | null }; total_count?: number;
  }>;
}

/** The vendors list's narrowing (status, `q` words) over alias `r`, ` AND …` (also the vendors' /pagination). */
export function vendorListConditions(q: Pick<ListQuery, 'status' | 'q'>, params: unknown[]): string {
  let where = '';
  if (q.status !== 'ALL') {
    params.push(q.status);
    where += ` AND r.status = $${params.length}`;
  }
  if (q.q) {
    params.push(`%${likeEscaped(q.q.toLowerCase())}%`);
    const p = `$${params.length}`;
    where += ` AND (lower(r.name) LIKE ${p} OR EXISTS (SELECT 1 FROM vendor_contacts vc WHERE vc.vendor_id = r.id
                 AND (lower(vc.name) LIKE ${p} OR lower(coalesce(vc.email, '')) LIKE ${p})))`;
  }
  return where;
}

/**
 * Every row elsewhere that names a vendor moves from the merged payees to the survivor, inside
 * the merge's transaction: bills (each moved bill stamped with a seq from `reserve`), vendor
 * credits, recurring bill templates, bill templates and provisional bills (moveVendorRecords).
 * Returns how many bills moved.
 */
async function moveVendorReferences(
  tx: Queryable, businessId: string, fromIds: readonly string[], toId: string, reserve: MirroredWrite['reserve'],
): Promise<number> {
  const bills = await moveBillsToVendor(tx, businessId, fromIds, toId, reserve);
  await moveVendorRecords(tx, businessId, fromIds, toId, reserve);
  return bills;
}

/**
 * Folds `mergedIds` into the survivor, all or nothing: each merged payee becomes a tombstone
 * pointing at the survivor (`merged_into_id`), its contacts and references move over, and the
 * survivor's empty details (and bank account, re-encrypted under its own id) are filled from the
 * merged payees in the order named. Rows are locked in id order so two merges naming the same
 * payees queue rather than deadlock.
 */
export async function mergePayees(tx: Queryable, requester: ActingUser, survivorId: string, mergedIds: readonly string[], now: Date) {
  const businessId = requester.business_id;
  return writeMirrored(tx, businessId, 1 + mergedIds.length, async ({ seqs, reserve }) => {
    const all = [survivorId, ...mergedIds];
    const locked = await tx.query<{ id: string }>(
      'SELECT id::text FROM vendors WHERE business_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted ORDER BY id FOR UPDATE',
      [businessId, [...new Set(all)]],
    );
    const found = new Set(locked.map((r) => r.id));
    if (all.some((id) => !found.has(id))) throw new ApiError('REQUEST_7004', 'This vendor was not found.');
    const survivor = await findVendor(tx, businessId, survivorId);
    const check = checkMerge(survivorId, mergedIds, survivor);
    if (!check.ok) throw validationError({ [check.field]: check.message });
    const merged = await Promise.all(mergedIds.map((id) => findVendor(tx, businessId, id)));

    await tx.query('UPDATE vendor_contacts SET vendor_id = $2 WHERE vendor_id = ANY($1::uuid[])', [[...mergedIds], survivorId]);
    await moveVendorReferences(tx, businessId, mergedIds, survivorId, reserve);
    await tx.query(
      `UPDATE vendors v SET deleted = true, merged_into_id = $2, change_seq = $3 + array_position($4::uuid[], v.id), updated_at = now()
        WHERE v.business_id = $1 AND v.id = ANY($4::uuid[])`,
      [businessId, survivorId, seqs.first, [...mergedIds]],
    );
    // Issue 28: the merged payees' open payee approvals go with them; an account the survivor takes
    // from one is a new account for it, so with a payee policy it waits for approval like any other.
    await withdrawPayeeApprovals(tx, businessId, mergedIds, { reserve }, now.toISOString());
    const donor = survivor.bank_account ? undefined : merged.find((m) => m.bank_account);
    if (donor) {
      await storeBankAccount(tx, survivorId, await bankOf(tx, donor.id));
      await askPayeeApproval(tx, requester, survivorId, 'BANK_ACCOUNT', { reserve }, now.toISOString());
    }
    const f = mergedFields(survivor, merged);
    await tx.query(
      `UPDATE vendors SET email = $3, phone = $4, address = $5, default_gl_account_id = $6, default_department_id = $7,
              change_seq = $8, updated_at = now() WHERE business_id = $1 AND id = $2`,
      [businessId, survivorId, f.email, f.phone, f.address && JSON.stringify(f.address), f.default_gl_account_id, f.default_department_id, seqs.first],
    );
    return { vendor: await findVendor(tx, businessId, survivorId), merged_payee_ids: [...mergedIds] };
  });
}

/** A merged payee's account in the clear, to store again under the survivor's id. */
async function bankOf(tx: Queryable, vendorId: string) {
  const rows = await tx.query<{ account_type: 'CHECKING' | 'SAVINGS'; routing: string; account: string }>(
    'SELECT bank_account_type AS account_type, bank_routing_cipher AS routing, bank_account_cipher AS account FROM vendors WHERE id = $1',
    [vendorId],
  );
  const row = rows[0]!;
  const key = await loadVendorBankKey(tx);
  return {
    account_type: row.account_type,
    routing_number: decryptBankValue(key, row.routing, bankContext(vendorId, 'routing_number')),
    account_number: decryptBankValue(key, row.account, bankContext(vendorId, 'account_number')),
  };
}

type RowReport = { row: number; ok: boolean; id?: string; errors?: Record<string, string> };

/**
 * A spreadsheet of vendors: every row is checked (fields, PAYEE_1007, names repeated within the
 * file or already taken by a live vendor) and reported; when any row is refused nothing is
 * created, so the corrected file can be uploaded again without duplicating the good rows.
 */
export async function bulkUploadVendors(tx: Queryable, requester: ActingUser, rows: readonly BulkVendorRow[], now: Date) {
  const businessId = requester.business_id;
  const checked = vendorsFromRows(rows);
  const names = checked.flatMap((r) => (r.ok ? [vendorNameKey(r.body.name)] : []));
  const taken = new Set((await tx.query<{ k: string }>(
    'SELECT lower(btrim(name)) AS k FROM vendors WHERE business_id = $1 AND NOT deleted AND lower(btrim(name)) = ANY($2::text[])',
    [businessId, names],
  )).map((r) => r.k));
  const reports: RowReport[] = checked.map((r, i) => {
    if (!r.ok) return { row: i + 1, ok: false, errors: r.errors };
    if (taken.has(vendorNameKey(r.body.name))) return { row: i + 1, ok: false, errors: { name: `A vendor named '${r.body.name}' already exists.` } };
    return { row: i + 1, ok: true };
  });
  if (reports.some((r) => !r.ok)) return { created: 0, results: reports };
  const bodies = checked.flatMap((r) => (r.ok ? [r.body] : []));
  return writeMirrored(tx, businessId, bodies.length, async ({ seqs, reserve }) => {
    // A concurrent write that took one of these names since the check meets the unique index:
    // 422, and this transaction rolls back whole.
    const ids = bodies.map(() => randomUUID());
    await tx.query(
      `INSERT INTO vendors (id, business_id, name, email, phone, address, change_seq)
       SELECT x.id, $1, x.name, x.email, x.phone, x.address, x.change_seq
         FROM jsonb_to_recordset($2::jsonb) AS x(id uuid, name text, email text, phone text, address jsonb, change_seq bigint)`,
      [businessId, JSON.stringify(bodies.map((b, i) => ({
        id: ids[i], name: b.name, email: b.email, phone: b.phone, address: b.address, change_seq: seqs.first + i,
      })))],
    );
    // Issue 28: with a saved payee policy, each new vendor waits for its approval.
    if (await policySaved(tx, businessId, 'payee')) {
      for (const id of ids) await askPayeeApproval(tx, requester, id, 'NEW_VENDOR', { reserve }, now.toISOString());
    }
    return { created: bodies.length, results: reports.map((r, i) => ({ ...r, id: ids[i] })) };
  });
}
