import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';

/** Per-item answers of the bulk calls (reimbursements bulk-update / bulk delete, bulk-approval). */
export type BulkItem<T> = { id: string; ok: true; row: T } | { id: string; ok: false; error_v2: ApiError['body']['error_v2'] };

/**
 * Runs `one` for each id on its own savepoint: a refusal (ApiError) rolls back that item only and
 * is answered in its place; anything else fails the whole call. Duplicated ids are answered once.
 */
export async function eachOnItsOwn<T>(tx: Queryable, ids: readonly string[], one: (id: string) => Promise<T>): Promise<BulkItem<T>[]> {
  const results: BulkItem<T>[] = [];
  for (const id of [...new Set(ids)]) {
    await tx.query('SAVEPOINT bulk_item');
    try {
      const row = await one(id);
      await tx.query('RELEASE SAVEPOINT bulk_item');
      results.push({ id, ok: true, row });
    } catch (err) {
      await tx.query('ROLLBACK TO SAVEPOINT bulk_item');
      if (!(err instanceof ApiError)) throw err;
      results.push({ id, ok: false, error_v2: err.body.error_v2 });
    }
  }
  return results;
}

