import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { isAdmin } from '../../../schema/roles.ts';
import { isValidRoutingNumber } from '../../../schema/vendor-rules.ts';
import { MAX_DEBIT_CHECK_ATTEMPTS, type LinkedBankAccount, type manualAccountBodySchema } from '../../../schema/api/calls-banking.ts';
import { maskNumber } from '../../../schema/entities/bank-account.ts';
import type { Queryable } from '../../db/db.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import { decryptBankValue, encryptBankValue, loadVendorBankKey } from '../../auth/vendor-bank-crypto.ts';

/**
 * Issue 30 "Banking links": the business's own bank accounts outside Ledgerline, linked by hand.
 * The routing number must pass the ABA checksum (BANKING_7001 on `routing_number`); the account
 * number is encrypted at rest (auth/vendor-bank-crypto.ts, AAD `bank_account:<id>:account_number`)
 * and answered masked. Each account has its EXTERNAL_BANK ledger account (allow_negative, named
 * "<bank or name> ••6789"), written in the same transaction: transfers and sweeps find it by
 * `bank_account_id`. Admins only (TREASURY_7001, before any lookup); another business's id is 404.
 */
export function assertTreasuryAdmin(user: ActingUser): void {
  if (!isAdmin(user)) throw new ApiError('TREASURY_7001');
}

export const bankAccountContext = (id: string, field: 'account_number' | 'micro_deposits') => `bank_account:${id}:${field}`;

export interface BankAccountRow {
  id: string;
  business_id: string;
  entity_id: string | null;
  name: string;
  bank_name: string;
  account_type: 'CHECKING' | 'SAVINGS';
  routing_number: string;
  account_number_enc: string;
  account_last4: string;
  currency: string;
  status: LinkedBankAccount['status'];
  verified_at: string | null;
  created_at: string;
  micro_deposits_enc: string | null;
  verify_attempts: number;
}

// Timestamps as the mirrored doc formats them (ll_iso, milliseconds): a row's list answer and
// its feed doc are the same JSON (schema/entities/bank-account.ts; banking-mirror.test.ts).
export const BANK_COLUMNS = `id, business_id, entity_id, name, bank_name, account_type, routing_number, account_number_enc, account_last4,
  currency, status, ll_iso(verified_at) AS verified_at, ll_iso(created_at) AS created_at, micro_deposits_enc, verify_attempts`;

export { maskNumber };

export function toWire(r: BankAccountRow): LinkedBankAccount {
  return {
    id: r.id, uuid: r.id, name: r.name, bank_name: r.bank_name, account_type: r.account_type, routing_number: r.routing_number,
    account_number_masked: maskNumber(r.account_last4), currency: r.currency, entity_id: r.entity_id, status: r.status,
    verified_at: r.verified_at,
    attempts_left: r.status === 'PENDING_VERIFICATION' ? MAX_DEBIT_CHECK_ATTEMPTS - r.verify_attempts : null,
    created_at: r.created_at,
  };
}

/**
 * A live bank account of the business, or 404 REQUEST_7004. `lock`: FOR UPDATE. `'write'`: the
 * caller writes the row, whose trigger (migration 064) takes a seq from the business counter, so
 * the business row is locked first: every mirrored writer's lock order (business, then rows), or
 * a writer holding the business and waiting for this row (a transfer opening the account's ledger
 * account) would deadlock with us.
 */
export async function findBankAccount(db: Queryable, businessId: string, id: string, lock: boolean | 'write' = false): Promise<BankAccountRow> {
  if (lock === 'write') await db.query('SELECT id FROM businesses WHERE id = $1 FOR UPDATE', [businessId]);
  const rows = await db.query<BankAccountRow>(
    `SELECT ${BANK_COLUMNS} FROM bank_accounts WHERE business_id = $1 AND id = $2 AND NOT deleted${lock ? ' FOR UPDATE' : ''}`,
    [businessId, id],
  );
  if (!rows[0]) throw new ApiError('REQUEST_7004', 'There is no such bank account.');
  return { ...rows[0], verify_attempts: Number(rows[0].verify_attempts) };
}

export async function listBankAccounts(db: Queryable, businessId: string): Promise<{ accounts: LinkedBankAccount[] }> {
  const rows = await db.query<BankAccountRow>(
    `SELECT ${BANK_COLUMNS} FROM bank_accounts WHERE business_id = $1 AND NOT deleted ORDER BY created_at, id`, [businessId],
  );
  return { accounts: rows.map((r) => toWire({ ...r, verify_attempts: Number(r.verify_attempts) })) };
}

function checkRouting(routing: string | undefined): void {
  if (routing !== undefined && !isValidRoutingNumber(routing)) {
    throw new ApiError('BANKING_7001', undefined, { routing_number: 'routing_number is not a valid ABA routing number' });
  }
}

async function checkEntity(db: Queryable, businessId: string, entityId: string | null | undefined): Promise<void> {
  if (!entityId) return;
  const rows = await db.query('SELECT 1 FROM business_entities WHERE business_id = $1 AND id = $2 AND NOT deleted', [businessId, entityId]);
  if (rows.length === 0) throw new ApiError('REQUEST_7004', 'There is no such entity.', { entity_id: 'entity_id names no entity of this business' });
}

const ledgerName = (bankName: string, name: string, last4: string) => `${(bankName || name).slice(0, 90)} ••${last4}`;

type ManualBody = z.infer<typeof manualAccountBodySchema>;

/** Links a bank account by hand: UNVERIFIED, with its EXTERNAL_BANK ledger account. */
export async function createManualAccount(tx: Queryable, user: ActingUser, body: ManualBody, now: Date): Promise<LinkedBankAccount> {
  checkRouting(body.routing_number);
  await checkEntity(tx, user.business_id, body.entity_id);
  const id = randomUUID();
  const key = await loadVendorBankKey(tx);
  const last4 = body.account_number.slice(-4);
  const currency = body.currency ?? 'USD';
  const bankName = body.bank_name ?? '';
  await tx.query(
    `INSERT INTO bank_accounts (id, business_id, entity_id, name, bank_name, account_type, routing_number, account_number_enc,
                                account_last4, currency, status, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'UNVERIFIED', $11, $12, $12)`,
    [id, user.business_id, body.entity_id ?? null, body.name, bankName, body.account_type, body.routing_number,
      encryptBankValue(key, body.account_number, bankAccountContext(id, 'account_number')), last4, currency, user.id, now.toISOString()],
  );
  await tx.query(
    `INSERT INTO ledger_accounts (id, business_id, kind, currency, name, allow_negative, bank_account_id, created_at, updated_at)
     VALUES ($1, $2, 'EXTERNAL_BANK', $3, $4, true, $5, $6, $6)`,
    [randomUUID(), user.business_id, currency, ledgerName(bankName, body.name, last4), id, now.toISOString()],
  );
  return toWire(await findBankAccount(tx, user.business_id, id));
}

/** Renames, moves to another entity, or changes the numbers (which makes it UNVERIFIED again). */
export async function updateBankAccount(
  tx: Queryable, businessId: string, id: string, body: Partial<Omit<ManualBody, 'currency'>>, now: Date,
): Promise<LinkedBankAccount> {
  checkRouting(body.routing_number);
  const current = await findBankAccount(tx, businessId, id, 'write');
  if (body.entity_id !== undefined) await checkEntity(tx, businessId, body.entity_id);
  const key = await loadVendorBankKey(tx);
  const context = bankAccountContext(id, 'account_number');
  const currentNumber = decryptBankValue(key, current.account_number_enc, context);
  const routing = body.routing_number ?? current.routing_number;
  const number = body.account_number ?? currentNumber;
  const numbersChanged = routing !== current.routing_number || number !== currentNumber;
  const name = body.name ?? current.name;
  const bankName = body.bank_name ?? current.bank_name;
  const last4 = number.slice(-4);
  await tx.query(
    `UPDATE bank_accounts SET name = $3, bank_name = $4, entity_id = $5, account_type = $6, routing_number = $7,
            account_number_enc = $8, account_last4 = $9, updated_at = $10,
            status = CASE WHEN $11 THEN 'UNVERIFIED' ELSE status END,
            verified_at = CASE WHEN $11 THEN NULL ELSE verified_at END,
            micro_deposits_enc = CASE WHEN $11 THEN NULL ELSE micro_deposits_enc END,
            verify_attempts = CASE WHEN $11 THEN 0 ELSE verify_attempts END,
            verification_started_at = CASE WHEN $11 THEN NULL ELSE verification_started_at END
      WHERE business_id = $1 AND id = $2`,
    [businessId, id, name, bankName, body.entity_id === undefined ? current.entity_id : body.entity_id,
      body.account_type ?? current.account_type, routing,
      numbersChanged ? encryptBankValue(key, number, context) : current.account_number_enc, last4, now.toISOString(), numbersChanged],
  );
  await tx.query(
    `UPDATE ledger_accounts SET name = $3, updated_at = $4 WHERE business_id = $1 AND bank_account_id = $2`,
    [businessId, id, ledgerName(bankName, name, last4), now.toISOString()],
  );
  return toWire(await findBankAccount(tx, businessId, id));
}

/** The numbers in clear (the route needs the `sensitive` scope). */
export async function revealBankAccount(db: Queryable, businessId: string, id: string) {
  const row = await findBankAccount(db, businessId, id);
  const key = await loadVendorBankKey(db);
  return {
    routing_number: row.routing_number,
    account_number: decryptBankValue(key, row.account_number_enc, bankAccountContext(id, 'account_number')),
    account_type: row.account_type,
  };
}

/** The EXTERNAL_BANK ledger account of a bank account of the business. */
export async function bankLedgerAccount(db: Queryable, businessId: string, bankAccountId: string): Promise<{ id: string; currency: string }> {
  const rows = await db.query<{ id: string; currency: string }>(
    `SELECT id, currency FROM ledger_accounts WHERE business_id = $1 AND bank_account_id = $2`, [businessId, bankAccountId],
  );
  if (!rows[0]) throw new Error(`bank account ${bankAccountId} has no ledger account`);
  return rows[0];
}

/**
 * A tombstone. Refused with BANKING_7004 while a PENDING transfer moves money from or to it, or
 * an enabled automation policy (migration 061, when present) names its ledger account. The row
 * is locked first, so a transfer starting meanwhile (which reads the account) waits or is seen.
 */
export async function deleteBankAccount(tx: Queryable, businessId: string, id: string, now: Date): Promise<{ id: string; deleted: true }> {
  await findBankAccount(tx, businessId, id, 'write');
  const ledger = await bankLedgerAccount(tx, businessId, id);
  const pending = await tx.query(
    `SELECT 1 FROM wallet_transfers WHERE business_id = $1 AND status = 'PENDING' AND NOT deleted
        AND (from_account_id = $2 OR to_account_id = $2) LIMIT 1`,
    [businessId, ledger.id],
  );
  if (pending.length > 0) throw new ApiError('BANKING_7004', 'This bank account has transfers on their way. Wait for them to settle or cancel them first.');
  const policies = await tx.query(
    `SELECT 1 FROM automation_policies WHERE business_id = $1 AND enabled AND NOT deleted
        AND (account_id = $2 OR target_account_id = $2) LIMIT 1`,
    [businessId, ledger.id],
  );
  if (policies.length > 0) throw new ApiError('BANKING_7004', 'An automation policy moves money with this bank account. Turn it off or change it first.');
  await tx.query(
    `UPDATE bank_accounts SET deleted = true, updated_at = $3, micro_deposits_enc = NULL,
            status = CASE WHEN status = 'PENDING_VERIFICATION' THEN 'UNVERIFIED' ELSE status END
      WHERE business_id = $1 AND id = $2`,
    [businessId, id, now.toISOString()],
  );
  await tx.query('UPDATE ledger_accounts SET deleted = true, updated_at = $3 WHERE business_id = $1 AND id = $2', [businessId, ledger.id, now.toISOString()]);
  await tx.query(
    'UPDATE entity_cash_accounts SET bank_account_id = NULL, updated_at = $3 WHERE business_id = $1 AND bank_account_id = $2',
    [businessId, id, now.toISOString()],
  );
  return { id, deleted: true };
}
