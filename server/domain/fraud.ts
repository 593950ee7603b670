import { randomUUID } from 'node:crypto';
import type { Dispute, FraudResponseResult } from '../../schema/api/calls-fraud.ts';
import { checkCardAction, SPEND_STATES } from '../../schema/card-rules.ts';
import { applyLock } from '../../schema/commands/card.ts';
import { applyFraudResponse } from '../../schema/commands/fraud.ts';
import { cardSchema, type Card } from '../../schema/entities/card.ts';
import { transactionSchema, type Transaction } from '../../schema/entities/transaction.ts';
import {
  assessCharge, FRAUD_THRESHOLDS, fraudReasonText, heldChargeText, NOTHING_TAUGHT, teach,
  type CardProfile, type ChargeHistoryItem, type FraudResponse, type FraudVerdict, type NewCharge, type TaughtProfile,
} from '../../schema/fraud-rules.ts';
import { isAdmin } from '../../schema/roles.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import type { SendMail } from './bill-approvals.ts';
import { findCard, storeCard } from './cards.ts';
import { writeMirrored } from './collections.ts';
import { findTransaction } from './transaction-sql.ts';
import { visibilityOf } from './visibility.ts';

/**
 * Fraud review of card charges (issue 24). The rules are schema/fraud-rules.ts; this file reads
 * a card's profile in SQL, holds a new charge in the write that inserts it, mails the cardholder,
 * and takes the answer (POST /v1/auth/transactions/:id/fraud-response).
 *
 * A card's history is its charges that count: PENDING or CLEARED, positive, not deleted, and not
 * held or disowned (fraud_status null or RECOGNIZED), so a recognised charge joins the history
 * (its category, country and amount become the card's) and a disowned one never does. The rapid
 * repeat window reads every charge of the card (held ones too: a burst is a burst).
 */

const COUNTED = `r.state = ANY($3::text[]) AND NOT r.deleted AND r.amount > 0 AND (r.fraud_status IS NULL OR r.fraud_status = 'RECOGNIZED')`;

type HistoryRow = ChargeHistoryItem;
const HISTORY_COLUMNS = `r.merchant_name, r.merchant_category, r.merchant_country, r.amount::float8 AS amount, r.currency, ll_iso(r.occurred_at) AS occurred_at`;

export async function cardProfile(db: Queryable, card: Pick<Card, 'id' | 'business_id'>, charge: NewCharge): Promise<CardProfile> {
  const base = [card.business_id, card.id, SPEND_STATES];
  const [summary] = await db.query<{ n: number; categories: string[] | null; countries: string[] | null }>(
    `SELECT count(*)::int8 AS n, array_agg(DISTINCT r.merchant_category) AS categories,
            array_agg(DISTINCT r.merchant_country) FILTER (WHERE r.merchant_country IS NOT NULL) AS countries
       FROM transactions r WHERE r.business_id = $1 AND r.card_id = $2 AND ${COUNTED}`,
    base,
  );
  const since = new Date(Date.parse(charge.occurred_at) - FRAUD_THRESHOLDS.repeatWindowMinutes * 60_000).toISOString();
  const recent = await db.query<HistoryRow>(
    `(SELECT ${HISTORY_COLUMNS} FROM transactions r
       WHERE r.business_id = $1 AND r.card_id = $2 AND ${COUNTED} AND r.currency = $4
       ORDER BY r.occurred_at DESC LIMIT ${FRAUD_THRESHOLDS.historySize})
     UNION ALL
     (SELECT ${HISTORY_COLUMNS} FROM transactions r
       WHERE r.business_id = $1 AND r.card_id = $2 AND r.state = ANY($3::text[]) AND NOT r.deleted AND r.occurred_at >= $5
         AND NOT (${COUNTED} AND r.currency = $4))`,
    [...base, charge.currency, since],
  );
  return {
    charges: Number(summary?.n ?? 0),
    categories: summary?.categories ?? [],
    countries: summary?.countries ?? [],
    recent: recent.map((r) => ({ ...r, amount: Number(r.amount) })),
    taught: await taughtProfile(db, card.id),
  };
}

async function taughtProfile(db: Queryable, cardId: string): Promise<TaughtProfile> {
  const rows = await db.query<TaughtProfile>(
    'SELECT categories, countries, recognized_max FROM card_fraud_profiles WHERE card_id = $1',
    [cardId],
  );
  return rows[0] ?? NOTHING_TAUGHT;
}

/** The verdict on a charge about to be written on `card` (inside the write, under the card's lock). */
export async function assessNewCharge(db: Queryable, card: Pick<Card, 'id' | 'business_id'>, charge: NewCharge): Promise<FraudVerdict> {
  return assessCharge(charge, await cardProfile(db, card, charge));
}

/** Mails the cardholder about a held charge ("Did you make this purchase?"), with a link to answer in the app. */
export async function mailHeldCharge(db: Queryable, t: Transaction, card: Pick<Card, 'last_four' | 'display_name'>, reasons: readonly string[], send: SendMail): Promise<void> {
  const [holder] = await db.query<{ email: string; first_name: string }>('SELECT email, first_name FROM spend_users WHERE id = $1', [t.user_id]);
  if (!holder) return;
  const why = reasons.map((r) => fraudReasonText(r as Parameters<typeof fraudReasonText>[0])).join('; ');
  await send(holder.email, 'held_charge', {
    first_name: holder.first_name, charge: heldChargeText(t), card: `•••• ${card.last_four ?? '----'} (${card.display_name})`,
    reasons: why, link: send.link(`/transactions?open=${t.id}`),
  });
}

const DISPUTE_DOC = `jsonb_build_object('id', d.id, 'transaction_id', d.transaction_id, 'card_id', d.card_id, 'reason', d.reason,
  'status', d.status, 'amount', d.amount, 'currency', d.currency, 'opened_by', d.opened_by, 'created_at', ll_iso(d.created_at))`;

async function disputeOf(db: Queryable, transactionId: string): Promise<Dispute | null> {
  const rows = await db.query<{ doc: Dispute }>(`SELECT ${DISPUTE_DOC} AS doc FROM transaction_disputes d WHERE d.transaction_id = $1`, [transactionId]);
  return rows[0]?.doc ?? null;
}

async function cardRow(db: Queryable, businessId: string, id: string, lock: boolean): Promise<Card> {
  const doc = await findCard(db, businessId, { all: true }, id, lock);
  if (!doc) throw new ApiError('REQUEST_7004');
  return cardSchema.parse(doc);
}

async function transactionRow(db: Queryable, businessId: string, id: string): Promise<Transaction> {
  return transactionSchema.parse(await findTransaction(db, businessId, { all: true }, id));
}

function resultOf(response: FraudResponse, transaction: Transaction, card: Card, dispute: Dispute | null, changeSeq: number): FraudResponseResult {
  const replaceable = dispute !== null && card.replaced_by_id === null && checkCardAction('reissue', card.status).ok;
  return {
    response,
    transaction,
    card,
    card_locked: card.status === 'LOCKED',
    dispute,
    reissue: replaceable ? { call: 'cards.reissue', method: 'POST', path: `/v1/auth/cards/${card.id}/reissue` } : null,
    change_seq: changeSeq,
  };
}

const ANSWERED: Record<FraudResponse, string> = {
  RECOGNIZED: 'that you made it',
  NOT_RECOGNIZED: 'that you don\'t recognise it',
};

/**
 * The cardholder's answer (or an admin's on their behalf). Every write holds the business lock
 * first (writeMirrored), then the transaction's row, then the card's: a repeated or racing same
 * answer finds the first one's result and answers it (one dispute, one lock); a different
 * answer to an answered charge is 422.
 */
export async function respondToHeldCharge(
  tx: Queryable, user: ActingUser, id: string, response: FraudResponse, now: Date,
): Promise<FraudResponseResult> {
  return writeMirrored(tx, user.business_id, 2, async ({ seqs }) => {
    const doc = await findTransaction(tx, user.business_id, await visibilityOf(tx, user), id, true);
    if (!doc) throw new ApiError('REQUEST_7004');
    const t = transactionSchema.parse(doc);
    if (t.user_id !== user.id && !isAdmin(user)) {
      throw new ApiError('FORBIDDEN_7003', 'Only the cardholder, or an admin on their behalf, can answer for this charge.');
    }
    if (t.fraud_status === response) {
      const card = await cardRow(tx, user.business_id, t.card_id, false);
      return resultOf(response, t, card, await disputeOf(tx, t.id), Math.max(t.change_seq, card.change_seq));
    }
    if (t.fraud_status !== 'FLAGGED') {
      throw new ApiError('REQUEST_7001', t.fraud_status
        ? `This charge was already answered (${ANSWERED[t.fraud_status]}); the answer cannot be changed.`
        : 'This charge is not held for review: there is nothing to answer.');
    }
    const at = now.toISOString();
    const answered = applyFraudResponse(t, response);
    let card = await cardRow(tx, user.business_id, t.card_id, true);
    let disputeId: string | null = null;
    if (response === 'NOT_RECOGNIZED') {
      const locked = applyLock(card, true);
      if (locked !== card) {
        card = await storeCard(tx, { ...locked, change_seq: seqs.last, updated_at: at });
        await tx.query('UPDATE cards SET fraud_locked_at = $2 WHERE id = $1', [card.id, at]);
      }
      disputeId = randomUUID();
      await tx.query(
        `INSERT INTO transaction_disputes (id, business_id, transaction_id, card_id, opened_by, reason, status, amount, currency, created_at)
         VALUES ($1, $2, $3, $4, $5, 'NOT_RECOGNIZED', 'OPEN', $6, $7, $8)`,
        [disputeId, user.business_id, t.id, t.card_id, user.id, t.amount, t.currency, at],
      );
    } else {
      const taught = teach(await taughtProfile(tx, card.id), { ...t, merchant_country: t.merchant_country ?? null });
      await tx.query(
        `INSERT INTO card_fraud_profiles (card_id, business_id, categories, countries, recognized_max, updated_at)
         VALUES ($1, $2, $3::text[], $4::text[], $5::jsonb, $6)
         ON CONFLICT (card_id) DO UPDATE SET categories = EXCLUDED.categories, countries = EXCLUDED.countries,
           recognized_max = EXCLUDED.recognized_max, updated_at = EXCLUDED.updated_at`,
        [card.id, user.business_id, taught.categories, taught.countries, JSON.stringify(taught.recognized_max), at],
      );
    }
    await tx.query(
      `UPDATE transactions SET fraud_status = $3, fraud_answered_by = $4, fraud_answered_at = $5, fraud_dispute_id = $6,
              change_seq = $7, updated_at = $5
        WHERE business_id = $1 AND id = $2`,
      [user.business_id, t.id, answered.fraud_status, user.id, at, disputeId, seqs.first],
    );
    const written = await transactionRow(tx, user.business_id, t.id);
    return resultOf(response, written, card, await disputeOf(tx, t.id), card.change_seq === seqs.last ? seqs.last : seqs.first);
  });
}
