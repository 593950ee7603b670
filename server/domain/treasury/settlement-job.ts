import type { Db } from '../../db/db.ts';
import { writeMirrored } from '../collections.ts';
import { startPeriodicJob, type PeriodicJob, type PeriodicJobOptions } from '../../core/periodic-job.ts';
import { lockTransfer, releaseTransfer, settleTransfer } from './transfer-core.ts';

/**
 * Issue 30: the transfer settlement job (every 5 minutes in each server process, like the bill
 * settlement job). A PENDING transfer whose expected_settlement_date has come settles
 * (settleTransfer: the amount reaches the target, the fee FEES); one whose linked bank account was
 * deleted or is no longer VERIFIED fails instead (releaseTransfer: the hold goes back).
 *
 * Exactly once across processes: candidates are read without locks, then each is handled in its
 * own transaction that locks the business row first (writeMirrored, every mirrored writer's first
 * lock), then the transfer row, and re-reads its status; settle and release post under the entry
 * keys `transfer:<id>:settle|release`, so a second runner finds nothing left to do.
 */
export type TransferSettlementRun = { settled: number; failed: number };

const BATCH = 200;
const MAX_BATCHES = 20;

export async function settleDueTransfers(db: Db, now: Date): Promise<TransferSettlementRun> {
  const run: TransferSettlementRun = { settled: 0, failed: 0 };
  const day = now.toISOString().slice(0, 10);
  const skip = new Set<string>();
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const due = await db.query<{ business_id: string; id: string }>(
      `SELECT business_id::text, id::text FROM wallet_transfers
        WHERE status = 'PENDING' AND expected_settlement_date <= $1::date AND NOT (id = ANY($3::uuid[]))
        ORDER BY expected_settlement_date, id LIMIT $2`,
      [day, BATCH, [...skip]],
    );
    for (const { business_id: businessId, id } of due) {
      skip.add(id);
      const outcome = await db.transaction((tx) => writeMirrored(tx, businessId, 1, async ({ seqs }) => {
        const t = await lockTransfer(tx, businessId, id);
        if (!t || t.status !== 'PENDING' || t.expected_settlement_date > day) return null;
        const [bank] = await tx.query<{ status: string; deleted: boolean; name: string }>(
          `SELECT b.status, b.deleted, b.name FROM ledger_accounts a JOIN bank_accounts b ON b.business_id = a.business_id AND b.id = a.bank_account_id
            WHERE a.business_id = $1 AND a.id = ANY($2::uuid[]) AND a.kind = 'EXTERNAL_BANK' AND (b.deleted OR b.status <> 'VERIFIED') LIMIT 1`,
          [businessId, [t.from_account_id, t.to_account_id]],
        );
        if (bank) {
          const reason = bank.deleted ? `The bank account ${bank.name} was removed before the transfer settled.`
            : `The bank account ${bank.name} is no longer verified.`;
          await releaseTransfer(tx, t, { status: 'FAILED', reason }, now, seqs.first);
          return 'failed' as const;
        }
        await settleTransfer(tx, t, now, seqs.first);
        return 'settled' as const;
      }));
      if (outcome) run[outcome]++;
    }
    if (due.length < BATCH) break;
  }
  return run;
}

/** The job in a server process: at start and every `everyMs`; one run at a time per process. */
export const startTransferSettlementJob = (db: Db, opts: PeriodicJobOptions): PeriodicJob =>
  startPeriodicJob((now) => settleDueTransfers(db, now), opts);
