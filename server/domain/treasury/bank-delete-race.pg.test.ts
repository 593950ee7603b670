/**
 * Issue 30 gap (a): a transfer to or from a linked bank account and the delete of that bank account
 * take turns on PostgreSQL. The transfer reads the bank row FOR SHARE (transfer-core.ts
 * lockLinkedBanks), the delete locks it FOR UPDATE and refuses BANKING_7004 while a PENDING
 * transfer uses it. So either the transfer exists and the delete was refused, or the delete won and
 * the transfer was refused — never a PENDING transfer to a bank account that is gone.
 * Two held transactions make each order happen for sure; then rounds of free races over two processes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/db.ts';
import { checkLedger } from '../../ledger/check.ts';
import { withPgBusiness } from '../../test-pg-race.ts';
import { pgAvailable } from '../../testing.ts';
import { request } from '../../test-fixtures.ts';
import { linkBank, openWallet } from '../../routes/treasury-test-kit.ts';
import { deleteBankAccount } from '../banking/bank-accounts.ts';
import { createTransfer, externalBankAccount } from './transfers.ts';

const usd = (amount: number) => ({ amount, currency: 'USD' });
const transfersPath = (wallet: string) => `/v1/auth/treasury/business-accounts/${wallet}/transfers`;
const bankPath = (id: string) => `/v1/auth/banking/user/bank-accounts/${id}`;

/** A VERIFIED bank account with its EXTERNAL_BANK ledger account, as the banking calls leave it. */
async function verifiedBank(db: Db, businessId: string, name: string): Promise<string> {
  const id = await linkBank(db, businessId, { name });
  await db.transaction(async (tx) => {
    await externalBankAccount(tx, businessId, { id, name, account_last4: '6789', currency: 'USD', status: 'VERIFIED' });
  });
  return id;
}

/** A transaction held open after `work` until `release()`: the other side runs while it holds its locks. */
function held<T>(db: Db, work: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<T>) {
  let release!: () => void;
  let holding!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const ready = new Promise<void>((r) => { holding = r; });
  const done = db.transaction(async (tx) => {
    const out = await work(tx);
    holding();
    await gate;
    return out;
  });
  return { ready, release, done };
}

async function facts(db: Db, businessId: string, bankId: string) {
  const [bank] = await db.query<{ deleted: boolean }>('SELECT deleted FROM bank_accounts WHERE id = $1', [bankId]);
  const pending = await db.query<{ id: string }>(
    `SELECT t.id FROM wallet_transfers t JOIN ledger_accounts l ON l.id IN (t.from_account_id, t.to_account_id)
      WHERE t.business_id = $1 AND l.bank_account_id = $2 AND t.status = 'PENDING'`,
    [businessId, bankId],
  );
  return { deleted: bank!.deleted, pending: pending.length };
}

describe.skipIf(!(await pgAvailable()))('bank account delete vs transfer on PostgreSQL', () => {
  it('a delete that locked the bank row first makes the transfer wait, then refuses it', async () => {
    await withPgBusiness({ operating: {} }, async ({ dbA, dbB, appA, f, admin }) => {
      const w = await openWallet(dbA, f.businessId, 100_000);
      const bankId = await verifiedBank(dbA, f.businessId, 'Payroll checking');
      const del = held(dbB, (tx) => deleteBankAccount(tx, f.businessId, bankId, new Date()));
      await del.ready;
      let answered = false;
      const transfer = request(appA, 'POST', transfersPath(w.operating), { token: admin, body: { to_account_id: bankId, amount: usd(1_000) } })
        .finally(() => { answered = true; });
      await sleep(400);
      const early = answered;
      del.release();
      await del.done;
      // Without the shared lock the transfer read the row, found it live and committed at once.
      expect(early).toBe(false);
      const t = await transfer;
      expect([t.status, t.body.error_v2?.error_code], t.text).toEqual([404, 'REQUEST_7004']);
      expect(await facts(dbA, f.businessId, bankId)).toEqual({ deleted: true, pending: 0 });
      expect((await checkLedger(dbA)).ok).toBe(true);
    });
  });

  it('a transfer that holds the bank row makes the delete wait, then the delete is refused', async () => {
    await withPgBusiness({ operating: {} }, async ({ dbA, appB, f, admin }) => {
      const w = await openWallet(dbA, f.businessId, 100_000);
      const bankId = await verifiedBank(dbA, f.businessId, 'Payroll checking');
      const tr = held(dbA, (tx) => createTransfer(tx, f.businessId, w.operating, { to_account_id: bankId, amount: usd(1_000) }, f.users.admin, Date.now()));
      await tr.ready;
      let answered = false;
      const del = request(appB, 'DELETE', bankPath(bankId), { token: admin }).finally(() => { answered = true; });
      await sleep(400);
      const early = answered;
      tr.release();
      expect((await tr.done).created).toBe(true);
      // Without the shared lock the delete found no PENDING transfer (not committed yet) and deleted the row at once.
      expect(early).toBe(false);
      const d = await del;
      expect([d.status, d.body.error_v2?.error_code], d.text).toEqual([409, 'BANKING_7004']);
      expect(await facts(dbA, f.businessId, bankId)).toEqual({ deleted: false, pending: 1 });
    });
  });

  it('free races over two processes, both directions: one of the two wins, never both', async () => {
    await withPgBusiness({ operating: {} }, async ({ dbA, appA, appB, f, admin }) => {
      const w = await openWallet(dbA, f.businessId, 1_000_000);
      for (let round = 0; round < 6; round++) {
        const bankId = await verifiedBank(dbA, f.businessId, `Race bank ${round}`);
        // Even rounds send to the bank; odd rounds pull from it (its EXTERNAL_BANK ledger account is then the locked source).
        const body = round % 2 === 0
          ? { to_account_id: bankId, amount: usd(1_000) }
          : { from_bank_account_id: bankId, to_account_id: w.operating, amount: usd(1_000) };
        const [apps, other] = round % 4 < 2 ? [appA, appB] : [appB, appA];
        const [t, d] = await Promise.all([
          request(apps, 'POST', transfersPath(w.operating), { token: admin, body }),
          request(other, 'DELETE', bankPath(bankId), { token: admin }),
        ]);
        const outcome = [t.status, d.status];
        expect([[201, 409], [404, 200]], `round ${round}: ${t.text} / ${d.text}`).toContainEqual(outcome);
        const now = await facts(dbA, f.businessId, bankId);
        expect(now).toEqual(t.status === 201 ? { deleted: false, pending: 1 } : { deleted: true, pending: 0 });
      }
      expect((await checkLedger(dbA)).ok).toBe(true);
    });
  });
});
