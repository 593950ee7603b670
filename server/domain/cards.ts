import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { CardPatch, IssueCardBody } from '../../schema/api/calls-cards.ts';
import {
  checkCardAction, checkIssue, expiryFrom, issuedStatus, mayActOnCard, type CardAction, type CardActor, type CardCheck,
} from '../../schema/card-rules.ts';
import {
  cardActivate, cardIssue, cardLock, cardReissue, cardSuspend, cardTerminate, cardUnlock, cardUnsuspend, cardUpdate, newCard,
} from '../../schema/commands/card.ts';
import { cardSchema, type Card } from '../../schema/entities/card.ts';
import { isAdmin, isApClerk } from '../../schema/roles.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, refuse, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { checkCodingRefs } from './coding.ts';
import { COLLECTIONS, writeMirrored } from './collections.ts';
import { reportingTeam, visibilityOf, type Visibility } from './visibility.ts';
import { shownUserSql } from './hidden-users.ts';
import { findVisibleDoc } from './live-doc.ts';
import { joinAllocation } from './procurement/allocations.ts';

/**
 * Card writes (issue 10). The rules are schema/card-rules.ts and the row changes the shared
 * commands' pure `apply` (schema/commands/card.ts), the same the worker runs optimistically;
 * the server adds what only it may do: numbering (a random last four unique among the
 * business's live cards), expiry, the issued status and the network token. Every write goes
 * through writeMirrored, whose business-row lock serialises a business's writers: that lock is
 * what makes a last four unique and a client id's create happen once.
 * Reads follow the `owner` rule: a card the caller may not see, or another business's, is 404.
 */

export const CARD_DOC = COLLECTIONS.cards.docSql;

/** The columns a write sets, in order, from a card `apply` produced. */
const COLUMNS = [
  'user_id', 'display_name', 'last_four', 'is_physical', 'status', 'limit_amount', 'limit_currency', 'limit_interval',
  'per_transaction_limit', 'allowed_categories', 'department_id', 'location_id', 'expires', 'is_primary', 'is_favorite',
  'replaces_id', 'replaced_by_id', 'spend_request_id', 'spend_allocation_id', 'created_at', 'updated_at', 'change_seq',
] as const;
const values = (c: Card) => [
  c.user_id, c.display_name, c.last_four, c.is_physical, c.status, c.limit.amount, c.limit.currency, c.limit.interval,
  c.limit.per_transaction, c.allowed_categories, c.department_id, c.location_id, c.expires, c.is_primary, c.is_favorite,
  c.replaces_id, c.replaced_by_id, c.spend_request_id, c.spend_allocation_id, c.created_at, c.updated_at, c.change_seq,
];
const placeholder = (c: string, i: number) => (c === 'allowed_categories' ? `$${i}::text[]` : `$${i}`);

/** The caller as the card rules read them: admins act on every card, a manager on their team's. */
export async function cardActorOf(db: Queryable, user: ActingUser): Promise<CardActor> {
  const team = isAdmin(user) ? 'all' : user.is_manager || isApClerk(user) ? await reportingTeam(db, user) : [user.id];
  return { ...user, team };
}

type Permission = CardAction | 'primary' | 'favorite';
const ONLY: Record<Permission, string> = {
  lock: 'Only the cardholder, their manager or an admin can lock this card.',
  unlock: 'Only the cardholder, their manager or an admin can unlock this card.',
  reissue: 'Only the cardholder, their manager or an admin can reissue this card.',
  activate: 'Only the cardholder can activate this card.',
  primary: 'Only the cardholder can make this card their primary card.',
  favorite: 'Only the cardholder can star or unstar this card.',
  suspend: 'Only an admin can suspend a card.',
  unsuspend: 'Only an admin can lift a card\'s suspension.',
  terminate: 'Only an admin or the cardholder\'s manager can terminate this card.',
  edit: 'Only an admin or the cardholder\'s manager can change this card; nobody changes their own card\'s limits.',
  issue: 'Only an admin or the cardholder\'s manager can issue this card.',
};

/** 403 with a sentence saying who may, when `actor` may not run `action` on `card`. */
export function assertMayAct(action: Permission, actor: CardActor, card: Pick<Card, 'user_id'>): void {
  if (!mayActOnCard(action, actor, card)) throw new ApiError('FORBIDDEN_7003', ONLY[action]);
}

/** A refused right (checkIssue): 403 with the rule's message. */
function forbid(check: CardCheck): void {
  if (!check.ok) throw new ApiError('FORBIDDEN_7003', check.message);
}

/** One visible, live card as its wire doc (FOR UPDATE inside writes), or null. */
export async function findCard(db: Queryable, businessId: string, vis: Visibility, id: string, lock = false): Promise<Card | null> {
  return findVisibleDoc<Card>(db, { table: 'cards', doc: CARD_DOC }, businessId, vis, id, lock);
}

/**
 * A card the caller can see, locked for a write (call it after the write's seqs are reserved:
 * every writer locks the business row first), with the caller as the rules read them.
 */
export async function cardForWrite(tx: Queryable, user: ActingUser, id: string): Promise<{ card: Card; actor: CardActor }> {
  const doc = await findCard(tx, user.business_id, await visibilityOf(tx, user), id, true);
  if (!doc) throw new ApiError('REQUEST_7004');
  return { card: cardSchema.parse(doc), actor: await cardActorOf(tx, user) };
}

export async function storeCard(tx: Queryable, next: Card): Promise<Card> {
  const sets = COLUMNS.map((c, i) => `${c} = ${placeholder(c, i + 3)}`).join(', ');
  const rows = await tx.query<{ doc: Card }>(
    `UPDATE cards r SET ${sets} WHERE r.business_id = $1 AND r.id = $2 RETURNING ${CARD_DOC} AS doc`,
    [next.business_id, next.id, ...values(next)],
  );
  return rows[0]!.doc;
}

/** A random last four no live card of the business carries (the caller holds the business lock). */
async function freeLastFour(tx: Queryable, businessId: string): Promise<string> {
  const rows = await tx.query<{ last_four: string }>(
    `SELECT last_four FROM cards WHERE business_id = $1 AND status <> 'TERMINATED' AND NOT deleted AND last_four IS NOT NULL`,
    [businessId],
  );
  const taken = new Set(rows.map((r) => r.last_four));
  if (taken.size >= 10_000) throw new ApiError('REQUEST_7001', 'Every card number ending is in use in this business. Terminate unused cards first.');
  for (;;) {
    const candidate = String(randomInt(0, 10_000)).padStart(4, '0');
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Issues a card the shared command built (REQUESTED, unnumbered): the server-only steps, then
 * the insert. The one issuing path: POST /cards, reissue and approved card requests all use it.
 * The caller reserved `seq` through writeMirrored, so it holds the business lock.
 */
export async function insertIssuedCard(tx: Queryable, blank: Card, seq: number, now: Date, issuedBy: string): Promise<Card> {
  refuse(checkCardAction('issue', blank.status));
  const issued: Card = {
    ...blank, status: issuedStatus(blank.is_physical), last_four: await freeLastFour(tx, blank.business_id),
    expires: expiryFrom(now), change_seq: seq,
  };
  const cols = ['id', 'business_id', ...COLUMNS, 'issued_by', 'network_token'];
  const rows = await tx.query<{ doc: Card }>(
    `INSERT INTO cards AS r (${cols.join(', ')}) VALUES (${cols.map((c, i) => placeholder(c, i + 1)).join(', ')})
     RETURNING ${CARD_DOC} AS doc`,
    [issued.id, issued.business_id, ...values(issued), issuedBy, `tok_${randomBytes(16).toString('hex')}`],
  );
  return rows[0]!.doc;
}

/**
 * A create that names an id already stored: its issuer's repeat (a resend after a lost answer)
 * answers the stored card; an id used by anything else is refused.
 */
async function repeatedIssue(tx: Queryable, user: ActingUser, id: string): Promise<Card | null> {
  const [existing] = await tx.query<{ business_id: string; issued_by: string | null; deleted: boolean; doc: Card }>(
    `SELECT r.business_id::text, r.issued_by::text, r.deleted, ${CARD_DOC} AS doc FROM cards r WHERE r.id = $1`,
    [id],
  );
  if (!existing) return null;
  if (existing.business_id === user.business_id && existing.issued_by === user.id && !existing.deleted) return existing.doc;
  throw validationError({ id: 'id is already used by another card' });
}

/**
 * POST /cards: §6 issuing (admins to anyone in the business, a manager to their team). The
 * cardholder must be a live user of the caller's business (else 404), the coding defaults
 * references of it; a budget named (`spend_allocation_id`) must be one the issuer sees, live, in
 * the limit's currency (domain/procurement/allocations.ts `joinAllocation`). The id check runs under the business lock, so racing repeats of one
 * client id make one card.
 */
export async function issueCard(tx: Queryable, user: ActingUser, body: IssueCardBody, now: Date): Promise<Card> {
  return writeMirrored(tx, user.business_id, 1, async (w) => {
    const { seqs } = w;
    const id = body.id ?? randomUUID();
    const repeat = body.id ? await repeatedIssue(tx, user, body.id) : null;
    if (repeat) return repeat;
    const holders = await tx.query(`SELECT 1 FROM spend_users WHERE business_id = $1 AND id = $2 AND NOT deleted AND ${shownUserSql()}`, [user.business_id, body.user_id]);
    if (holders.length === 0) throw new ApiError('REQUEST_7004', 'The cardholder is not a user of this business.');
    forbid(checkIssue(await cardActorOf(tx, user), body.user_id));
    await checkCodingRefs(tx, user.business_id, { department_id: body.department_id, location_id: body.location_id });
    // Issue 28: a card on a budget (live, in its currency); its holder becomes a member.
    const allocation = body.spend_allocation_id;
    if (allocation) await joinAllocation(tx, user, w, { spend_allocation_id: allocation, currency: body.limit.currency, holder: body.user_id }, now);
    const args = { ...body, id };
    const blank = newCard(args, { id, actor: { user_id: user.id, business_id: user.business_id }, at: now.toISOString() });
    return insertIssuedCard(tx, cardIssue.apply(blank, args), seqs.first, now, user.id);
  });
}

export type CardMove = 'activate' | 'lock' | 'unlock' | 'suspend' | 'unsuspend' | 'terminate';

/** The shared command's apply for each move (the worker shows the same change optimistically). */
function applyMove(move: CardMove, row: Card, lastFour: string): Card {
  const args = { card_id: row.id };
  switch (move) {
    case 'activate': return cardActivate.apply(row, { ...args, last_four: lastFour });
    case 'lock': return cardLock.apply(row, args);
    case 'unlock': return cardUnlock.apply(row, args);
    case 'suspend': return cardSuspend.apply(row, args);
    case 'unsuspend': return cardUnsuspend.apply(row, args);
    // A terminated card is nobody's primary: the holder may make another live card primary.
    case 'terminate': return { ...cardTerminate.apply(row, args), is_primary: false };
  }
}

/**
 * One status move of the machine (schema/card-rules.ts): invisible → 404, without the right →
 * 403, from a status the move refuses → 422 naming it. Activation also needs the card's last four.
 */
export async function moveCard(tx: Queryable, user: ActingUser, id: string, move: CardMove, now: Date, lastFour = ''): Promise<Card> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const { card, actor } = await cardForWrite(tx, user, id);
    assertMayAct(move, actor, card);
    refuse(checkCardAction(move, card.status));
    if (move === 'activate' && card.last_four !== lastFour) {
      throw validationError({ last_four: 'The last four digits do not match this card. Check the number on the card and try again.' });
    }
    return storeCard(tx, applyMove(move, { ...card, change_seq: seqs.first, updated_at: now.toISOString() }, lastFour));
  });
}

/** PATCH: name, limit, categories and coding defaults, by an admin or the holder's manager. */
export async function updateCard(tx: Queryable, user: ActingUser, id: string, patch: CardPatch, now: Date): Promise<Card> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const { card, actor } = await cardForWrite(tx, user, id);
    assertMayAct('edit', actor, card);
    refuse(checkCardAction('edit', card.status));
    await checkCodingRefs(tx, user.business_id, { department_id: patch.department_id ?? null, location_id: patch.location_id ?? null });
    const stamped = { ...card, change_seq: seqs.first, updated_at: now.toISOString() };
    return storeCard(tx, cardUpdate.apply(stamped, { card_id: id, patch }));
  });
}

/**
 * Reissue: the card → TERMINATED pointing at its successor, and the successor issued with the
 * same limit, categories, coding and physical-ness (a new number), primary if the old one was.
 * A repeat naming the successor already made answers both as stored; `replaces_id` is unique,
 * so a card is reissued once whatever races.
 */
export async function reissueCard(
  tx: Queryable, user: ActingUser, id: string, successorId: string | undefined, now: Date,
): Promise<{ card: Card; successor: Card; change_seq: number }> {
  return writeMirrored(tx, user.business_id, 2, async ({ seqs }) => {
    const { card, actor } = await cardForWrite(tx, user, id);
    assertMayAct('reissue', actor, card);
    if (successorId && card.replaced_by_id === successorId) {
      const successor = await findCard(tx, user.business_id, { all: true }, successorId);
      if (successor) return { card, successor, change_seq: Math.max(card.change_seq, successor.change_seq) };
    }
    refuse(checkCardAction('reissue', card.status));
    const nextId = successorId ?? randomUUID();
    const [used] = await tx.query('SELECT 1 FROM cards WHERE id = $1', [nextId]);
    if (used) throw validationError({ successor_id: 'successor_id is already used by another card' });
    const at = now.toISOString();
    const old = { ...cardReissue.apply({ ...card, change_seq: seqs.first, updated_at: at }, { card_id: id, successor_id: nextId }), is_primary: false };
    const stored = await storeCard(tx, old);
    const blank: Card = {
      ...card, id: nextId, status: 'REQUESTED', last_four: null, expires: null, is_favorite: false, replaces_id: id,
      // The successor keeps drawing on the same budget; the request was fulfilled by the card it replaces (one card per request).
      replaced_by_id: null, spend_request_id: null, created_at: at, updated_at: at,
    };
    const successor = await insertIssuedCard(tx, blank, seqs.last, now, user.id);
    return { card: stored, successor, change_seq: seqs.last };
  });
}
