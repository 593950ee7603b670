import { minorToDecimal } from '../../schema/money.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { lockAccounts, move, postEntry, primaryAccount, requireFunds, systemAccount, type LedgerAccount, type SystemKind } from '../ledger/ledger.ts';

/**
 * Issue 30: money that leaves the business for a payment (a claim's ACH, a bill's attempt, a card
 * settlement day) draws on its primary OPERATING account of the payment's currency, through the
 * ledger (server/ledger). These helpers are the payments' shared half: which account pays, the
 * funds check under its lock, and the way back to the account that paid.
 */

/**
 * The primary OPERATING account of `currency`, locked (the caller holds the business row first),
 * with `amount` available; else TREASURY_7004 naming the account and what it holds (no account in
 * that currency: nothing is available).
 */
export async function payingAccount(tx: Queryable, businessId: string, currency: string, amount: number): Promise<LedgerAccount> {
  const primary = await primaryAccount(tx, businessId, 'OPERATING', currency);
  if (!primary) {
    const none = `${minorToDecimal(0, currency)} ${currency}`;
    throw new ApiError('TREASURY_7004', `There is no ${currency} operating account to pay from: ${none} is available.`, {
      amount: `${none} is available`,
    });
  }
  const locked = (await lockAccounts(tx, businessId, [primary.id])).get(primary.id) ?? primary;
  requireFunds(locked, amount);
  return locked;
}

/**
 * Moves `amount` out of the primary operating account to a system account, exactly once per key.
 * `fee` (a wire's): that much more leaves the same account for FEES in the same entry, so the
 * payment and its fee are posted together or not at all.
 */
export async function payOut(tx: Queryable, p: {
  businessId: string; currency: string; amount: number; to: SystemKind; kind: string; key: string; at: Date;
  memo: string; source: { type: string; id: string }; createdBy?: string | null; effectiveDate?: string; fee?: number;
}): Promise<string> {
  const done = await entryId(tx, p.businessId, p.key);
  if (done) return done;
  const fee = p.fee ?? 0;
  const from = await payingAccount(tx, p.businessId, p.currency, p.amount + fee);
  const to = await systemAccount(tx, p.businessId, p.to, p.currency);
  const extra = fee > 0 ? [{ account: from.id, amount: -fee }, { account: await systemAccount(tx, p.businessId, 'FEES', p.currency), amount: fee }] : [];
  const posted = await move(tx, {
    businessId: p.businessId, kind: p.kind, key: p.key, from: from.id, to, amount: p.amount, currency: p.currency, at: p.at,
    memo: p.memo, source: p.source, createdBy: p.createdBy ?? null, effectiveDate: p.effectiveDate, extra,
  });
  return posted.id;
}

/** The entry posted under `key`, if any. */
async function entryId(tx: Queryable, businessId: string, key: string): Promise<string | null> {
  const rows = await tx.query<{ id: string }>('SELECT id FROM journal_entries WHERE business_id = $1 AND idem_key = $2', [businessId, key]);
  return rows[0]?.id ?? null;
}

/** The account an entry took money from (its one negative posting), or null when it was never posted. */
async function paidFrom(tx: Queryable, businessId: string, key: string): Promise<{ account: string; amount: number; currency: string } | null> {
  const rows = await tx.query<{ account_id: string; amount: string; currency: string }>(
    `SELECT p.account_id, p.amount::text AS amount, p.currency FROM journal_entries e JOIN postings p ON p.entry_id = e.id
      WHERE e.business_id = $1 AND e.idem_key = $2 AND p.amount < 0 ORDER BY p.id LIMIT 1`,
    [businessId, key],
  );
  return rows[0] ? { account: rows[0].account_id, amount: -Number(rows[0].amount), currency: rows[0].currency } : null;
}

/**
 * Money back from a system account (`from`: EMPLOYEE_PAYMENTS, PAYMENTS_IN_FLIGHT, VENDOR_PAYMENTS)
 * to the account the original entry (`sentKey`) drew on, exactly once per key. A movement that was
 * never posted (made before the ledger) gives nothing back: null. `amount`: what went to `from`
 * when the entry drew more (a wire's fee stays paid); default everything it drew.
 */
export async function payBack(tx: Queryable, p: {
  businessId: string; sentKey: string; from: SystemKind; kind: string; key: string; at: Date; memo: string;
  source: { type: string; id: string }; createdBy?: string | null; amount?: number;
}): Promise<string | null> {
  const sent = await paidFrom(tx, p.businessId, p.sentKey);
  if (!sent) return null;
  const amount = p.amount ?? sent.amount;
  const from = await systemAccount(tx, p.businessId, p.from, sent.currency);
  const posted = await postEntry(tx, {
    businessId: p.businessId, kind: p.kind, key: p.key, currency: sent.currency, at: p.at, memo: p.memo, source: p.source,
    createdBy: p.createdBy ?? null, lines: [{ account: from, amount: -amount }, { account: sent.account, amount }],
  });
  return posted.id;
}

/**
 * A system-to-system step of a payment (PAYMENTS_IN_FLIGHT → VENDOR_PAYMENTS), of what `sentKey`
 * sent (`amount`: of that part of it, when the entry also paid a fee).
 */
export async function passOn(tx: Queryable, p: {
  businessId: string; sentKey: string; from: SystemKind; to: SystemKind; kind: string; key: string; at: Date; memo: string;
  source: { type: string; id: string }; effectiveDate?: string; amount?: number;
}): Promise<string | null> {
  const found = await paidFrom(tx, p.businessId, p.sentKey);
  if (!found) return null;
  const sent = { ...found, amount: p.amount ?? found.amount };
  const from = await systemAccount(tx, p.businessId, p.from, sent.currency);
  const to = await systemAccount(tx, p.businessId, p.to, sent.currency);
  const posted = await postEntry(tx, {
    businessId: p.businessId, kind: p.kind, key: p.key, currency: sent.currency, at: p.at, memo: p.memo, source: p.source,
    effectiveDate: p.effectiveDate, lines: [{ account: from, amount: -sent.amount }, { account: to, amount: sent.amount }],
  });
  return posted.id;
}
