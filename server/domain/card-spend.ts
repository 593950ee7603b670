import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { simulateBodySchema } from '../../schema/api/calls-cards.ts';
import {
  authorize, authorizeAllocation, authorizeWithIntent, DECLINE_MESSAGES, intervalStart, SPEND_STATES, type DeclineReason, type Purchase,
} from '../../schema/card-rules.ts';
import type { Card } from '../../schema/entities/card.ts';
import type { Transaction } from '../../schema/entities/transaction.ts';
import { isAdmin } from '../../schema/roles.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { cardForWrite, findCard } from './cards.ts';
import { COLLECTIONS, writeMirrored } from './collections.ts';
import { visibilityOf } from './visibility.ts';
import type { SendMail } from './bill-approvals.ts';
import { assessNewCharge, mailHeldCharge } from './fraud.ts';
import { allocationForSpend, utcDay } from './procurement/allocations.ts';
import { coveringIntent, useIntent } from './procurement/intents.ts';
import { runWorkflows } from './workflows/engine.ts';
import { notifyLargeTransaction } from './notifications/producers.ts';
import { businessDecline } from './merchant-restrictions.ts';

/**
 * Simulated card-network authorizations (issue 10): the decision is schema/card-rules.ts
 * `authorize`, with the interval's spend summed in SQL the way `spentInInterval` counts it
 * (PENDING and CLEARED rows of the card, in the limit's currency, from `intervalStart` to now).
 * An approval writes a PENDING transaction; a decline writes nothing. The fraud rules
 * (schema/fraud-rules.ts, domain/fraud.ts) decide in the same write whether the charge is held
 * (`fraud_status` FLAGGED); a held charge is mailed to the cardholder through `send`.
 *
 * Issue 28: a spend intent covering the purchase (domain/procurement/intents.ts) lifts the card's
 * category list and per-purchase cap (`authorizeWithIntent`) and is used by the approval; a card
 * on a budget also needs the budget's approval (`authorizeAllocation`: ended, or what its cards
 * spent this interval plus the purchase past its limit).
 */

type SimulateBody = z.output<typeof simulateBodySchema>;
export type Simulation =
  | { approved: true; transaction: Transaction }
  | { approved: false; decline_reason: DeclineReason; message: string };

const TX_DOC = COLLECTIONS.transactions.docSql;

/** What the card spent in its current limit interval (minor units of the limit's currency). */
async function spentThisInterval(db: Queryable, card: Card, now: Date): Promise<number> {
  const rows = await db.query<{ spent: number }>(
    `SELECT coalesce(sum(amount), 0)::int8 AS spent FROM transactions
      WHERE business_id = $1 AND card_id = $2 AND NOT deleted AND currency = $3 AND state = ANY($4::text[])
        AND occurred_at >= $5 AND occurred_at <= $6`,
    [card.business_id, card.id, card.limit.currency, SPEND_STATES, intervalStart(card.limit.interval, now).toISOString(), now.toISOString()],
  );
  return Number(rows[0]?.spent ?? 0);
}

const declined = (reason: DeclineReason): Simulation => ({ approved: false, decline_reason: reason, message: DECLINE_MESSAGES[reason] });

/** Only the cardholder or an admin spends on a card, even in simulation. */
function assertMaySpend(user: ActingUser, card: Card): void {
  if (card.user_id !== user.id && !isAdmin(user)) {
    throw new ApiError('FORBIDDEN_7003', 'Only the cardholder or an admin can simulate a purchase on this card.');
  }
}

type Decision = { reason: DeclineReason; intent?: undefined } | { reason: null; intent: Awaited<ReturnType<typeof coveringIntent>> };

/**
 * The card's decision, then its budget's. `lock` (the approving pass, under the business lock
 * and the card's row lock) also locks the covering intent and the budget's row, in that order, so
 * racing authorizations on one budget or one intent are decided one after the other.
 */
async function decide(db: Queryable, card: Card, purchase: Purchase, now: Date, lock: boolean): Promise<Decision> {
  // Issue 29: the business's merchant restrictions come before any card rule; no intent lifts them.
  const blocked = await businessDecline(db, card.business_id, purchase);
  if (blocked !== null) return { reason: blocked };
  const intent = await coveringIntent(db, card, purchase, now, lock);
  const rule = intent ? authorizeWithIntent : authorize;
  // The spend sums only matter once everything else passed.
  const first = rule(card, purchase, 0) ?? rule(card, purchase, await spentThisInterval(db, card, now));
  if (first !== null) return { reason: first };
  if (card.spend_allocation_id) {
    const { allocation, spent } = await allocationForSpend(db, card.business_id, card.spend_allocation_id, now, lock);
    const reason = authorizeAllocation(allocation, purchase, spent, utcDay(now));
    if (reason !== null) return { reason };
  }
  return { reason: null, intent };
}

/**
 * One purchase on a card. Decided first without locks (a decline needs no write); an approval is
 * decided again under the card's row lock (after the business lock, the order every writer
 * takes), so two purchases racing for the last of a limit cannot both pass. The clock is read
 * again under the lock: a purchase that committed while this one waited is stamped no later
 * than that moment, so the spend sum (up to now) counts it.
 */
export async function simulatePurchase(
  tx: Queryable, user: ActingUser, id: string, body: SimulateBody, clock: () => Date, send?: SendMail,
): Promise<Simulation> {
  const asked = clock();
  const seen = await findCard(tx, user.business_id, await visibilityOf(tx, user), id);
  if (!seen) throw new ApiError('REQUEST_7004');
  assertMaySpend(user, seen);
  const purchase: Purchase = { amount: body.amount, currency: body.currency ?? seen.limit.currency, merchant_category: body.merchant_category };
  const early = await decide(tx, seen, purchase, asked, false);
  if (early.reason !== null) return declined(early.reason);
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const { card } = await cardForWrite(tx, user, id);
    const now = clock();
    const { reason, intent } = await decide(tx, card, purchase, now, true);
    if (reason !== null) return declined(reason);
    // Issue 24: the fraud rules decide in the same write whether the charge is held for the cardholder.
    const country = body.merchant_country ?? null;
    const verdict = await assessNewCharge(tx, card, {
      merchant_name: body.merchant, merchant_category: purchase.merchant_category, merchant_country: country,
      amount: purchase.amount, currency: purchase.currency, occurred_at: now.toISOString(),
    });
    const transactionId = randomUUID();
    const rows = await tx.query<{ doc: Transaction }>(
      `INSERT INTO transactions AS r (id, business_id, card_id, user_id, merchant_name, merchant_category, amount, currency,
                                      occurred_at, state, department_id, location_id, change_seq, updated_at,
                                      merchant_country, fraud_status, fraud_reasons)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'PENDING', $10, $11, $12, $9, $13, $14, $15::text[])
       RETURNING ${TX_DOC} AS doc`,
      [transactionId, card.business_id, card.id, card.user_id, body.merchant, purchase.merchant_category, purchase.amount,
        purchase.currency, now.toISOString(), card.department_id, card.location_id, seqs.first,
        country, verdict.flagged ? 'FLAGGED' : null, verdict.reasons],
    );
    const transaction = rows[0]!.doc;
    await notifyLargeTransaction(tx, transaction); // issue 29: admins hear of a charge at or above the notify threshold
    await runWorkflows(tx, card.business_id, { trigger: 'transaction.created', objectId: transactionId });
    if (intent) await useIntent(tx, intent, transactionId);
    if (verdict.flagged && send) await mailHeldCharge(tx, transaction, card, verdict.reasons, send);
    return { approved: true as const, transaction };
  });
}
