import type { CommentSubjectType } from '../../../schema/api/calls-comments.ts';
import type { MirroredCollection } from '../../../schema/collections.ts';
import { formatMoney } from '../../../schema/money.ts';
import type { ActingUser } from '../../core/actor.ts';
import type { Queryable } from '../../db/db.ts';
import { COLLECTIONS } from '../collections.ts';
import { viewerFor } from '../visibility.ts';
import { shownUserSql } from '../hidden-users.ts';

/**
 * What a comment thread hangs on (issue 29): a transaction, a claim, a bill or a spend request.
 * Who may read and write a thread is exactly who may see the item: its collection's own
 * visibility rule (COLLECTIONS[…].visibility, the rule the feed and the lists apply), never a rule
 * written here. The owner (the transaction's, claim's or request's person, a bill's creator) hears
 * of other people's comments; `label` and `path` name and open the item in notifications.
 */
export type CommentSubject = {
  type: CommentSubjectType;
  id: string;
  owner_id: string | null;
  /** "Delta Air Lines · $120.00". */
  label: string;
  /** The app's own address that opens the item (each list's `?open=` search param). */
  path: string;
};

type Source = { collection: MirroredCollection; select: string; path: (id: string) => string };

/** Each type's row (alias `r`, `$1` business, `$2` id): owner and what names it. */
const SOURCES: Record<CommentSubjectType, Source> = {
  transaction: {
    collection: 'transactions', path: (id) => `/transactions?open=${id}`,
    select: `SELECT r.id::text, r.user_id::text AS owner_id, r.merchant_name AS name, r.amount, r.currency FROM transactions r`,
  },
  reimbursement: {
    collection: 'reimbursements', path: (id) => `/reimbursements?open=${id}`,
    select: `SELECT r.id::text, r.user_id::text AS owner_id, r.amount, r.currency,
                    coalesce(nullif(r.merchant, ''), CASE r.type WHEN 'MILEAGE' THEN 'Mileage claim' WHEN 'PER_DIEM' THEN 'Per diem claim' ELSE 'Claim' END) AS name
               FROM reimbursements r`,
  },
  bill: {
    collection: 'bills', path: (id) => `/bills?open=${id}`,
    select: `SELECT r.id::text, r.created_by::text AS owner_id, r.amount, r.currency, coalesce(v.name, 'Bill ' || r.invoice_number) AS name
               FROM bills r LEFT JOIN vendors v ON v.id = r.vendor_id`,
  },
  spend_request: {
    collection: 'spend_requests', path: (id) => `/requests?open=${id}`,
    select: `SELECT r.id::text, r.user_id::text AS owner_id, r.description AS name, r.amount, r.currency FROM spend_requests r`,
  },
};

type Row = { id: string; owner_id: string | null; name: string | null; amount: number | string | null; currency: string | null };

const clipName = (s: string) => (s.length <= 80 ? s : `${s.slice(0, 79)}…`);

function subjectOf(type: CommentSubjectType, r: Row): CommentSubject {
  const money = r.amount === null || r.currency === null ? '' : ` · ${formatMoney(Number(r.amount), r.currency)}`;
  return { type, id: r.id, owner_id: r.owner_id, label: `${clipName(r.name ?? 'Item')}${money}`, path: SOURCES[type].path(r.id) };
}

async function read(db: Queryable, businessId: string, type: CommentSubjectType, id: string, viewer: ActingUser | null): Promise<CommentSubject | null> {
  const source = SOURCES[type];
  const params: unknown[] = [businessId, id];
  let where = '';
  if (viewer) {
    const rule = COLLECTIONS[source.collection].visibility;
    where = rule.where(await viewerFor(db, viewer, [rule]), 'r', params);
  }
  const [row] = await db.query<Row>(`${source.select} WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${where}`, params);
  return row ? subjectOf(type, row) : null;
}

/** The item as `user` may see it, or null (another business's, one they cannot see, or none). */
export const visibleSubject = (db: Queryable, user: ActingUser, type: CommentSubjectType, id: string) =>
  read(db, user.business_id, type, id, user);

/** The item whatever anyone sees (a workflow's comment: the workflow acts for the business). */
export const businessSubject = (db: Queryable, businessId: string, type: CommentSubjectType, id: string) =>
  read(db, businessId, type, id, null);

type Member = ActingUser & { name: string; active: boolean };

/**
 * The mentioned people who may not be mentioned: not this business's active members, or unable
 * to see the item under the same rule as the author. Each is named (an id from elsewhere is named
 * by the id the caller sent, which tells them nothing new).
 */
export async function unfitMentions(db: Queryable, subject: CommentSubject, businessId: string, ids: readonly string[]): Promise<{ id: string; name: string; why: string }[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<Member>(
    `SELECT id::text, business_id::text, role, is_manager, user_permissions, manager_id::text,
            trim(first_name || ' ' || last_name) AS name, (status = 'ACTIVE' AND NOT deleted) AS active
       FROM spend_users WHERE business_id = $1 AND id = ANY($2::uuid[]) AND ${shownUserSql()}`,
    [businessId, [...new Set(ids)]],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out: { id: string; name: string; why: string }[] = [];
  for (const id of new Set(ids)) {
    const m = byId.get(id);
    if (!m) out.push({ id, name: id, why: 'is not a member of this business' });
    else if (!m.active) out.push({ id, name: m.name, why: 'is not an active member' });
    else if (!(await visibleSubject(db, m, subject.type, subject.id))) out.push({ id, name: m.name, why: 'cannot see this item' });
  }
  return out;
}
