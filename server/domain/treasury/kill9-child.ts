/**
 * The child process of server/ledger/kill9.pg.test.ts (issue 30): opens the PostgreSQL test database
 * (DATABASE_URL), and in one transaction starts transfer TRANSFER_ID (transfer-core's hold, then
 * the PENDING row), prints HELD, and (PAUSE=1) sleeps in the database before committing, so the
 * test can SIGKILL it between the hold and the commit. Prints DONE once committed, or EXISTS when
 * the transfer is already in the database (a run after the one that committed).
 */
import { openDb } from '../../db/db.ts';
import { allocateSeqs } from '../../db/change-seq.ts';
import { lockTransfer, startTransfer } from './transfer-core.ts';
import { findAccount } from '../../ledger/ledger.ts';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

async function main(): Promise<void> {
  const db = await openDb({ databaseUrl: env('DATABASE_URL') });
  const [businessId, id, fromId, toId] = [env('BUSINESS_ID'), env('TRANSFER_ID'), env('FROM_ID'), env('TO_ID')];
  try {
    const outcome = await db.transaction(async (tx) => {
      // The server checks its connection while the statement runs, so a killed client's backend ends at once.
      await tx.query("SET LOCAL client_connection_check_interval = '100ms'").catch(() => undefined);
      const seqs = await allocateSeqs(tx, businessId, 1);
      if (await lockTransfer(tx, businessId, id)) return 'EXISTS';
      const [from, to] = [await findAccount(tx, businessId, fromId), await findAccount(tx, businessId, toId)];
      await startTransfer(tx, {
        businessId, id, from: from!, to: to!, amount: Number(env('AMOUNT')), fee: 0, memo: 'kill -9', expectedSettlementDate: '2026-11-23',
        createdBy: null, at: new Date('2026-11-20T12:00:00Z'), seq: seqs!.first,
      });
      process.stdout.write('HELD\n');
      if (process.env.PAUSE === '1') await tx.query('SELECT pg_sleep(60)');
      return 'DONE';
    });
    process.stdout.write(`${outcome}\n`);
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
