import type { BulkCodingBody, CodingPatch } from '../../schema/commands/coding-patch.ts';
import { transactionCode } from '../../schema/commands/index.ts';
import { CODING_FIELDS, syncedCodingRefusal, type CodingField } from '../../schema/commands/transaction-code.ts';
import { columnOf } from '../../schema/entities/columns.ts';
import { transactionEntity, transactionSchema, type Transaction } from '../../schema/entities/transaction.ts';
import { COLLECTIONS } from './collections.ts';
import type { Queryable } from '../db/db.ts';
import { ApiError, validationError } from '../core/errors.ts';
import { findTransaction } from './transaction-sql.ts';
import { visibleUsersClause, type Visibility } from './visibility.ts';
import { STALE, writePrepared, type ReadDependency } from './prepared-write.ts';
import { runPreparedWorkflows } from './workflows/engine.ts';
import { enabledWorkflows } from './workflows/store.ts';


/**
 * Coding writes. The coding rules themselves live in the shared command (schema/commands):
 * the worker runs the same `apply` optimistically, the server runs it here with authority.
 */

type RefRow = { kind: string; id: string; active: boolean; options: { id: string }[] | null };

/** Every id a patch sets must exist in the caller's business (and options in their category). */
export async function checkCodingRefs(tx: Queryable, businessId: string, patch: CodingPatch): Promise<void> {
  const tracking = Object.entries(patch.tracking ?? {}).filter((e): e is [string, string] => e[1] !== null);
  const rows = await tx.query<RefRow>(
    `SELECT 'gl' AS kind, id::text, active, NULL::jsonb AS options FROM gl_accounts WHERE business_id = $1 AND id = $2 AND NOT deleted
     UNION ALL SELECT 'department', id::text, true, NULL FROM departments WHERE business_id = $1 AND id = $3 AND NOT deleted
     UNION ALL SELECT 'location', id::text, true, NULL FROM locations WHERE business_id = $1 AND id = $4 AND NOT deleted
     UNION ALL SELECT 'tracking', id::text, true, options FROM tracking_categories
       WHERE business_id = $1 AND id = ANY($5::uuid[]) AND NOT deleted`,
    [businessId, patch.gl_account_id ?? null, patch.department_id ?? null, patch.location_id ?? null, tracking.map(([c]) => c)],
  );
  const found = (kind: string, id: string) => rows.find((r) => r.kind === kind && r.id === id);
  const errors: Record<string, string> = {};
  const gl = patch.gl_account_id ? found('gl', patch.gl_account_id) : undefined;
  if (patch.gl_account_id && !gl) errors.gl_account_id = 'gl_account_id must be a GL account of this business';
  else if (gl && !gl.active) errors.gl_account_id = 'gl_account_id must be an active GL account';
  if (patch.department_id && !found('department', patch.department_id)) {
    errors.department_id = 'department_id must be a department of this business';
  }
  if (patch.location_id && !found('location', patch.location_id)) {
    errors.location_id = 'location_id must be a location of this business';
  }
  for (const [categoryId, optionId] of tracking) {
    const category = found('tracking', categoryId);
    if (!category) errors[`tracking.${categoryId}`] = 'tracking category must be a tracking category of this business';
    else if (!category.options?.some((o) => o.id === optionId)) {
      errors[`tracking.${categoryId}`] = 'tracking option must belong to its tracking category';
    }
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/**
 * The mirrored rows a patch's reference check reads (domain/prepared-write.ts `reads`): a GL
 * account deactivated, or a department deleted, after the check and before the write makes the
 * write check again under the lock.
 */
function codingRefReads(patch: CodingPatch): ReadDependency[] {
  const ids = (id: string | null | undefined) => (id ? [id] : []);
  return [
    { collection: 'gl_accounts', ids: ids(patch.gl_account_id) },
    { collection: 'departments', ids: ids(patch.department_id) },
    { collection: 'locations', ids: ids(patch.location_id) },
    { collection: 'tracking_categories', ids: Object.entries(patch.tracking ?? {}).filter(([, v]) => v !== null).map(([c]) => c) },
  ];
}

/**
 * PATCH one transaction: read the row, check the references and run the shared command before the
 * business lock (issue 33: writePrepared), then, holding it, store the result and answer the doc.
 * The row is read without FOR UPDATE: every writer of a transaction holds the business lock while
 * it writes, so once this write holds it the row cannot change, and a change committed since the
 * read makes writePrepared read it again under the lock.
 */
export async function codeTransaction(
  tx: Queryable,
  businessId: string,
  vis: Visibility,
  transactionId: string,
  patch: CodingPatch,
): Promise<Transaction> {
  return writePrepared(tx, businessId, 1, {
    prepare: async () => {
      const doc = await findTransaction(tx, businessId, vis, transactionId);
      if (!doc) throw new ApiError('REQUEST_7004');
      const current = transactionSchema.parse(doc);
      const synced = syncedCodingRefusal(current.accounting_synced_at);
      if (synced) throw new ApiError('ACCOUNTING_7301', synced);
      await checkCodingRefs(tx, businessId, patch);
      const next = transactionCode.apply(current, { transaction_id: transactionId, patch });
      const workflows = await enabledWorkflows(tx, businessId, 'transaction.coded');
      return { value: { next, workflows }, reads: [{ collection: 'transactions', ids: [transactionId] }, ...codingRefReads(patch)] };
    },
    // The UPDATE carries the "nothing read has changed" condition: under the lock, one statement.
    guarded: true,
    write: async ({ next, workflows }, { seqs, unchanged }) => {
      const params: unknown[] = [businessId, transactionId, seqs.last];
      // Every coding field's column, from the entity's columns (issue 26): a field the patch gains is written here as is.
      const sets = CODING_FIELDS.map((field) => {
        params.push(asParam(field, next[field]));
        return `${codingColumn(field)} = $${params.length}${codingCast(field)}`;
      });
      const rows = await tx.query<{ doc: Transaction }>(
        `UPDATE transactions r SET ${sets.join(', ')}, change_seq = $3, updated_at = now()
          WHERE r.business_id = $1 AND r.id = $2 AND ${unchanged(params)} RETURNING ${COLLECTIONS.transactions.docSql} AS doc`,
        params,
      );
      if (rows.length === 0) return STALE;
      await runPreparedWorkflows(tx, businessId, 'transaction.coded', [transactionId], workflows);
      return rows[0]!.doc;
    },
  });
}

/** A coding field's column, its parameter cast and its value as a parameter (schema/entities/transaction.ts columns). */
const codingColumn = (field: CodingField) => columnOf(field, transactionEntity.columns[field]);
const codingCast = (field: CodingField) => `::${transactionEntity.columns[field].type}`;
const asParam = (field: CodingField, value: unknown) => (transactionEntity.columns[field].type === 'jsonb' ? JSON.stringify(value) : value);

/**
 * The column assignments a patch makes, derived by running the shared `apply` on a probe row, so
 * the set-based bulk UPDATE means exactly what the command means (memo '' → null, tracking
 * merges by category, other fields replaced): `fields` the replaced ones, `tracking` the merge.
 */
export function patchAssignments(patch: CodingPatch) {
  const probe = { memo: null, gl_account_id: null, department_id: null, location_id: null, tracking: {} };
  const applied = transactionCode.apply(probe as unknown as Transaction, { transaction_id: '', patch });
  const removed = Object.entries(patch.tracking ?? {}).filter(([, v]) => v === null).map(([k]) => k);
  const fields: Partial<Record<CodingField, { value: unknown }>> = {};
  for (const field of CODING_FIELDS) if (field !== 'tracking' && patch[field] !== undefined) fields[field] = { value: applied[field] };
  return { fields, tracking: patch.tracking !== undefined ? { set: applied.tracking, remove: removed } : null };
}

/**
 * The search text of every row of CTE `target`, set-based: the same text as the per-row SQL
 * function ll_transaction_search_text (migration 001), which evaluated per row with five
 * subqueries costs several times more for 10,000 rows than these joins. A test in
 * routes/transactions.test.ts holds the two to the same result.
 */
const SEARCH_TEXT_OF_TARGET = `
  SELECT x.*, lower(concat_ws(' ', x.merchant_name, x.memo, su.first_name || ' ' || su.last_name,
           g.code || ' ' || g.name, d.name, l.name,
           CASE WHEN x.tracking = '{}'::jsonb THEN NULL ELSE (
             SELECT string_agg(c.name || ' ' || (o.value ->> 'name'), ' ')
               FROM jsonb_each_text(x.tracking) AS tr(category_id, option_id)
               JOIN tracking_categories c ON c.id::text = tr.category_id
               JOIN LATERAL jsonb_array_elements(c.options) AS o(value) ON o.value ->> 'id' = tr.option_id) END)) AS search_text
    FROM target x
    LEFT JOIN spend_users su ON su.id = x.user_id
    LEFT JOIN gl_accounts g ON g.id = x.gl_account_id
    LEFT JOIN departments d ON d.id = x.department_id
    LEFT JOIN locations l ON l.id = x.location_id`;

/**
 * Issue 12: a selection holding a transaction a sync commit exported is refused whole (the
 * call is all or nothing), naming how many and the earliest export. Only rows the caller may see
 * are looked at, so the refusal says nothing about the others.
 */
async function refuseSynced(tx: Queryable, businessId: string, vis: Visibility, ids: string[]): Promise<void> {
  const params: unknown[] = [businessId, ids];
  const visibility = visibleUsersClause(vis, 't', params);
  const [row] = await tx.query<{ n: number; first: string | null }>(
    `SELECT count(*) AS n, ll_iso(min(t.accounting_synced_at)) AS first FROM transactions t
      WHERE t.business_id = $1 AND t.id = ANY($2::uuid[]) AND NOT t.deleted AND t.accounting_synced_at IS NOT NULL${visibility}`,
    params,
  );
  const count = Number(row?.n ?? 0);
  if (count === 0 || !row?.first) return;
  if (ids.length === 1) throw new ApiError('ACCOUNTING_7301', syncedCodingRefusal(row.first)!);
  throw new ApiError('ACCOUNTING_7301',
    `${count} of these ${ids.length} transactions were exported to your accounting system (the first on ${row.first.slice(0, 10)}). ` +
    'Mark them as not synced to change their coding.');
}

/**
 * Bulk coding, all or nothing, in one UPDATE over unnest(ids): each row gets its own seq from one
 * reserved range. If any id is unknown, deleted or invisible to the caller, fewer rows match,
 * and the thrown 404 rolls the whole transaction back (which ids were missing is not said: that
 * would leak what exists).
 */
export async function bulkCode(
  tx: Queryable,
  businessId: string,
  vis: Visibility,
  body: BulkCodingBody,
): Promise<{ updated: number; change_seq: number }> {
  const n = body.transaction_ids.length;
  // The checks and the workflows' read before the business lock (issue 33, writePrepared); the
  // UPDATE itself reads each row's current values under it.
  const prepare = async () => {
    await refuseSynced(tx, businessId, vis, body.transaction_ids);
    await checkCodingRefs(tx, businessId, body.patch);
    const workflows = await enabledWorkflows(tx, businessId, 'transaction.coded');
    return { value: workflows, reads: [{ collection: 'transactions' as const, ids: body.transaction_ids }, ...codingRefReads(body.patch)] };
  };
  return writePrepared(tx, businessId, n, { prepare, write: async (workflows, { seqs }) => {
    const a = patchAssignments(body.patch);
    const params: unknown[] = [businessId, body.transaction_ids, seqs.first - 1];
    const param = (value: unknown, cast: string) => {
      params.push(value);
      return `$${params.length}${cast}`;
    };
    /** New value expression per coding field, over the current row `t`. */
    const next = Object.fromEntries(CODING_FIELDS.map((f) => [f, `t.${codingColumn(f)}`])) as Record<CodingField, string>;
    for (const [field, set] of Object.entries(a.fields) as [CodingField, { value: unknown }][]) {
      next[field] = param(asParam(field, set.value), codingCast(field));
    }
    if (a.tracking) {
      next.tracking = `(t.tracking - ${param(a.tracking.remove, '::text[]')}) || ${param(JSON.stringify(a.tracking.set), '::jsonb')}`;
    }
    const changed = CODING_FIELDS.filter((f) => next[f] !== `t.${codingColumn(f)}`);
    const visibility = visibleUsersClause(vis, 't', params);
    const rows = await tx.query<{ n: number }>(
      `WITH target AS (
         SELECT t.id, u.ord, t.merchant_name, t.user_id, ${CODING_FIELDS.map((f) => `${next[f]} AS ${codingColumn(f)}`).join(', ')}
           FROM unnest($2::uuid[]) WITH ORDINALITY AS u(id, ord)
           JOIN transactions t ON t.id = u.id AND t.business_id = $1 AND NOT t.deleted${visibility}
       ), updated AS (
         UPDATE transactions r SET ${changed.map((f) => `${codingColumn(f)} = src.${codingColumn(f)}, `).join('')}search_text = src.search_text,
                change_seq = $3 + src.ord, updated_at = now()
           FROM (${SEARCH_TEXT_OF_TARGET}) src
          WHERE r.id = src.id
          RETURNING 1)
       SELECT count(*) AS n FROM updated`,
      params,
    );
    const updated = Number(rows[0]?.n ?? 0);
    if (updated !== n) throw new ApiError('REQUEST_7004', `${n - updated} of ${n} transactions were not found.`);
    await runPreparedWorkflows(tx, businessId, 'transaction.coded', body.transaction_ids, workflows);
    return { updated, change_seq: seqs.last };
  } });
}
