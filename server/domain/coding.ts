import type { BulkCodingBody, CodingPatch } from '../../schema/commands/coding-patch.ts';
import { transactionCode } from '../../schema/commands/index.ts';
import { transactionSchema, type Transaction } from '../../schema/entities/transaction.ts';
import { allocateSeqs, announceChange } from '../db/change-seq.ts';
import type { Queryable } from '../db/db.ts';
import { DOC_SQL } from '../feed/docs.ts';
import { ApiError, validationError } from '../http/errors.ts';
import { findTransaction } from './transaction-sql.ts';
import { visibleUsersClause, type Visibility } from './visibility.ts';

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

/** PATCH one transaction: load (locked), apply the shared command, store, announce. */
export async function codeTransaction(
  tx: Queryable,
  businessId: string,
  vis: Visibility,
  transactionId: string,
  patch: CodingPatch,
): Promise<Transaction> {
  // The seq is taken first: every writer locks the business row before any transaction row, so
  // a PATCH and a bulk update can never wait on each other in opposite orders (deadlock).
  const seqs = await allocateSeqs(tx, businessId, 1);
  if (!seqs) throw new ApiError('REQUEST_7004');
  const doc = await findTransaction(tx, businessId, vis, transactionId, true);
  if (!doc) throw new ApiError('REQUEST_7004');
  await checkCodingRefs(tx, businessId, patch);
  const current = transactionSchema.parse(doc);
  const next = transactionCode.apply(current, { transaction_id: transactionId, patch });
  const rows = await tx.query<{ doc: Transaction }>(
    `UPDATE transactions r SET memo = $3, gl_account_id = $4, department_id = $5, location_id = $6, tracking = $7::jsonb,
            change_seq = $8, updated_at = now()
      WHERE r.business_id = $1 AND r.id = $2 RETURNING ${DOC_SQL.transactions} AS doc`,
    [businessId, transactionId, next.memo, next.gl_account_id, next.department_id, next.location_id,
      JSON.stringify(next.tracking), seqs.last],
  );
  await announceChange(tx, businessId, seqs.last);
  return rows[0]!.doc;
}

/**
 * The column assignments a patch makes, derived by running the shared `apply` on probe rows, so
 * the set-based bulk UPDATE means exactly what the command means (memo '' → null, tracking merge).
 */
export function patchAssignments(patch: CodingPatch) {
  const probe: Pick<Transaction, 'memo' | 'gl_account_id' | 'department_id' | 'location_id' | 'tracking'> = {
    memo: null, gl_account_id: null, department_id: null, location_id: null, tracking: {},
  };
  const applied = transactionCode.apply(probe as Transaction, { transaction_id: '', patch });
  const removed = Object.entries(patch.tracking ?? {}).filter(([, v]) => v === null).map(([k]) => k);
  return {
    memo: patch.memo !== undefined ? { value: applied.memo } : null,
    gl_account_id: patch.gl_account_id !== undefined ? { value: applied.gl_account_id } : null,
    department_id: patch.department_id !== undefined ? { value: applied.department_id } : null,
    location_id: patch.location_id !== undefined ? { value: applied.location_id } : null,
    tracking: patch.tracking !== undefined ? { set: applied.tracking, remove: removed } : null,
  };
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
  const seqs = await allocateSeqs(tx, businessId, n);
  if (!seqs) throw new ApiError('REQUEST_7004');
  await checkCodingRefs(tx, businessId, body.patch);
  const a = patchAssignments(body.patch);
  const params: unknown[] = [businessId, body.transaction_ids, seqs.first - 1];
  /** New value expression per coding column; columns the patch leaves alone keep r.<col>. */
  const next: Record<string, string> = {
    memo: 'r.memo', gl_account_id: 'r.gl_account_id', department_id: 'r.department_id',
    location_id: 'r.location_id', tracking: 'r.tracking',
  };
  const param = (value: unknown, cast: string) => {
    params.push(value);
    return `$${params.length}${cast}`;
  };
  if (a.memo) next.memo = param(a.memo.value, '::text');
  if (a.gl_account_id) next.gl_account_id = param(a.gl_account_id.value, '::uuid');
  if (a.department_id) next.department_id = param(a.department_id.value, '::uuid');
  if (a.location_id) next.location_id = param(a.location_id.value, '::uuid');
  if (a.tracking) {
    next.tracking = `(r.tracking - ${param(a.tracking.remove, '::text[]')}) || ${param(JSON.stringify(a.tracking.set), '::jsonb')}`;
  }
  const changed = Object.entries(next).filter(([col, expr]) => expr !== `r.${col}`);
  const sets = [
    ...changed.map(([col, expr]) => `${col} = ${expr}`),
    // Computed here, once per statement plan, rather than by the per-row trigger (migration 002).
    `search_text = ll_transaction_search_text(r.merchant_name, ${next.memo}, r.user_id, ${next.gl_account_id},
       ${next.department_id}, ${next.location_id}, ${next.tracking})`,
    'change_seq = $3 + u.ord',
    'updated_at = now()',
  ];
  const rows = await tx.query<{ n: number }>(
    `WITH updated AS (
       UPDATE transactions r SET ${sets.join(', ')}
         FROM unnest($2::uuid[]) WITH ORDINALITY AS u(id, ord)
        WHERE r.business_id = $1 AND r.id = u.id AND NOT r.deleted${visibleUsersClause(vis, 'r', params)}
        RETURNING 1)
     SELECT count(*) AS n FROM updated`,
    params,
  );
  const updated = Number(rows[0]?.n ?? 0);
  if (updated !== n) throw new ApiError('REQUEST_7004', `${n - updated} of ${n} transactions were not found.`);
  await announceChange(tx, businessId, seqs.last);
  return { updated, change_seq: seqs.last };
}
