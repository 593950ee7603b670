import type { AutopayThresholdBody, CardAutopay } from '../../schema/api/calls-card-autopay.ts';
import { ApiError } from '../core/errors.ts';
import type { Db, Queryable } from '../db/db.ts';
import { primaryAccount } from '../ledger/ledger.ts';
import { UNSETTLED_CHARGES_SQL, settleCardSpend } from './card-settlement.ts';

/**
 * Issue 30: the business's card autopay threshold (migration 067, `wallet_settings`
 * card_autopay_threshold / card_autopay_currency; no row or nulls = none). The settlement job
 * (card-settlement.ts) reads it: when the unpaid card balance in its currency reaches it, every
 * unpaid charge settles at once instead of three days after it clears.
 */

type Setting = { amount: number; currency: string } | null;

async function setting(db: Queryable, businessId: string): Promise<Setting> {
  const [row] = await db.query<{ amount: string | null; currency: string | null }>(
    'SELECT card_autopay_threshold::text AS amount, card_autopay_currency AS currency FROM wallet_settings WHERE business_id = $1', [businessId]);
  return row?.amount && row.currency ? { amount: Number(row.amount), currency: row.currency } : null;
}

/** CLEARED card charges no settlement covers yet, in `currency` (what the next settlement would net). */
async function unpaidCardBalance(db: Queryable, businessId: string, currency: string): Promise<number> {
  const [row] = await db.query<{ total: string }>(
    `SELECT coalesce(sum(t.amount), 0)::text AS total FROM ${UNSETTLED_CHARGES_SQL} AND t.business_id = $1 AND t.currency = $2`,
    [businessId, currency]);
  return Number(row!.total);
}

/** The threshold and the unpaid balance in its currency (without one, the business's home currency). */
export async function cardAutopay(db: Queryable, businessId: string): Promise<CardAutopay> {
  const threshold = await setting(db, businessId);
  let currency = threshold?.currency;
  if (!currency) {
    const [business] = await db.query<{ currency: string }>('SELECT currency FROM businesses WHERE id = $1', [businessId]);
    currency = business!.currency;
  }
  return { autopay_threshold: threshold, unpaid_card_balance: { amount: await unpaidCardBalance(db, businessId, currency), currency } };
}

/**
 * Sets the threshold (one upsert, the other wallet settings untouched); a currency without a primary
 * OPERATING account → 422 TREASURY_7002 naming `amount.currency` (autopay pays from it). Answers
 * whether the unpaid balance already reaches it.
 */
async function putCardAutopay(tx: Queryable, businessId: string, body: AutopayThresholdBody, by: string, at: Date): Promise<boolean> {
  const { amount, currency } = body.amount;
  if (!(await primaryAccount(tx, businessId, 'OPERATING', currency))) {
    throw new ApiError('TREASURY_7002', `There is no ${currency} operating account to pay card spend from: set the threshold in a currency you keep money in.`, {
      'amount.currency': `there is no ${currency} operating account`,
    });
  }
  await tx.query(
    `INSERT INTO wallet_settings (business_id, card_autopay_threshold, card_autopay_currency, updated_by, updated_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (business_id) DO UPDATE SET card_autopay_threshold = EXCLUDED.card_autopay_threshold,
       card_autopay_currency = EXCLUDED.card_autopay_currency, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
    [businessId, amount, currency, by, at.toISOString()],
  );
  return (await unpaidCardBalance(tx, businessId, currency)) >= amount;
}

/** Removes the threshold (nothing to remove is not an error: the answer is the same). */
export async function deleteCardAutopay(tx: Queryable, businessId: string, by: string, at: Date): Promise<void> {
  await tx.query(
    `UPDATE wallet_settings SET card_autopay_threshold = NULL, card_autopay_currency = NULL, updated_by = $2, updated_at = $3
      WHERE business_id = $1 AND card_autopay_threshold IS NOT NULL`,
    [businessId, by, at.toISOString()],
  );
}

/**
 * PUT's whole effect: the setting committed, then — when the balance already reaches it — the
 * business's due card spend settled at once (its own transactions under the business lock, as the
 * job's; a racing job run settles nothing twice). A batch Operating cannot cover is recorded FAILED
 * and retried hourly; the PUT still succeeds (the answer shows what is left unpaid).
 */
export async function setCardAutopay(db: Db, businessId: string, body: AutopayThresholdBody, by: string, at: Date): Promise<CardAutopay> {
  const reached = await db.transaction((tx) => putCardAutopay(tx, businessId, body, by, at));
  if (reached) await settleCardSpend(db, at, { businessId });
  return cardAutopay(db, businessId);
}
