import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { reconciliationMatchSchema } from '../../../schema/api/calls-accounting.ts';
import { minorToDecimal } from '../../../schema/money.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { visibleUsersClause, type Visibility } from '../visibility.ts';

type Match = z.infer<typeof reconciliationMatchSchema>;
export type ManualMatchInput = { transaction_id: string; bill_id: string } | { transaction_id: string; bank_line_id: string };

const MATCH_DOC = `jsonb_build_object('id', m.id, 'transaction_id', m.transaction_id, 'bill_id', m.bill_id,
  'bank_line_id', m.bank_line_id, 'created_by', m.created_by, 'created_at', ll_iso(m.created_at))`;
/** A bill in these statuses is owed or paid: one a card charge can have paid. */
const MATCHABLE_BILL = new Set(['APPROVED', 'SCHEDULED', 'PAID', 'RECONCILED', 'PAYMENT_FAILED']);

/**
 * Manual reconciliation (issue 12, `POST /accounting/reconciliation/manual-match`): the user says
 * a card transaction is the payment of a bill (same currency and amount), or is a given line of a
 * bank statement (its id, as the bank or the accounting system names it). A transaction is matched
 * once. Another business's (or an invisible) transaction or bill is 404.
 */
export async function manualMatch(tx: Queryable, user: ActingUser, vis: Visibility, input: ManualMatchInput, now: Date): Promise<Match> {
  const businessId = user.business_id;
  const params: unknown[] = [businessId, input.transaction_id];
  const [txn] = await tx.query<{ amount: number; currency: string; state: string }>(
    `SELECT r.amount, r.currency, r.state FROM transactions r
      WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${visibleUsersClause(vis, 'r', params)} FOR UPDATE OF r`,
    params,
  );
  if (!txn) throw new ApiError('REQUEST_7004', 'This transaction was not found.');
  if (txn.state === 'DECLINED' || txn.state === 'REVERSED') {
    throw validationError({ transaction_id: `transaction_id is ${txn.state.toLowerCase()}: only spend can be matched` });
  }
  const billId = 'bill_id' in input ? input.bill_id : null;
  if (billId) {
    const [bill] = await tx.query<{ amount: number; currency: string; status: string; invoice_number: string }>(
      'SELECT amount, currency, status, invoice_number FROM bills WHERE business_id = $1 AND id = $2 AND NOT deleted', [businessId, billId],
    );
    if (!bill) throw new ApiError('REQUEST_7004', 'This bill was not found.');
    if (!MATCHABLE_BILL.has(bill.status)) throw validationError({ bill_id: `bill_id is ${bill.status}: only an approved or paid bill can be matched` });
    if (bill.currency !== txn.currency || Number(bill.amount) !== Number(txn.amount)) {
      throw validationError({
        bill_id: `bill_id is ${minorToDecimal(Number(bill.amount), bill.currency)} ${bill.currency}, the transaction ` +
          `${minorToDecimal(Number(txn.amount), txn.currency)} ${txn.currency}: a match needs the same amount and currency`,
      });
    }
  }
  const existing = await tx.query<{ doc: Match }>(`SELECT ${MATCH_DOC} AS doc FROM accounting_reconciliation_matches m WHERE m.transaction_id = $1`, [input.transaction_id]);
  if (existing[0]) {
    const to = existing[0].doc.bill_id ? 'a bill' : `bank line ${existing[0].doc.bank_line_id}`;
    throw validationError({ transaction_id: `transaction_id is already matched to ${to}` });
  }
  const id = randomUUID();
  await tx.query(
    `INSERT INTO accounting_reconciliation_matches (id, business_id, transaction_id, bill_id, bank_line_id, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, businessId, input.transaction_id, billId, 'bank_line_id' in input ? input.bank_line_id : null, user.id, now.toISOString()],
  );
  const [row] = await tx.query<{ doc: Match }>(`SELECT ${MATCH_DOC} AS doc FROM accounting_reconciliation_matches m WHERE m.id = $1`, [id]);
  return row!.doc;
}
