import { z } from 'zod';
import { checkCardAction, mayActOnCard } from '../../schema/card-rules.ts';
import { cardSetPrimary } from '../../schema/commands/card.ts';
import { cardSchema, type Card, type CardFilter, type CardSort, type CardStatus } from '../../schema/entities/card.ts';
import { queryTerms } from '../../schema/transaction-query.ts';
import type { ActingUser } from '../core/actor.ts';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import { ApiError, refuse } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { assertMayAct, CARD_DOC, cardActorOf, cardForWrite, storeCard } from './cards.ts';
import { writeMirrored } from './collections.ts';
import { escapeLike } from './transaction-sql.ts';
import { visibilityOf, visibleUsersClause, type Visibility } from './visibility.ts';

/**
 * Card lists and the writes over many cards (issue 10): the §7 keyset list, primary and
 * favourite cards, and bulk lock. Rules from schema/card-rules.ts; writes through writeMirrored.
 */

export type CardPageRequest = { filter: CardFilter; sort: CardSort; pageSize: number; start?: string | undefined; includeCount: boolean };

/**
 * Each sort's ORDER BY and keyset, matching compareCards (schema/entities/card.ts): names in
 * code-point order (COLLATE "C", as JavaScript compares), ids as the tiebreak.
 */
const NAME = `lower(r.display_name) COLLATE "C"`;
const SORTS: Record<CardSort, { order: string; keys: string[]; shape: z.ZodType; after: (p: (v: unknown) => string) => string }> = {
  name_asc: {
    order: `${NAME}, r.id`,
    keys: [`lower(r.display_name)`, 'r.id::text'],
    shape: z.tuple([z.string(), z.uuid()]),
    after: (p) => `(${NAME}, r.id) > (${p(0)} COLLATE "C", ${p(1)}::uuid)`,
  },
  created_desc: {
    order: 'r.created_at DESC, r.id DESC',
    keys: [`to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, 'r.id::text'],
    shape: z.tuple([z.string().min(1), z.uuid()]),
    after: (p) => `(r.created_at, r.id) < (${p(0)}::timestamptz, ${p(1)}::uuid)`,
  },
  limit_desc: {
    order: `r.limit_amount DESC, ${NAME}, r.id`,
    keys: ['r.limit_amount', `lower(r.display_name)`, 'r.id::text'],
    shape: z.tuple([z.number().int(), z.string(), z.uuid()]),
    after: (p) => `(r.limit_amount < ${p(0)}::bigint OR (r.limit_amount = ${p(0)}::bigint AND (${NAME}, r.id) > (${p(1)} COLLATE "C", ${p(2)}::uuid)))`,
  },
};

/** Cards `r` with their holder `u` (a filter's `q` matches the holder's name). */
export const CARDS_WITH_HOLDER = 'cards r JOIN spend_users u ON u.id = r.user_id';

/** WHERE conditions (joined with AND) for a filter over CARDS_WITH_HOLDER; values are pushed onto params (lists and reports). */
export function cardFilterConditions(f: CardFilter, params: unknown[]): string[] {
  const conds: string[] = [];
  if (f.statuses?.length) conds.push(`r.status = ANY($${params.push(f.statuses)}::text[])`);
  if (f.user_ids?.length) conds.push(`r.user_id = ANY($${params.push(f.user_ids)}::uuid[])`);
  if (f.department_ids?.length) conds.push(`r.department_id = ANY($${params.push(f.department_ids)}::uuid[])`);
  if (f.is_physical !== undefined) conds.push(`r.is_physical = $${params.push(f.is_physical)}`);
  for (const term of queryTerms(f.q)) {
    conds.push(`lower(concat_ws(' ', r.display_name, r.last_four, u.first_name, u.last_name)) LIKE $${params.push(`%${escapeLike(term)}%`)}`);
  }
  return conds;
}

/** §7 keyset list of the cards the caller may see, filtered and sorted; `q` also matches the holder's name. */
export async function listCards(db: Queryable, businessId: string, vis: Visibility, req: CardPageRequest) {
  const params: unknown[] = [businessId];
  const conds = ['r.business_id = $1', 'NOT r.deleted', ...cardFilterConditions(req.filter, params)];
  const from = CARDS_WITH_HOLDER;
  const where = conds.join(' AND ') + visibleUsersClause(vis, 'r', params);
  const wantCount = req.includeCount || req.pageSize === 0;
  const total = wantCount
    ? Number((await db.query<{ n: number }>(`SELECT count(*) AS n FROM ${from} WHERE ${where}`, [...params]))[0]?.n ?? 0)
    : undefined;
  if (req.pageSize === 0) return { data: [], page: { next: null }, total_count: total };
  const sort = SORTS[req.sort];
  let pageWhere = where;
  if (req.start) {
    const values = decodeCursor(req.start, req.sort, sort.shape);
    const at = values.map((v) => `$${params.push(v)}`);
    pageWhere += ` AND ${sort.after((i) => at[i as number]!)}`;
  }
  params.push(req.pageSize + 1);
  const rows = await db.query<{ doc: Card; k: (string | number)[] }>(
    `SELECT ${CARD_DOC} AS doc, jsonb_build_array(${sort.keys.join(', ')}) AS k
       FROM ${from} WHERE ${pageWhere} ORDER BY ${sort.order} LIMIT $${params.length}`,
    params,
  );
  const more = rows.length > req.pageSize;
  const page = more ? rows.slice(0, req.pageSize) : rows;
  const last = page.at(-1);
  const next = more && last ? encodeCursor(req.sort, last.k) : null;
  return { data: page.map((r) => r.doc), page: { next }, ...(total === undefined ? {} : { total_count: total }) };
}

/** The caller's primary live card, or null. */
export async function primaryCard(db: Queryable, user: ActingUser): Promise<Card | null> {
  const rows = await db.query<{ doc: Card }>(
    `SELECT ${CARD_DOC} AS doc FROM cards r
      WHERE r.business_id = $1 AND r.user_id = $2 AND r.is_primary AND r.status <> 'TERMINATED' AND NOT r.deleted`,
    [user.business_id, user.id],
  );
  return rows[0]?.doc ?? null;
}

/**
 * Makes one of the caller's own live cards their primary; the previous primary stops being it in
 * the same transaction (cleared first: the partial unique index allows one primary live card).
 * Already primary: answered as is.
 */
export async function setPrimary(tx: Queryable, user: ActingUser, id: string, now: Date): Promise<{ data: Card[]; change_seq: number }> {
  return writeMirrored(tx, user.business_id, 2, async ({ seqs }) => {
    const { card, actor } = await cardForWrite(tx, user, id);
    assertMayAct('primary', actor, card);
    if (card.status === 'TERMINATED') refuse({ ok: false, message: 'This card is terminated (status TERMINATED) and cannot be your primary card.' });
    if (card.is_primary) return { data: [card], change_seq: card.change_seq };
    const at = now.toISOString();
    const previous = await tx.query<{ doc: Card }>(
      `UPDATE cards r SET is_primary = false, change_seq = $3, updated_at = $4
        WHERE r.business_id = $1 AND r.user_id = $2 AND r.is_primary AND NOT r.deleted RETURNING ${CARD_DOC} AS doc`,
      [user.business_id, user.id, seqs.first, at],
    );
    const args = { card_id: id, previous_ids: previous.map((p) => p.doc.id) };
    const next = await storeCard(tx, cardSetPrimary.apply({ ...card, change_seq: seqs.last, updated_at: at }, args));
    return { data: [...previous.map((p) => p.doc), next], change_seq: seqs.last };
  });
}

/** The caller's starred cards, by name. */
export async function favoriteCards(db: Queryable, user: ActingUser): Promise<Card[]> {
  const rows = await db.query<{ doc: Card }>(
    `SELECT ${CARD_DOC} AS doc FROM cards r WHERE r.business_id = $1 AND r.user_id = $2 AND r.is_favorite AND NOT r.deleted
      ORDER BY lower(r.display_name) COLLATE "C", r.id`,
    [user.business_id, user.id],
  );
  return rows.map((r) => r.doc);
}

/** Locks the named cards (visible ones, FOR UPDATE, in id order so concurrent bulk writes cannot deadlock). */
async function lockCards(tx: Queryable, user: ActingUser, vis: Visibility, ids: readonly string[]): Promise<Map<string, Card>> {
  const params: unknown[] = [user.business_id, ids];
  const rows = await tx.query<{ doc: Card }>(
    `SELECT ${CARD_DOC} AS doc FROM cards r
      WHERE r.business_id = $1 AND r.id = ANY($2::uuid[]) AND NOT r.deleted${visibleUsersClause(vis, 'r', params)}
      ORDER BY r.id FOR UPDATE`,
    params,
  );
  return new Map(rows.map((r) => [r.doc.id, cardSchema.parse(r.doc)]));
}

/** Sets one flag on many rows, each with its own seq from `first` on, in one statement. */
async function setMany(tx: Queryable, businessId: string, ids: readonly string[], set: string, value: unknown, first: number, at: string): Promise<Card[]> {
  const rows = await tx.query<{ doc: Card }>(
    `UPDATE cards r SET ${set} = $3, change_seq = $4 + x.ord - 1, updated_at = $5
       FROM unnest($2::uuid[]) WITH ORDINALITY AS x(id, ord)
      WHERE r.business_id = $1 AND r.id = x.id RETURNING ${CARD_DOC} AS doc`,
    [businessId, ids, value, first, at],
  );
  return rows.map((r) => r.doc);
}

/** Star or unstar the caller's own cards: unknown or invisible → 404, someone else's → 403; all or none. */
export async function setFavorite(tx: Queryable, user: ActingUser, ids: readonly string[], favorite: boolean, now: Date) {
  return writeMirrored(tx, user.business_id, ids.length, async ({ seqs }) => {
    const cards = await lockCards(tx, user, await visibilityOf(tx, user), ids);
    const actor = await cardActorOf(tx, user);
    for (const id of ids) {
      const card = cards.get(id);
      if (!card) throw new ApiError('REQUEST_7004', `Card ${id} was not found.`);
      assertMayAct('favorite', actor, card);
    }
    const data = await setMany(tx, user.business_id, ids, 'is_favorite', favorite, seqs.first, now.toISOString());
    return { data, change_seq: seqs.last };
  });
}

/**
 * Bulk lock / unlock, all or none: the first card that is not visible (404), not the caller's to
 * act on (403) or in a status the move refuses (422) refuses the whole call, naming that card,
 * and nothing is written. A card already in the target status is left as it is and counts as
 * done (a resend of the call succeeds); `updated` counts the cards this call changed. One
 * set-based UPDATE, one seq per changed card from one reserved range.
 */
export async function bulkLock(tx: Queryable, user: ActingUser, ids: readonly string[], lock: boolean, now: Date) {
  const action = lock ? 'lock' : 'unlock';
  const target: CardStatus = lock ? 'LOCKED' : 'ACTIVE';
  return writeMirrored(tx, user.business_id, 1, async ({ seqs, reserve }) => {
    const cards = await lockCards(tx, user, await visibilityOf(tx, user), ids);
    const actor = await cardActorOf(tx, user);
    const changing: string[] = [];
    for (const id of ids) {
      const card = cards.get(id);
      if (!card) throw new ApiError('REQUEST_7004', `Card ${id} was not found.`);
      if (!mayActOnCard(action, actor, card)) {
        throw new ApiError('FORBIDDEN_7003', `Card ${id}: only the cardholder, their manager or an admin can ${action} it.`);
      }
      if (card.status === target) continue;
      const check = checkCardAction(action, card.status);
      if (!check.ok) throw new ApiError('REQUEST_7001', `Card ${id}: ${check.message}`);
      changing.push(id);
    }
    if (changing.length === 0) return { updated: 0, change_seq: seqs.last };
    // The business row is already ours: the extra seqs follow the first one without a gap.
    const last = changing.length > 1 ? (await reserve(changing.length - 1)).last : seqs.last;
    const written = await setMany(tx, user.business_id, changing, 'status', target, seqs.first, now.toISOString());
    return { updated: written.length, change_seq: last };
  });
}
