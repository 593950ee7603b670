import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Queryable } from '../../db/db.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import { decodeCursor, encodeCursor } from '../../core/cursor.ts';
import { findAccount, lockAccounts, requireFunds, type LedgerAccount } from '../../ledger/ledger.ts';
import { writeMirrored } from '../collections.ts';
import { minorToDecimal } from '../../../schema/money.ts';
import { quoteTransfer, type TransferQuote, type TransferSide } from '../../../schema/treasury-rules.ts';
import type { TransferAnswer, TransferBody } from '../../../schema/api/calls-treasury.ts';
import { lockTransfer, releaseTransfer, startTransfer } from './transfer-core.ts';
import { walletSettings } from './settings.ts';

/**
 * Issue 30: the transfer calls (preview, create, list, cancel) over transfer-core.ts. The path's
 * wallet account is the source, and `to_account_id` a wallet account (its ledger account id) or a
 * linked bank account (bank_accounts.id → its EXTERNAL_BANK ledger account); with
 * `from_bank_account_id` a linked bank account is the source and the path's account the target
 * (`to_account_id` must then name the path's account). Bank accounts must be VERIFIED
 * (TREASURY_7007). Refusals in order: 404 for anything not the business's, TREASURY_7003 same
 * account, TREASURY_7002 another currency, TREASURY_7007 unverified bank, TREASURY_7004 funds (with
 * the available amount), TREASURY_7006 fee or date changed since the preview. Each refusal throws
 * inside the request's transaction, so nothing is posted.
 */
const WALLET = new Set(['OPERATING', 'RESERVE', 'INVESTMENT']);

export interface Endpoints {
  from: LedgerAccount;
  to: LedgerAccount;
  fromSide: TransferSide;
  toSide: TransferSide;
  /** The path's wallet account (the source, or the target of a pull from a bank). */
  wallet: LedgerAccount;
}

type BankRow = { id: string; name: string; account_last4: string; currency: string; status: string };

async function walletOf(db: Queryable, businessId: string, id: string): Promise<LedgerAccount> {
  const account = await findAccount(db, businessId, id);
  if (!account || !WALLET.has(account.kind)) throw new ApiError('REQUEST_7004');
  return account;
}

/** `lock` (a create): FOR SHARE until commit, so a delete of the bank account waits or is seen (transfer-core.ts lockLinkedBanks). */
async function bankRow(db: Queryable, businessId: string, id: string, lock: boolean): Promise<BankRow | null> {
  const [row] = await db.query<BankRow>(
    `SELECT id, name, account_last4, currency, status FROM bank_accounts WHERE business_id = $1 AND id = $2 AND NOT deleted${lock ? ' FOR SHARE' : ''}`,
    [businessId, id],
  );
  return row ?? null;
}

/** A linked bank account's EXTERNAL_BANK ledger account, opened on first use (race-safe: unique per bank account). */
export async function externalBankAccount(tx: Queryable, businessId: string, bank: BankRow): Promise<LedgerAccount> {
  const existing = await tx.query<{ id: string }>('SELECT id FROM ledger_accounts WHERE business_id = $1 AND bank_account_id = $2', [businessId, bank.id]);
  if (!existing[0]) {
    await tx.query(
      `INSERT INTO ledger_accounts (id, business_id, kind, currency, name, allow_negative, bank_account_id)
       VALUES ($1, $2, 'EXTERNAL_BANK', $3, $4, true, $5)
       ON CONFLICT (bank_account_id) WHERE bank_account_id IS NOT NULL DO NOTHING`,
      [randomUUID(), businessId, bank.currency, `${bank.name.slice(0, 90)} ••${bank.account_last4}`, bank.id],
    );
  }
  const [row] = await tx.query<{ id: string }>('SELECT id FROM ledger_accounts WHERE business_id = $1 AND bank_account_id = $2', [businessId, bank.id]);
  const account = row ? await findAccount(tx, businessId, row.id) : null;
  if (!account) throw new ApiError('REQUEST_7004');
  return account;
}

const requireVerified = (bank: BankRow, field: string) => {
  if (bank.status !== 'VERIFIED') throw new ApiError('TREASURY_7007', undefined, { [field]: 'The bank account is not verified' });
};

/**
 * The transfer's two accounts, checked (ownership, same account, currency, verified bank). With
 * `open`, a bank account's ledger account is opened if it has none yet (a write: create only).
 */
export async function resolveEndpoints(
  db: Queryable, businessId: string, walletId: string, body: Pick<TransferBody, 'to_account_id' | 'from_bank_account_id' | 'amount'>, open: boolean,
): Promise<Endpoints> {
  const wallet = await walletOf(db, businessId, walletId);
  const bankAccount = async (id: string, field: string): Promise<LedgerAccount> => {
    const bank = await bankRow(db, businessId, id, open);
    if (!bank) throw new ApiError('REQUEST_7004');
    if (bank.currency !== body.amount.currency || bank.currency !== wallet.currency) {
      throw new ApiError('TREASURY_7002', undefined, { [field]: `The bank account is kept in ${bank.currency}` });
    }
    requireVerified(bank, field);
    if (open) return externalBankAccount(db, businessId, bank);
    const [ledger] = await db.query<{ id: string }>('SELECT id FROM ledger_accounts WHERE business_id = $1 AND bank_account_id = $2', [businessId, bank.id]);
    const found = ledger ? await findAccount(db, businessId, ledger.id) : null;
    // Not opened yet (a preview before the first transfer): what it would be.
    return found ?? {
      id: bank.id, business_id: businessId, kind: 'EXTERNAL_BANK', currency: bank.currency, name: bank.name, balance: 0,
      allow_negative: true, is_primary: false, bank_account_id: bank.id,
    };
  };
  let out: Endpoints;
  if (body.from_bank_account_id) {
    if (body.to_account_id !== walletId) {
      throw validationError({ to_account_id: 'to_account_id must be the path\'s wallet account when money is pulled from a bank account' });
    }
    const from = await bankAccount(body.from_bank_account_id, 'from_bank_account_id');
    out = { from, to: wallet, fromSide: 'bank', toSide: 'wallet', wallet };
  } else {
    if (body.to_account_id === walletId) throw new ApiError('TREASURY_7003', undefined, { to_account_id: 'The target is the source account' });
    const target = await findAccount(db, businessId, body.to_account_id);
    if (target && WALLET.has(target.kind)) {
      out = { from: wallet, to: target, fromSide: 'wallet', toSide: 'wallet', wallet };
    } else {
      out = { from: wallet, to: await bankAccount(body.to_account_id, 'to_account_id'), fromSide: 'wallet', toSide: 'bank', wallet };
    }
  }
  if (out.from.id === out.to.id) throw new ApiError('TREASURY_7003');
  if (out.from.currency !== out.to.currency) throw new ApiError('TREASURY_7002', undefined, { to_account_id: `The target is kept in ${out.to.currency}` });
  if (body.amount.currency !== wallet.currency) {
    throw new ApiError('TREASURY_7002', undefined, { 'amount.currency': `The account is kept in ${wallet.currency}` });
  }
  return out;
}

const todayOf = (nowMs: number) => new Date(nowMs).toISOString().slice(0, 10);

export async function quoteFor(db: Queryable, businessId: string, e: Endpoints, nowMs: number): Promise<TransferQuote> {
  return quoteTransfer({ from: e.fromSide, to: e.toSide, settings: await walletSettings(db, businessId), today: todayOf(nowMs) });
}

/** The preview: fee, settlement date, and the source's balance once the hold is taken (TREASURY_7004 when it cannot be). */
export async function previewTransfer(db: Queryable, businessId: string, walletId: string, body: Pick<TransferBody, 'to_account_id' | 'from_bank_account_id' | 'amount'>, nowMs: number) {
  const e = await resolveEndpoints(db, businessId, walletId, body, false);
  const quote = await quoteFor(db, businessId, e, nowMs);
  const held = body.amount.amount + quote.fee;
  requireFunds(e.from, held);
  const after = e.fromSide === 'wallet' ? e.from.balance - held : e.wallet.balance;
  return {
    fee: { amount: quote.fee, currency: e.wallet.currency },
    expected_settlement_date: quote.expected_settlement_date,
    balance_after: { amount: after, currency: e.wallet.currency },
  };
}

const ANSWER_SQL = `SELECT t.id, t.from_account_id, fa.name AS from_name, t.to_account_id, ta.name AS to_name,
    t.amount::bigint AS amount, t.fee::bigint AS fee, t.currency, t.memo, t.status,
    to_char(t.expected_settlement_date, 'YYYY-MM-DD') AS expected_settlement_date,
    ll_iso(t.settled_at) AS settled_at, ll_iso(t.canceled_at) AS canceled_at, ll_iso(t.failed_at) AS failed_at,
    t.failure_reason, t.created_by, t.automation_policy_id, ll_iso(t.created_at) AS created_at
  FROM wallet_transfers t
  JOIN ledger_accounts fa ON fa.business_id = t.business_id AND fa.id = t.from_account_id
  JOIN ledger_accounts ta ON ta.business_id = t.business_id AND ta.id = t.to_account_id`;

type AnswerRow = Omit<TransferAnswer, 'amount' | 'fee'> & { amount: number; fee: number };

const toAnswer = (r: AnswerRow): TransferAnswer => ({
  ...r,
  amount: { amount: Number(r.amount), currency: r.currency },
  fee: { amount: Number(r.fee), currency: r.currency },
});

export async function transferAnswer(db: Queryable, businessId: string, id: string): Promise<TransferAnswer> {
  const [row] = await db.query<AnswerRow>(`${ANSWER_SQL} WHERE t.business_id = $1 AND t.id = $2 AND NOT t.deleted`, [businessId, id]);
  if (!row) throw new ApiError('REQUEST_7004');
  return toAnswer(row);
}

const money = (minor: number, currency: string) => `${minorToDecimal(minor, currency)} ${currency}`;

/**
 * Creates the transfer: its hold posted at once (startTransfer), PENDING until its day. A retry of
 * the same body `id` by the business answers the stored transfer (`created: false`); an `id` some
 * other row already has is 422. Runs in the request's transaction; the business row is locked
 * first (writeMirrored), so a retry racing the first request waits for it and then finds it.
 */
export async function createTransfer(
  tx: Queryable, businessId: string, walletId: string, body: TransferBody, by: string, nowMs: number,
): Promise<{ created: boolean; transfer: TransferAnswer }> {
  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    if (body.id) {
      const [used] = await tx.query<{ business_id: string }>('SELECT business_id FROM wallet_transfers WHERE id = $1', [body.id]);
      if (used) {
        if (used.business_id !== businessId) throw validationError({ id: 'id is already used' });
        const transfer = await transferAnswer(tx, businessId, body.id);
        if (transfer.from_account_id !== walletId && transfer.to_account_id !== walletId) throw validationError({ id: 'id is already used' });
        return { created: false, transfer };
      }
    }
    const e = await resolveEndpoints(tx, businessId, walletId, body, true);
    const quote = await quoteFor(tx, businessId, e, nowMs);
    const currency = e.wallet.currency;
    if (body.expected_fee && (body.expected_fee.amount !== quote.fee || body.expected_fee.currency !== currency)) {
      throw new ApiError('TREASURY_7006', undefined, {
        fee: money(quote.fee, currency),
        expected_settlement_date: quote.expected_settlement_date,
      });
    }
    const id = body.id ?? randomUUID();
    const locked = await lockAccounts(tx, businessId, [e.from.id]);
    const from = locked.get(e.from.id) ?? e.from;
    requireFunds(from, body.amount.amount + quote.fee);
    await startTransfer(tx, {
      businessId, id, from, to: e.to, amount: body.amount.amount, fee: quote.fee, memo: body.memo ?? '',
      expectedSettlementDate: quote.expected_settlement_date, createdBy: by, at: new Date(nowMs), seq: seqs.first,
    });
    return { created: true, transfer: await transferAnswer(tx, businessId, id) };
  });
}

/** Cancels a PENDING transfer of the path's account (either side): the hold goes back. After that 409 TREASURY_7005. */
export async function cancelTransfer(tx: Queryable, businessId: string, walletId: string, transferId: string, nowMs: number): Promise<TransferAnswer> {
  await walletOf(tx, businessId, walletId);
  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    const t = await lockTransfer(tx, businessId, transferId);
    if (!t || (t.from_account_id !== walletId && t.to_account_id !== walletId)) throw new ApiError('REQUEST_7004');
    if (t.status !== 'PENDING') throw new ApiError('TREASURY_7005');
    await releaseTransfer(tx, t, { status: 'CANCELED' }, new Date(nowMs), seqs.first);
    return transferAnswer(tx, businessId, transferId);
  });
}

const LIST_SORT = 'transfers';
const listCursor = z.tuple([z.string().max(40), z.uuid()]);

/** The path account's transfers (either side), newest first; keyset on (created_at, id). */
export async function listTransfers(db: Queryable, businessId: string, walletId: string, q: { cursor?: string; page_size?: number }) {
  await walletOf(db, businessId, walletId);
  const limit = q.page_size ?? 50;
  const after = q.cursor ? (decodeCursor(q.cursor, LIST_SORT, listCursor, 'cursor') as [string, string]) : null;
  const params: unknown[] = [businessId, walletId, limit + 1];
  let keyset = '';
  if (after) {
    params.push(after[0], after[1]);
    keyset = 'AND (ll_iso(t.created_at), t.id) < ($4, $5::uuid)';
  }
  const rows = await db.query<AnswerRow>(
    `${ANSWER_SQL} WHERE t.business_id = $1 AND (t.from_account_id = $2 OR t.to_account_id = $2) AND NOT t.deleted ${keyset}
      ORDER BY ll_iso(t.created_at) DESC, t.id DESC LIMIT $3`,
    params,
  );
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { data: page.map(toAnswer), page: { next: more && last ? encodeCursor(LIST_SORT, [last.created_at, last.id]) : null } };
}
