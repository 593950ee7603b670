import { stripEmpty } from '../../schema/paging.ts';

/**
 * URL search serialisation for the router. TanStack's default JSON-encodes arrays and numbers
 * (`?user_ids=%5B%22…`); we follow §5 instead: flat strings, arrays comma-joined, empty values
 * stripped. Every value comes back as a string and each route's zod schema types it.
 */
export function parseUrlSearch(searchStr: string): Record<string, string> {
  const params = new URLSearchParams(searchStr.startsWith('?') ? searchStr.slice(1) : searchStr);
  const out: Record<string, string> = {};
  for (const [key, value] of params) out[key] = value;
  return out;
}

export function stringifyUrlSearch(search: Record<string, unknown>): string {
  const flat = stripEmpty(search, { stripEmptyStrings: true });
  const str = new URLSearchParams(flat).toString();
  return str ? `?${str}` : '';
}
