import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { SPEND_INTENT_DAYS, type spendIntentCreateSchema, type SpendIntent } from '../../../schema/api/calls-procurement.ts';
import { canManageCard, cardStatusLabel, intentCovers, type Purchase } from '../../../schema/card-rules.ts';
import type { Card } from '../../../schema/entities/card.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { cardActorOf, findCard } from '../cards.ts';
import { newestFirstPage, type Page, type PageRequest } from '../newest-first-page.ts';
import { visibilityOf, visibleUsersClause } from '../visibility.ts';

/**
 * Spend intents (issue 28): "I am about to spend" on a card — one authorization at a merchant
 * category up to an amount within SPEND_INTENT_DAYS is approved even where the card's category
 * list or per-purchase cap would decline it (never past the card's or its budget's limit:
 * domain/card-spend.ts). The cardholder makes one for their own card, or someone who manages the
 * card (its holder's manager, an admin). Intents are not mirrored; reads follow the card's
 * `owner` rule (an intent's `user_id` is the cardholder). EXPIRED is never stored: an ACTIVE
 * intent past `expires_at` reads as EXPIRED.
 */

export type IntentCreate = z.output<typeof spendIntentCreateSchema>;
type StoredIntent = Omit<SpendIntent, 'status'> & { status: 'ACTIVE' | 'USED' | 'CANCELED' };

/** The wire row over `spend_intents r`, with the stored status (see `shown`). */
const INTENT_DOC = `jsonb_build_object('id', r.id, 'card_id', r.card_id, 'user_id', r.user_id,
  'amount', jsonb_build_object('amount', r.amount, 'currency', r.currency), 'merchant_category', r.merchant_category,
  'description', r.description, 'status', r.status, 'transaction_id', r.transaction_id,
  'expires_at', ll_iso(r.expires_at), 'created_at', ll_iso(r.created_at))`;

const NOT_FOUND = 'No such spend intent.';

/** The intent as the caller sees it at `now`: an ACTIVE one past its expiry is EXPIRED. */
export const shown = (i: StoredIntent, now: Date): SpendIntent =>
  i.status === 'ACTIVE' && Date.parse(i.expires_at) <= now.getTime() ? { ...i, status: 'EXPIRED' } : i;

/** The cardholder, or someone who manages the card (else 403: who may). */
async function assertMayIntend(db: Queryable, user: ActingUser, card: Card): Promise<void> {
  if (card.user_id === user.id || canManageCard(await cardActorOf(db, user), card)) return;
  throw new ApiError('FORBIDDEN_7003', 'Only the cardholder, their manager or an admin can announce a purchase on this card.');
}

/** POST /spend-intents: on a visible, live card (else 404 / 422), in the card limit's currency. */
export async function createIntent(tx: Queryable, user: ActingUser, body: IntentCreate, now: Date): Promise<SpendIntent> {
  const card = await findCard(tx, user.business_id, await visibilityOf(tx, user), body.card_id);
  if (!card) throw new ApiError('REQUEST_7004', 'No such card.');
  await assertMayIntend(tx, user, card);
  if (card.status === 'TERMINATED') throw validationError({ card_id: `This card is ${cardStatusLabel(card.status)}: nothing more can be spent on it.` });
  if (body.amount.currency !== card.limit.currency) {
    throw validationError({ 'amount.currency': `This card spends in ${card.limit.currency}: announce the purchase in ${card.limit.currency}.` });
  }
  const expires = new Date(now.getTime() + SPEND_INTENT_DAYS * 86_400_000);
  const rows = await tx.query<{ doc: StoredIntent }>(
    `INSERT INTO spend_intents AS r (id, business_id, card_id, user_id, amount, currency, merchant_category, description, status,
                                     expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'ACTIVE', $9, $10) RETURNING ${INTENT_DOC} AS doc`,
    [randomUUID(), user.business_id, card.id, card.user_id, body.amount.amount, body.amount.currency, body.merchant_category,
      body.description ?? null, expires.toISOString(), now.toISOString()],
  );
  return shown(rows[0]!.doc, now);
}

/** GET /spend-intents: the intents of the cards the caller sees, newest first; `card_id` narrows to one card. */
export async function listIntents(
  db: Queryable, user: ActingUser, cardId: string | undefined, req: PageRequest, now: Date,
): Promise<Page<SpendIntent>> {
  const params: unknown[] = [user.business_id];
  let where = `r.business_id = $1${visibleUsersClause(await visibilityOf(db, user), 'r', params)}`;
  if (cardId) where += ` AND r.card_id = $${params.push(cardId)}::uuid`;
  const page = await newestFirstPage<StoredIntent>(db, { table: 'spend_intents', doc: INTENT_DOC, where, params }, req);
  return { ...page, data: page.data.map((i) => shown(i, now)) };
}

/** One intent the caller may see (the card's owner rule), FOR UPDATE, else 404. */
async function findIntent(db: Queryable, user: ActingUser, id: string): Promise<StoredIntent> {
  const params: unknown[] = [user.business_id, id];
  const visible = visibleUsersClause(await visibilityOf(db, user), 'r', params);
  const rows = await db.query<{ doc: StoredIntent }>(
    `SELECT ${INTENT_DOC} AS doc FROM spend_intents r WHERE r.business_id = $1 AND r.id = $2${visible} FOR UPDATE`,
    params,
  );
  if (!rows[0]) throw new ApiError('REQUEST_7004', NOT_FOUND);
  return rows[0].doc;
}

/** DELETE …/spend-intents/:id: an ACTIVE, unexpired intent → CANCELED (else PROCUREMENT_7015), by whoever may make one. */
export async function cancelIntent(tx: Queryable, user: ActingUser, id: string, now: Date): Promise<SpendIntent> {
  const intent = await findIntent(tx, user, id);
  const card = await findCard(tx, user.business_id, { all: true }, intent.card_id);
  if (!card) throw new ApiError('REQUEST_7004', NOT_FOUND);
  await assertMayIntend(tx, user, card);
  if (shown(intent, now).status !== 'ACTIVE') throw new ApiError('PROCUREMENT_7015');
  const rows = await tx.query<{ doc: StoredIntent }>(
    `UPDATE spend_intents r SET status = 'CANCELED' WHERE r.business_id = $1 AND r.id = $2 RETURNING ${INTENT_DOC} AS doc`,
    [user.business_id, id],
  );
  return shown(rows[0]!.doc, now);
}

/**
 * The intent that covers a purchase on a card (ACTIVE, unexpired, its category, at least its
 * amount; the one expiring first). With `lock` (the approving pass, after the business lock and the
 * card's row lock) it is locked, so two authorizations cannot both use it.
 */
export async function coveringIntent(tx: Queryable, card: Card, purchase: Purchase, now: Date, lock: boolean): Promise<StoredIntent | null> {
  const rows = await tx.query<{ doc: StoredIntent }>(
    `SELECT ${INTENT_DOC} AS doc FROM spend_intents r
      WHERE r.business_id = $1 AND r.card_id = $2 AND r.status = 'ACTIVE' AND r.expires_at > $3
        AND r.merchant_category = $4 AND r.currency = $5 AND r.amount >= $6
      ORDER BY r.expires_at, r.id LIMIT 1${lock ? ' FOR UPDATE' : ''}`,
    [card.business_id, card.id, now.toISOString(), purchase.merchant_category, purchase.currency, purchase.amount],
  );
  const intent = rows[0]?.doc ?? null;
  return intent && intentCovers(intent, purchase, now) ? intent : null;
}

/** The approved authorization used the intent (once: the row is locked and `transaction_id` unique). */
export async function useIntent(tx: Queryable, intent: StoredIntent, transactionId: string): Promise<void> {
  await tx.query(`UPDATE spend_intents SET status = 'USED', transaction_id = $2 WHERE id = $1 AND status = 'ACTIVE'`, [intent.id, transactionId]);
}
