import type { CheckImages } from '../../schema/api/calls-bill-rails.ts';
import type { Bill } from '../../schema/entities/bill.ts';
import type { VendorAddress } from '../../schema/entities/vendor.ts';
import type { PaymentRail } from '../../schema/payment-rails.ts';
import { bankContext, decryptBankValue, loadVendorBankKey } from '../auth/vendor-bank-crypto.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { returnAttempt } from './bill-payments.ts';
import { findBill } from './bills.ts';
import { checkBackSvg, checkFrontSvg, svgDataUrl, type CheckImageData } from './check-image.ts';
import { writeMirrored } from './collections.ts';
import { mt103, wireReference } from './mt103.ts';

/**
 * Issue 30: a payment attempt's rail documents (a check's images, a wire's MT103) and voiding a
 * check before it clears. The attempt is found within the caller's business (another business's
 * id is 404 REQUEST_7004, as an unknown one), then its rail is checked (BILL_PAY_7103 naming it).
 */

/**
 * The partner bank the business's Ledgerline operating account is held at (simulated: a routing
 * number that passes the ABA checksum, no real bank's). The account number is derived from the
 * primary operating account's id, so it is stable per business.
 */
export const PAYER_BANK = { name: 'Ledgerline Partner Bank', routing: '123456780' } as const;
export const payerAccountNumber = (ledgerAccountId: string): string =>
  [...ledgerAccountId.replace(/-/g, '').slice(0, 12)].map((c) => String(parseInt(c, 16) % 10)).join('');

type PaymentRow = {
  id: string; bill_id: string; rail: PaymentRail; status: CheckImages['status']; amount: string; currency: string;
  check_number: number | null; mailed_at: string | null; cleared_at: string | null; voided_at: string | null;
  uetr: string | null; settles_on: string | null; created_at: string;
  invoice_number: string; vendor_id: string; vendor_name: string; address: VendorAddress | null; business_name: string;
  routing_cipher: string | null; account_cipher: string | null; operating_id: string | null;
};

const RAIL_WORDS: Record<PaymentRail, string> = { ACH: 'by ACH', CHECK: 'by check', WIRE: 'by wire' };

async function findPayment(db: Queryable, businessId: string, paymentId: string, lock = false): Promise<PaymentRow> {
  const [row] = await db.query<PaymentRow>(
    `SELECT p.id::text, p.bill_id::text, p.rail, p.status, p.amount::text AS amount, p.currency, p.check_number,
            ll_iso(p.mailed_at) AS mailed_at, ll_iso(p.cleared_at) AS cleared_at, ll_iso(p.voided_at) AS voided_at,
            p.uetr::text, to_char(p.settles_on, 'YYYY-MM-DD') AS settles_on, ll_iso(p.created_at) AS created_at,
            b.invoice_number, v.id::text AS vendor_id, v.name AS vendor_name, v.address, biz.name AS business_name,
            v.bank_routing_cipher AS routing_cipher, v.bank_account_cipher AS account_cipher,
            (SELECT a.id::text FROM ledger_accounts a WHERE a.business_id = p.business_id AND a.kind = 'OPERATING'
                AND a.currency = p.currency AND a.is_primary AND NOT a.deleted) AS operating_id
       FROM bill_payments p JOIN bills b ON b.id = p.bill_id JOIN vendors v ON v.id = b.vendor_id
       JOIN businesses biz ON biz.id = p.business_id
      WHERE p.business_id = $1 AND p.id = $2 AND NOT b.deleted${lock ? ' FOR UPDATE OF p' : ''}`,
    [businessId, paymentId],
  );
  if (!row) throw new ApiError('REQUEST_7004', 'This payment was not found.');
  return row;
}

function requireRail(row: PaymentRow, rail: PaymentRail): void {
  if (row.rail === rail) return;
  const what = rail === 'CHECK' ? 'Check images exist only for payments sent by check' : 'An MT103 exists only for payments sent by wire';
  throw new ApiError('BILL_PAY_7103', `${what}; this payment was sent ${RAIL_WORDS[row.rail]}.`);
}

const payer = (row: PaymentRow) => ({ name: row.business_name, bankName: PAYER_BANK.name, routing: PAYER_BANK.routing,
  account: payerAccountNumber(row.operating_id ?? row.id) });

export async function checkImages(db: Queryable, businessId: string, paymentId: string): Promise<CheckImages> {
  const row = await findPayment(db, businessId, paymentId);
  requireRail(row, 'CHECK');
  const data: CheckImageData = {
    checkNumber: row.check_number!, date: (row.mailed_at ?? row.created_at).slice(0, 10), amount: Number(row.amount), currency: row.currency,
    payer: payer(row), payee: { name: row.vendor_name, address: row.address }, invoiceNumber: row.invoice_number,
    clearedAt: row.cleared_at, voidedAt: row.voided_at,
  };
  return {
    payment_id: row.id, check_number: row.check_number!, status: row.status, mailed_at: row.mailed_at, cleared_at: row.cleared_at,
    voided_at: row.voided_at, front: svgDataUrl(checkFrontSvg(data)), back: svgDataUrl(checkBackSvg(data)),
  };
}

/** The wire's MT103 and its file name. The beneficiary's bank is read from the vendor's stored (encrypted) details. */
export async function wireMt103(db: Queryable, businessId: string, paymentId: string): Promise<{ text: string; fileName: string }> {
  const row = await findPayment(db, businessId, paymentId);
  requireRail(row, 'WIRE');
  const key = await loadVendorBankKey(db);
  const reveal = (cipher: string | null, field: 'routing_number' | 'account_number') =>
    (cipher ? decryptBankValue(key, cipher, bankContext(row.vendor_id, field)) : '');
  const text = mt103({
    paymentId: row.id, uetr: row.uetr!, valueDate: row.settles_on ?? row.created_at.slice(0, 10), amount: Number(row.amount), currency: row.currency,
    orderingCustomer: { account: payer(row).account, name: row.business_name, country: 'US' },
    orderingInstitution: { routing: PAYER_BANK.routing, name: PAYER_BANK.name },
    beneficiary: {
      routing: reveal(row.routing_cipher, 'routing_number'), account: reveal(row.account_cipher, 'account_number'),
      name: row.vendor_name, address: row.address,
    },
    invoiceNumber: row.invoice_number,
  });
  return { text, fileName: `MT103-${wireReference(row.id)}.txt` };
}

/**
 * A mailed check stopped before it clears: the attempt REVERSED with `voided_at`, its amount back
 * to the account it left (PAYMENTS_IN_FLIGHT → OPERATING, key `bill-payment:<id>:return`, once),
 * the bill APPROVED again. The bill is locked first (as every writer of a bill's payments does),
 * then the attempt; the settlement job's clearing takes the same locks, so a check clears or is
 * voided, never both.
 */
export async function voidCheck(tx: Queryable, user: ActingUser, paymentId: string, now: Date): Promise<Bill> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const found = await findPayment(tx, user.business_id, paymentId);
    requireRail(found, 'CHECK');
    await findBill(tx, user.business_id, found.bill_id, true);
    const row = await findPayment(tx, user.business_id, paymentId, true);
    if (row.status !== 'PENDING') {
      const why = row.status === 'SETTLED' ? `it cleared on ${row.cleared_at?.slice(0, 10)}` : row.voided_at ? 'it is already voided' : `it is ${row.status.toLowerCase()}`;
      throw new ApiError('BILL_PAY_7104', `Check ${row.check_number} cannot be voided: ${why}.`);
    }
    const at = now.toISOString();
    await tx.query(`UPDATE bill_payments SET status = 'REVERSED', voided_at = $2, updated_at = $2 WHERE id = $1`, [row.id, at]);
    await returnAttempt(tx, user.business_id, { id: row.id, was: 'PENDING', amount: Number(row.amount) }, now, `Check ${row.check_number} voided`, user.id);
    await tx.query(
      `UPDATE bills SET status = 'APPROVED', payment_date = NULL, paid_at = NULL, paid_manually = false, change_seq = $3, updated_at = $4
        WHERE business_id = $1 AND id = $2`,
      [user.business_id, row.bill_id, seqs.last, at],
    );
    return findBill(tx, user.business_id, row.bill_id);
  });
}
