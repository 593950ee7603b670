import { randomInt, randomUUID } from 'node:crypto';
import { newCard } from '../../../schema/commands/card.ts';
import type { Card } from '../../../schema/entities/card.ts';
import type { Money } from '../../../schema/entities/trip.ts';
import type { TravelSettings } from '../../../schema/travel-policy.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { CARD_DOC, insertIssuedCard, storeCard } from '../cards.ts';
import type { MirroredWrite } from '../collections.ts';
import type { TripFacts } from './trip-access.ts';
import { runWorkflows } from '../workflows/engine.ts';

/**
 * Issue 27: the money of a booking, inside the booking's (or the approval's) one transaction:
 * the trip's virtual card (issued at its first booking through the cards' one issuing path,
 * `insertIssuedCard`; limit = the settings' multiplier × the price, TOTAL, raised the same way
 * when later bookings outgrow it), the charge (a CLEARED card transaction, merchant = the airline
 * or hotel), its link to the trip (trip_spend_events), and a six-character confirmation code; a
 * cancel posts the refund (the negative amount, same card and merchant) and links it too. Every
 * mirrored row written takes its own seq from the caller's write (`w`).
 */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O or 1/I: read aloud at a counter
const USABLE: readonly Card['status'][] = ['ACTIVE', 'SHIPPED'];

export type Charge = { card: Card; card_issued: boolean; transaction_id: string; confirmation_code: string };
export type ChargeInput = {
  businessId: string; trip: TripFacts; kind: 'FLIGHT' | 'HOTEL'; price: Money; merchant: string; by: string; settings: TravelSettings; now: Date;
};

/** A confirmation code no booking carries yet. */
async function freeConfirmationCode(tx: Queryable): Promise<string> {
  for (;;) {
    const code = Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
    // Across every business on purpose: the column is UNIQUE (a code is read out at any counter).
    const taken = await tx.query('SELECT 1 FROM travel_bookings WHERE confirmation_code = $1', [code]);
    if (taken.length === 0) return code;
  }
}

const limitFor = (settings: TravelSettings, amount: number) => Math.ceil(settings.trip_card_limit_multiplier * amount);

async function issueTripCard(tx: Queryable, w: MirroredWrite, c: ChargeInput): Promise<Card> {
  const [holder] = await tx.query<{ department_id: string | null; location_id: string | null }>(
    'SELECT department_id::text, location_id::text FROM spend_users WHERE business_id = $1 AND id = $2', [c.businessId, c.trip.user_id],
  );
  const id = randomUUID();
  const at = c.now.toISOString();
  const blank = newCard({
    id, user_id: c.trip.user_id, display_name: `Trip: ${c.trip.name}`.slice(0, 80), is_physical: false,
    limit: { amount: limitFor(c.settings, c.price.amount), currency: c.price.currency, interval: 'TOTAL', per_transaction: null },
    allowed_categories: [], department_id: holder?.department_id ?? null, location_id: holder?.location_id ?? null,
  }, { id, actor: { user_id: c.by, business_id: c.businessId }, at });
  return insertIssuedCard(tx, blank, (await w.reserve(1)).last, c.now, c.by);
}

/** The trip's card, locked; its limit raised when this charge would pass it (the booking is the authority, not the network). */
async function existingTripCard(tx: Queryable, w: MirroredWrite, c: ChargeInput, cardId: string): Promise<Card> {
  const [row] = await tx.query<{ doc: Card }>(
    `SELECT ${CARD_DOC} AS doc FROM cards r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted FOR UPDATE`, [c.businessId, cardId],
  );
  if (!row || !USABLE.includes(row.doc.status)) throw new ApiError('TRAVEL_7022');
  const card = row.doc;
  const [spent] = await tx.query<{ amount: number }>(
    `SELECT coalesce(sum(amount), 0)::int8 AS amount FROM transactions WHERE business_id = $1 AND card_id = $2 AND state <> 'DECLINED' AND NOT deleted`,
    [c.businessId, card.id],
  );
  const needed = Number(spent?.amount ?? 0) + c.price.amount;
  if (needed <= card.limit.amount) return card;
  const seq = (await w.reserve(1)).last;
  return storeCard(tx, { ...card, limit: { ...card.limit, amount: limitFor(c.settings, needed) }, change_seq: seq, updated_at: c.now.toISOString() });
}

async function insertCardTransaction(
  tx: Queryable, w: MirroredWrite, card: Card, merchant: string, category: string, amount: number, currency: string, now: Date,
): Promise<string> {
  const id = randomUUID();
  await tx.query(
    `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, merchant_category, amount, currency, occurred_at, state,
                               department_id, location_id, change_seq, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'CLEARED', $10, $11, $12, $9)`,
    [id, card.business_id, card.id, card.user_id, merchant, category, amount, currency, now.toISOString(), card.department_id, card.location_id,
      (await w.reserve(1)).last],
  );
  for (const trigger of ['transaction.created', 'transaction.cleared'] as const) await runWorkflows(tx, card.business_id, { trigger, objectId: id });
  return id;
}

async function linkToTrip(tx: Queryable, businessId: string, tripId: string, transactionId: string, by: string): Promise<void> {
  await tx.query(
    `INSERT INTO trip_spend_events (business_id, trip_id, object_type, object_id, linked_by) VALUES ($1, $2, 'transaction', $3, $4)`,
    [businessId, tripId, transactionId, by],
  );
}

const CATEGORY = { FLIGHT: 'airfare', HOTEL: 'lodging' } as const;

/** Charges a booking: card (issued or raised), the card transaction linked to the trip, a confirmation code. */
export async function chargeBooking(tx: Queryable, w: MirroredWrite, c: ChargeInput): Promise<Charge> {
  const card = c.trip.card_id ? await existingTripCard(tx, w, c, c.trip.card_id) : await issueTripCard(tx, w, c);
  const transactionId = await insertCardTransaction(tx, w, card, c.merchant, CATEGORY[c.kind], c.price.amount, c.price.currency, c.now);
  await linkToTrip(tx, c.businessId, c.trip.id, transactionId, c.by);
  return { card, card_issued: !c.trip.card_id, transaction_id: transactionId, confirmation_code: await freeConfirmationCode(tx) };
}

/** The refund of a charged booking: the charge's negative on the same card and merchant, linked to the trip. */
export async function refundBooking(
  tx: Queryable, w: MirroredWrite, businessId: string, b: { trip_id: string; card_id: string; transaction_id: string; kind: 'FLIGHT' | 'HOTEL' },
  by: string, now: Date,
): Promise<string> {
  const [card] = await tx.query<{ doc: Card }>(`SELECT ${CARD_DOC} AS doc FROM cards r WHERE r.business_id = $1 AND r.id = $2`, [businessId, b.card_id]);
  const [charge] = await tx.query<{ merchant_name: string; amount: number; currency: string }>(
    'SELECT merchant_name, amount, currency FROM transactions WHERE business_id = $1 AND id = $2', [businessId, b.transaction_id],
  );
  const id = await insertCardTransaction(tx, w, card!.doc, charge!.merchant_name, CATEGORY[b.kind], -Number(charge!.amount), charge!.currency, now);
  await linkToTrip(tx, card!.doc.business_id, b.trip_id, id, by);
  return id;
}
