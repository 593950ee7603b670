import { ERROR_CATALOGUE, isErrorCode } from '../../schema/errors.ts';
import { clampPageIndex, nextPageIndex, stripEmpty } from '../../schema/paging.ts';

/**
 * §5/§8 paging of a server-paged list (a list read page by page from the server through the
 * worker, never mirrored): where the reader is — page index, page size, the cursor that starts
 * each page read so far — and how it moves. Pure; `usePagedQuery` holds it in React.
 */
export type PagedPosition = {
  /** 0-based page index. */
  index: number;
  pageSize: number;
  /** cursors[i] starts page i (undefined for the first page); one more than the pages read when the last had a `next`. */
  cursors: (string | undefined)[];
  /** The search/filters the cursors belong to (`searchKey`). */
  search: string;
};

/** A page as the worker answers it, or its refusal (`offline`: nothing was sent). */
export type PageAnswer<T> =
  | { ok: true; rows: T[]; next: string | null; total?: number; readAt?: string | number }
  | { ok: false; offline?: true; error: { error_code: string; message: string } };

/**
 * §5: the search parameters of one page — empty values stripped (an empty string too: a select's
 * "All" is no filter), arrays comma-joined, dates as ISO strings — with `page_size` and `start`.
 */
export function pageParams(search: Record<string, unknown>, pageSize: number, start: string | undefined): Record<string, string> {
  return stripEmpty({ ...search, page_size: pageSize, start }, { stripEmptyStrings: true });
}

/** One stable text for a search (the same filters in another key order are the same search). */
export function searchKey(search: Record<string, unknown>): string {
  const flat = stripEmpty(search, { stripEmptyStrings: true });
  return JSON.stringify(Object.keys(flat).sort().map((k) => [k, flat[k]]));
}

export function firstPage(search: string, pageSize: number): PagedPosition {
  return { index: 0, pageSize, cursors: [undefined], search };
}

/** §5: a new search or page size starts again at the first page (the cursors were the old search's). */
export function withSearch(pos: PagedPosition, search: string, pageSize: number): PagedPosition {
  const index = nextPageIndex(pos, { search, pageSize, index: pos.index }, (a, b) => a === b);
  return index === 0 && (search !== pos.search || pageSize !== pos.pageSize) ? firstPage(search, pageSize) : pos;
}

/** §5: the index held between 0 and the last page known (the pages whose cursor is known, or `total`'s last). */
export function clampIndex(pos: PagedPosition, index: number, total?: number): number {
  const known = pos.cursors.length;
  const limit = total === undefined ? known * pos.pageSize : Math.min(total, known * pos.pageSize);
  return clampPageIndex(index, Math.max(limit, 1), pos.pageSize);
}

/** The page a page's answer said comes next (`next` null: this is the last page). */
export function afterAnswer(pos: PagedPosition, next: string | null): PagedPosition {
  const cursors = pos.cursors.slice(0, pos.index + 1);
  if (next) cursors.push(next);
  return cursors.length === pos.cursors.length && cursors.every((c, i) => c === pos.cursors[i]) ? pos : { ...pos, cursors };
}

export function goTo(pos: PagedPosition, index: number, total?: number): PagedPosition {
  const i = clampIndex(pos, index, total);
  return i === pos.index ? pos : { ...pos, index: i };
}

export const hasNextPage = (pos: PagedPosition): boolean => pos.cursors.length > pos.index + 1;

/** Whether a refusal is a 422 of the catalogue (a cursor no longer valid, a filter refused). */
export function isUnprocessable(error: { error_code: string }): boolean {
  return isErrorCode(error.error_code) && ERROR_CATALOGUE[error.error_code].status === 422;
}

/**
 * §8: a page answered 422 past the first goes back one page and says so; at the first page the
 * refusal is the list's error (null here).
 */
export function backAfterRefusal(pos: PagedPosition, error: { error_code: string }): { pos: PagedPosition; notice: string } | null {
  if (pos.index === 0 || !isUnprocessable(error)) return null;
  const index = pos.index - 1;
  return { pos: { ...pos, index, cursors: pos.cursors.slice(0, index + 1) }, notice: `That page is no longer available; showing page ${index + 1}` };
}
