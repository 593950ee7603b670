import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from './constants.ts';
import { boolParam } from './entities/common.ts';

export const MAX_PAGE_SIZE = 1000;

/** GET list paging (§7): page_size, start cursor, include_count. */
export const pageQuerySchema = z.object({
  page_size: z.coerce.number().int().min(0).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  start: z.string().min(1).optional(),
  include_count: boolParam.optional(),
});

/** POST search paging (§7): { paging: { page_size, start } }. */
export const pagingBodySchema = z.object({
  page_size: z.number().int().min(0).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  start: z.string().min(1).optional(),
});

export function paginatedSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    page: z.object({ next: z.string().nullable() }),
    total_count: z.number().int().nonnegative().optional(),
  });
}

/** §5: the page index is clamped between 0 and the last page. */
export function clampPageIndex(index: number, total: number, pageSize: number): number {
  if (pageSize <= 0 || total <= 0) return 0;
  const last = Math.max(0, Math.ceil(total / pageSize) - 1);
  return Math.min(Math.max(0, Math.trunc(index)), last);
}

/**
 * §9: 'start-end of total', or a single number when total is 1 or less. `count` formats each
 * number (the app passes its display format, so "1-50 of 20,149" matches every other count).
 */
export function pageLabel(index: number, pageSize: number, total: number, count: (n: number) => string = String): string {
  if (total <= 1) return count(total);
  const start = index * pageSize + 1;
  const end = Math.min(total, (index + 1) * pageSize);
  return `${count(start)}-${count(end)} of ${count(total)}`;
}

/**
 * §5: empty values are stripped from search parameters; empty strings are kept unless asked.
 * Arrays are sent comma-joined and dates as ISO strings.
 */
export function stripEmpty(
  params: Record<string, unknown>,
  opts: { stripEmptyStrings?: boolean } = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      if (v.length) out[k] = v.map(String).join(',');
      continue;
    }
    if (v instanceof Date) {
      out[k] = v.toISOString();
      continue;
    }
    if (v === '' && opts.stripEmptyStrings) continue;
    out[k] = String(v);
  }
  return out;
}

/** §5: page index resets to the first page when search parameters or page size change. */
export function nextPageIndex<S>(
  prev: { search: S; pageSize: number; index: number },
  next: { search: S; pageSize: number; index: number },
  equal: (a: S, b: S) => boolean,
): number {
  if (prev.pageSize !== next.pageSize || !equal(prev.search, next.search)) return 0;
  return next.index;
}
