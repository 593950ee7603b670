import type { Queryable } from '../../db/db.ts';
import { ApiError } from '../../core/errors.ts';
import { lockAccounts, move, postEntry, requireFunds, systemAccount, type LedgerAccount } from '../../ledger/ledger.ts';
import { allocateSeqs, announceChange } from '../../db/change-seq.ts';

/**
 * Issue 30: a transfer's life in the ledger, the one place it is written (the transfer calls, the
 * automation policies' runs and the settlement job all come here):
 *  - start: the hold (amount + fee) leaves the source for TRANSFERS_IN_FLIGHT at once, and the
 *    `wallet_transfers` row is PENDING (key `transfer:<id>:hold`);
 *  - settle (on its day): the amount reaches the target and the fee FEES (`transfer:<id>:settle`);
 *  - cancel (before settlement) or fail: the hold goes back to the source (`transfer:<id>:release`).
 * Each step posts once whatever retries or races (the entry keys, and the row locked FOR UPDATE
 * with its status re-read under the lock). Callers hold the business row first (writeMirrored's
 * reservation), so the lock order is business, linked bank rows (FOR SHARE), accounts by id, transfer.
 */
export interface TransferStart {
  businessId: string;
  id: string;
  from: LedgerAccount;
  to: LedgerAccount;
  amount: number;
  fee: number;
  memo: string;
  expectedSettlementDate: string;
  createdBy: string | null;
  automation?: { policyId: string; runDay: string };
  at: Date;
  /** The row's seq (from the caller's writeMirrored). */
  seq: number;
}

/** The refusal when a linked bank account was removed before the transfer could start. */
export const REMOVED_BANK = 'The linked bank account was removed.';

export const TRANSFER_COLUMNS = `id, business_id, from_account_id, to_account_id, amount::bigint AS amount, fee::bigint AS fee, currency, status,
  to_char(expected_settlement_date, 'YYYY-MM-DD') AS expected_settlement_date`;

export interface TransferRow {
  id: string;
  business_id: string;
  from_account_id: string;
  to_account_id: string;
  amount: number;
  fee: number;
  currency: string;
  status: 'PENDING' | 'SETTLED' | 'CANCELED' | 'FAILED';
  expected_settlement_date: string;
}

const WALLET = new Set(['OPERATING', 'RESERVE', 'INVESTMENT']);

export interface LinkedBankLock { id: string; status: string; deleted: boolean }

/**
 * Locks FOR SHARE the `bank_accounts` rows behind the given ledger accounts (the EXTERNAL_BANK ones;
 * wallet accounts have none), in id order, and answers them as they are now. Why: deleting a bank
 * account (domain/banking/bank-accounts.ts) locks its row FOR UPDATE, then refuses BANKING_7004
 * while a PENDING transfer uses it. Without this lock a transfer could read the row, the delete
 * find no transfer yet and commit, and the transfer commit after it: money on its way to a bank
 * account that no longer exists. Holding the row shared until commit makes them take turns: the
 * delete waits and then sees the transfer, or the transfer waits and then sees the row deleted.
 * Take it before locking ledger accounts (the delete locks the bank row, then writes its ledger
 * account): business row → bank rows → ledger accounts, never the other way round.
 */
export async function lockLinkedBanks(tx: Queryable, businessId: string, ledgerAccountIds: readonly string[]): Promise<LinkedBankLock[]> {
  return tx.query<LinkedBankLock>(
    `SELECT b.id, b.status, b.deleted FROM bank_accounts b
      WHERE b.business_id = $1
        AND b.id IN (SELECT l.bank_account_id FROM ledger_accounts l WHERE l.business_id = $1 AND l.id = ANY($2::uuid[]))
      ORDER BY b.id FOR SHARE`,
    [businessId, [...new Set(ledgerAccountIds)]],
  );
}

/** Posts the hold and writes the PENDING row. Refuses TREASURY_7004 with the available amount. */
export async function startTransfer(tx: Queryable, t: TransferStart): Promise<void> {
  if (t.from.id === t.to.id) throw new ApiError('TREASURY_7003');
  if (t.from.currency !== t.to.currency) throw new ApiError('TREASURY_7002');
  // A no-op when the caller took it already; the guard every caller shares (see lockLinkedBanks).
  const banks = await lockLinkedBanks(tx, t.businessId, [t.from.id, t.to.id]);
  if (banks.some((b) => b.deleted)) throw new ApiError('REQUEST_7004', REMOVED_BANK);
  const inFlight = await systemAccount(tx, t.businessId, 'TRANSFERS_IN_FLIGHT', t.from.currency);
  const locked = await lockAccounts(tx, t.businessId, [t.from.id]);
  requireFunds(locked.get(t.from.id) ?? t.from, t.amount + t.fee);
  await move(tx, {
    businessId: t.businessId, kind: 'TRANSFER_HOLD', key: `transfer:${t.id}:hold`, from: t.from.id, to: inFlight,
    amount: t.amount + t.fee, currency: t.from.currency, at: t.at, memo: t.memo, source: { type: 'wallet_transfer', id: t.id },
    createdBy: t.createdBy,
  });
  await tx.query(
    `INSERT INTO wallet_transfers (id, business_id, from_account_id, to_account_id, amount, fee, currency, memo, status,
                                   expected_settlement_date, created_by, automation_policy_id, automation_run_day, created_at, change_seq, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'PENDING', $9::date, $10, $11, $12::date, $13, $14, $13)`,
    [t.id, t.businessId, t.from.id, t.to.id, t.amount, t.fee, t.from.currency, t.memo, t.expectedSettlementDate, t.createdBy,
      t.automation?.policyId ?? null, t.automation?.runDay ?? null, t.at.toISOString(), t.seq],
  );
  if (WALLET.has(t.to.kind)) await restampWalletAccounts(tx, t.businessId, [t.to.id]);
}

/** The transfer locked for a status move, or null (another business's id reads as none). */
export async function lockTransfer(tx: Queryable, businessId: string, id: string): Promise<TransferRow | null> {
  const rows = await tx.query<TransferRow>(
    `SELECT ${TRANSFER_COLUMNS} FROM wallet_transfers WHERE business_id = $1 AND id = $2 AND NOT deleted FOR UPDATE`, [businessId, id],
  );
  return rows[0] ? { ...rows[0], amount: Number(rows[0].amount), fee: Number(rows[0].fee) } : null;
}

/** PENDING → SETTLED: the amount to the target, the fee to FEES. A transfer not PENDING is left as it is (false). */
export async function settleTransfer(tx: Queryable, t: TransferRow, at: Date, seq: number): Promise<boolean> {
  if (t.status !== 'PENDING') return false;
  const inFlight = await systemAccount(tx, t.business_id, 'TRANSFERS_IN_FLIGHT', t.currency);
  const lines = [{ account: inFlight, amount: -(t.amount + t.fee) }, { account: t.to_account_id, amount: t.amount }];
  if (t.fee > 0) lines.push({ account: await systemAccount(tx, t.business_id, 'FEES', t.currency), amount: t.fee });
  await postEntry(tx, {
    businessId: t.business_id, kind: 'TRANSFER_SETTLE', key: `transfer:${t.id}:settle`, currency: t.currency, lines, at,
    effectiveDate: t.expected_settlement_date, source: { type: 'wallet_transfer', id: t.id },
  });
  await tx.query(
    `UPDATE wallet_transfers SET status = 'SETTLED', settled_at = $3, change_seq = $4, updated_at = $3 WHERE business_id = $1 AND id = $2`,
    [t.business_id, t.id, at.toISOString(), seq],
  );
  await restampWalletAccounts(tx, t.business_id, [t.from_account_id]);
  return true;
}

/** PENDING → CANCELED (a person, before settlement) or FAILED (the bank returned it): the hold goes back. */
export async function releaseTransfer(tx: Queryable, t: TransferRow, outcome: { status: 'CANCELED' } | { status: 'FAILED'; reason: string }, at: Date, seq: number): Promise<boolean> {
  if (t.status !== 'PENDING') return false;
  const inFlight = await systemAccount(tx, t.business_id, 'TRANSFERS_IN_FLIGHT', t.currency);
  await postEntry(tx, {
    businessId: t.business_id, kind: 'TRANSFER_RELEASE', key: `transfer:${t.id}:release`, currency: t.currency, at,
    lines: [{ account: inFlight, amount: -(t.amount + t.fee) }, { account: t.from_account_id, amount: t.amount + t.fee }],
    source: { type: 'wallet_transfer', id: t.id }, memo: outcome.status === 'FAILED' ? outcome.reason : 'Canceled',
  });
  const stamp = outcome.status === 'CANCELED' ? 'canceled_at' : 'failed_at';
  await tx.query(
    `UPDATE wallet_transfers SET status = $3, ${stamp} = $4, failure_reason = $5, change_seq = $6, updated_at = $4
      WHERE business_id = $1 AND id = $2`,
    [t.business_id, t.id, outcome.status, at.toISOString(), outcome.status === 'FAILED' ? outcome.reason : null, seq],
  );
  await restampWalletAccounts(tx, t.business_id, [t.to_account_id]);
  return true;
}

/**
 * Gives wallet accounts a fresh seq (their doc's pending_in / pending_out changed without a
 * posting of theirs); other kinds are skipped. Announced on commit.
 */
export async function restampWalletAccounts(tx: Queryable, businessId: string, ids: readonly string[]): Promise<void> {
  const wallet = await tx.query<{ id: string }>(
    `SELECT id FROM ledger_accounts WHERE business_id = $1 AND id = ANY($2::uuid[]) AND kind IN ('OPERATING', 'RESERVE', 'INVESTMENT') ORDER BY id`,
    [businessId, [...new Set(ids)]],
  );
  if (wallet.length === 0) return;
  const seqs = await allocateSeqs(tx, businessId, wallet.length);
  if (!seqs) throw new ApiError('REQUEST_7004');
  for (const [i, w] of wallet.entries()) {
    await tx.query('UPDATE ledger_accounts SET change_seq = $3, updated_at = now() WHERE business_id = $1 AND id = $2', [businessId, w.id, seqs.first + i]);
  }
  await announceChange(tx, businessId, seqs.last);
}
