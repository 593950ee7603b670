import type { Db } from '../../db/db.ts';
import { startPeriodicJob, type PeriodicJob, type PeriodicJobOptions } from '../../core/periodic-job.ts';
import { collectDue } from './installments.ts';

/**
 * Issue 30, flex: the installment job (server/main.ts, hourly). Every SCHEDULED installment whose
 * due date has come is collected from the primary OPERATING account (installments.ts `collectDue`:
 * one FLEX_INSTALLMENT entry, or FAILED with the reason and nothing posted), each in its own
 * transaction that first locks the business row (the lock order of every writer: the operating
 * account's balance change takes a seq from it), then the installment `FOR UPDATE SKIP LOCKED`
 * re-read SCHEDULED and due. A second runner, in this process or another, finds nothing to do.
 */
const BATCH = 500;

export type InstallmentRun = { paid: number; failed: number };

export async function collectDueInstallments(db: Db, now: Date): Promise<InstallmentRun> {
  const run: InstallmentRun = { paid: 0, failed: 0 };
  const due = await db.query<{ business_id: string; id: string }>(
    `SELECT business_id, id FROM flex_installments WHERE status = 'SCHEDULED' AND due_date <= $1::date ORDER BY due_date, id LIMIT ${BATCH}`,
    [now.toISOString().slice(0, 10)],
  );
  for (const { business_id: businessId, id } of due) {
    const result = await db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM businesses WHERE id = $1 FOR NO KEY UPDATE', [businessId]);
      return collectDue(tx, businessId, id, now);
    });
    if (result?.status === 'PAID') run.paid += 1;
    else if (result?.status === 'FAILED') run.failed += 1;
  }
  return run;
}

export const startFlexInstallmentJob = (db: Db, opts: PeriodicJobOptions): PeriodicJob =>
  startPeriodicJob((now) => collectDueInstallments(db, now), opts);
