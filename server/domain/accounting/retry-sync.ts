import type { Bill } from '../../../schema/entities/bill.ts';
import { checkBillAction } from '../../../schema/bill-rules.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError, refuse } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { findBill } from '../bills.ts';
import { assertMayManageAccounting, PROVIDER_NAMES, readSettings } from './settings.ts';
import { createSyncCommit } from './sync-commits.ts';

/**
 * retry-accounting-sync (§7 bill bulk action) on the sync commits of issue 12. A bill's accounting
 * sync has failed when the bill is past approval (BILL_ACTIONS.retryAccountingSync) and still
 * unsynced: no commit carried it (none ran since, or the one that ran could not take it).
 * Retrying runs a sync commit to the connected provider carrying that bill alone — the very commit
 * of POST …/sync_commit (advisory lock, the bill marked with its own seq, its files stored) — so
 * the bill is exported exactly once: a bill already synced, a repeated retry included, is refused
 * with ACCOUNTING_7301 naming its commit (nothing failed; mark it not synced to export it again).
 * No provider connected → ACCOUNTING_7304; a bill no commit can take yet → ACCOUNTING_7303 with
 * the reason; a commit already running → ACCOUNTING_7302 (try again).
 */
export async function retryBillSync(tx: Queryable, user: ActingUser, billId: string, now: Date): Promise<Bill> {
  assertMayManageAccounting(user);
  const bill = await findBill(tx, user.business_id, billId);
  refuse(checkBillAction('retryAccountingSync', bill.status));
  assertNotSyncedYet(bill);
  const { provider_type: provider } = await readSettings(tx, user.business_id);
  if (!provider) throw new ApiError('ACCOUNTING_7304', 'No accounting provider is connected: connect one in Accounting, then retry the sync.');
  try {
    await createSyncCommit(tx, user, provider, now, { type: 'bill', ids: [billId] });
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'ACCOUNTING_7303') throw err;
    // Nothing taken: a commit that ran meanwhile may have carried it; else say what it lacks.
    const now2 = await findBill(tx, user.business_id, billId);
    assertNotSyncedYet(now2);
    throw new ApiError('ACCOUNTING_7303', untakeable(now2, PROVIDER_NAMES[provider], provider === 'xero_csv'));
  }
  return findBill(tx, user.business_id, billId);
}

function assertNotSyncedYet(bill: Bill): void {
  if (!bill.accounting_synced_at) return;
  throw new ApiError(
    'ACCOUNTING_7301',
    `This bill was synced to accounting on ${bill.accounting_synced_at.slice(0, 10)}: there is no failed sync to retry. Mark it as not synced to export it again.`,
  );
}

function untakeable(bill: Bill, providerName: string, moneyMovedOnly: boolean): string {
  if (bill.line_items.some((l) => !l.gl_account_id)) {
    return 'This bill cannot sync yet: give every line a GL account, then retry.';
  }
  if (moneyMovedOnly && bill.paid_manually) {
    return `${providerName} books only money that moved through Ledgerline: a bill marked paid outside it is not exported there.`;
  }
  if (moneyMovedOnly) return `${providerName} books only money that moved: this bill syncs once its payment has settled.`;
  return 'This bill cannot sync yet.';
}
