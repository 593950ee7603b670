import { randomUUID } from 'node:crypto';
import type { VendorCredit, VendorCreditCreate } from '../../schema/entities/vendor-credit.ts';
import { formatMoney, isKnownCurrency } from '../../schema/money.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { newestFirstPage, type Page, type PageRequest } from './newest-first-page.ts';
import { findVendor } from './vendors.ts';
import { findLiveDoc } from './live-doc.ts';

/**
 * Vendor credits (issue 11 §7): a vendor's credit note, applied to its bills by credit lines
 * (`vendor_credit_id`, a negative amount). Nothing stores what is applied: it is the credit lines
 * of the business's live bills (not CANCELED, not deleted), so canceling a bill releases its
 * credit. A bill write that applies credits locks each credit row (FOR UPDATE, in id order, after
 * writeMirrored's business row) before summing what the other bills took: two bills racing for
 * the last of a credit are ordered by that lock, and the second sees the first's lines.
 */

/** What live bills other than `$2` (null: none excluded) have taken of credit `r`. */
const appliedSql = (credit: string, exceptBill = 'NULL::uuid') => `(SELECT coalesce(-sum(li.amount), 0)::bigint
    FROM bill_line_items li JOIN bills b ON b.id = li.bill_id
   WHERE li.vendor_credit_id = ${credit} AND b.status <> 'CANCELED' AND NOT b.deleted AND b.id IS DISTINCT FROM ${exceptBill})`;

const CREDIT_DOC = `jsonb_build_object(
  'id', r.id, 'business_id', r.business_id, 'vendor_id', r.vendor_id, 'currency', r.currency, 'amount', r.amount,
  'applied', ${appliedSql('r.id')}, 'remaining', greatest(r.amount - ${appliedSql('r.id')}, 0),
  'credit_note_number', r.credit_note_number, 'credit_date', to_char(r.credit_date, 'YYYY-MM-DD'), 'memo', r.memo,
  'created_by', r.created_by, 'created_at', ll_iso(r.created_at), 'updated_at', ll_iso(r.updated_at), 'deleted', r.deleted)`;

async function findCredit(db: Queryable, businessId: string, id: string, lock = false): Promise<VendorCredit> {
  return findLiveDoc<VendorCredit>(db, { table: 'vendor_credits', doc: CREDIT_DOC, notFound: 'This vendor credit was not found.' }, businessId, id, lock);
}

export async function createCredit(tx: Queryable, user: ActingUser, body: VendorCreditCreate, now: Date): Promise<VendorCredit> {
  await findVendor(tx, user.business_id, body.vendor_id);
  const id = randomUUID();
  await tx.query(
    `INSERT INTO vendor_credits (id, business_id, vendor_id, currency, amount, credit_note_number, credit_date, memo, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
    [id, user.business_id, body.vendor_id, body.currency, body.amount, body.credit_note_number, body.credit_date, body.memo ?? null,
      user.id, now.toISOString()],
  );
  return findCredit(tx, user.business_id, id);
}

/** Refused once any of it is applied to a live bill (remove those credit lines, or cancel the bills, first). */
export async function deleteCredit(tx: Queryable, user: ActingUser, id: string, now: Date): Promise<VendorCredit> {
  const credit = await findCredit(tx, user.business_id, id, true);
  if (credit.applied > 0) {
    const money = formatMoney(credit.applied, credit.currency);
    throw new ApiError('REQUEST_7001', `${money} of this credit is applied to bills; remove it from those bills (or cancel them) before deleting the credit.`);
  }
  await tx.query('UPDATE vendor_credits SET deleted = true, updated_at = $3 WHERE business_id = $1 AND id = $2',
    [user.business_id, id, now.toISOString()]);
  return { ...credit, deleted: true, updated_at: now.toISOString() };
}

export async function listCredits(
  db: Queryable, businessId: string, filter: { vendor_id?: string | undefined }, req: PageRequest,
): Promise<Page<VendorCredit>> {
  const params: unknown[] = [businessId];
  let where = 'r.business_id = $1 AND NOT r.deleted';
  if (filter.vendor_id) where += ` AND r.vendor_id = $${params.push(filter.vendor_id)}`;
  return newestFirstPage<VendorCredit>(db, { table: 'vendor_credits', doc: CREDIT_DOC, where, params }, req);
}

type CreditedBill = {
  vendor_id: string;
  currency: string;
  line_items: readonly { amount: number; vendor_credit_id?: string | null | undefined }[];
};

/**
 * The bill's credit lines against their credits, inside the bill write's transaction: each credit
 * must be the business's (else 404), of the bill's vendor and currency, and what this bill takes
 * plus what other live bills took must not pass its amount (422 on the line, naming what remains).
 * `billId`: the bill being written, whose own earlier lines do not count against it.
 */
export async function assertCreditLines(tx: Queryable, businessId: string, billId: string, bill: CreditedBill): Promise<void> {
  const uses = new Map<string, { take: number; line: number }>();
  bill.line_items.forEach((l, i) => {
    if (!l.vendor_credit_id) return;
    const use = uses.get(l.vendor_credit_id) ?? { take: 0, line: i };
    use.take += -l.amount;
    uses.set(l.vendor_credit_id, use);
  });
  const errors: Record<string, string> = {};
  for (const creditId of [...uses.keys()].sort()) {
    const { take, line } = uses.get(creditId)!;
    const [credit] = await tx.query<{ vendor_id: string; currency: string; amount: number; number: string; applied: number }>(
      `SELECT r.vendor_id::text, r.currency, r.amount, r.credit_note_number AS number FROM vendor_credits r
        WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted FOR UPDATE`,
      [businessId, creditId],
    );
    if (!credit) throw new ApiError('REQUEST_7004', 'This vendor credit was not found.');
    const field = `line_items.${line}.vendor_credit_id`;
    if (credit.vendor_id !== bill.vendor_id) {
      errors[field] = `Credit ${credit.number} is from another vendor; apply it to a bill of that vendor.`;
      continue;
    }
    if (credit.currency !== bill.currency) {
      errors[field] = `Credit ${credit.number} is in ${credit.currency}, the bill in ${bill.currency}.`;
      continue;
    }
    const [row] = await tx.query<{ applied: number }>(`SELECT ${appliedSql('$1::uuid', '$2::uuid')} AS applied`, [creditId, billId]);
    const remaining = Number(credit.amount) - Number(row?.applied ?? 0);
    if (take > remaining) {
      const money = (n: number) => (isKnownCurrency(credit.currency) ? formatMoney(n, credit.currency) : String(n));
      errors[`line_items.${line}.amount`] = `Only ${money(Math.max(remaining, 0))} of credit ${credit.number} remains.`;
    }
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}
