import { clampPageIndex } from '../../schema/paging.ts';
import type { Queryable } from '../db/db.ts';

/**
 * The §5 page-index form of a list (issue 32, the `/pagination` calls): the count, then the page
 * at the clamped index (between 0 and the last page; an empty result has one empty page 0), read
 * with LIMIT/OFFSET in the list's total order (its sort then id, so pages never overlap).
 */
export type IndexRequest = { pageIndex: number; pageSize: number };
export type IndexPage<T> = {
  data: T[];
  page: { index: number; size: number; count: number; requested_index?: number };
  total_count: number;
};

export async function pageByIndex<T>(
  db: Queryable,
  spec: { from: string; doc: string; where: string; params: readonly unknown[]; orderBy: string },
  req: IndexRequest,
): Promise<IndexPage<T>> {
  const [counted] = await db.query<{ n: number }>(`SELECT count(*) AS n FROM ${spec.from} WHERE ${spec.where}`, [...spec.params]);
  const total = Number(counted?.n ?? 0);
  const index = clampPageIndex(req.pageIndex, total, req.pageSize);
  const params = [...spec.params, req.pageSize, index * req.pageSize];
  const rows = total === 0 ? [] : await db.query<{ doc: T }>(
    `SELECT ${spec.doc} AS doc FROM ${spec.from} WHERE ${spec.where}
      ORDER BY ${spec.orderBy} LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  const page = {
    index, size: req.pageSize, count: Math.ceil(total / req.pageSize),
    ...(index === req.pageIndex ? {} : { requested_index: req.pageIndex }),
  };
  return { data: rows.map((r) => r.doc), page, total_count: total };
}
