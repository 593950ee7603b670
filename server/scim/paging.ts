import { ScimError } from './errors.ts';
import { LIST_SCHEMA } from './schemas.ts';

/** RFC 7644 §3.4.2.4: 1-based startIndex (below 1 reads as 1), count (negative reads as 0), at most MAX_COUNT a page. */
export const MAX_COUNT = 200;
export const DEFAULT_COUNT = 100;

function intParam(raw: string | undefined, name: string): number | null {
  if (raw === undefined || raw === '') return null;
  if (!/^-?\d{1,9}$/.test(raw.trim())) throw new ScimError(400, 'invalidValue', `${name} must be an integer.`);
  return Number(raw.trim());
}

export type Page = { startIndex: number; count: number };

export function readPage(query: (name: string) => string | undefined): Page {
  const start = intParam(query('startIndex'), 'startIndex') ?? 1;
  const count = intParam(query('count'), 'count') ?? DEFAULT_COUNT;
  return { startIndex: Math.max(1, start), count: Math.min(MAX_COUNT, Math.max(0, count)) };
}

export function listResponse<T>(all: T[], page: Page) {
  const slice = all.slice(page.startIndex - 1, page.startIndex - 1 + page.count);
  return { schemas: [LIST_SCHEMA], totalResults: all.length, startIndex: page.startIndex, itemsPerPage: slice.length, Resources: slice };
}
