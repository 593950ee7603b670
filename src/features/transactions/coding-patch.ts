import type { CodingPatch } from '../../../schema/commands/coding-patch.ts';
import type { Coding } from '../../../schema/entities/transaction.ts';

/**
 * Building the `CodingPatch` a form asks for. Only the fields the user changed go into the
 * patch: a bulk edit must never overwrite coding the user did not touch.
 */
export interface CodingValues extends Coding {
  memo: string | null;
}

/** Select values in the bulk form: leave as is, clear, or set to an id. */
export const KEEP = '__keep__';
export const CLEAR = '__clear__';

export interface BulkForm {
  gl_account_id: string;
  department_id: string;
  location_id: string;
  /** tracking category id → KEEP | CLEAR | option id */
  tracking: Record<string, string>;
  memo: { set: boolean; value: string };
}

export const emptyBulkForm = (): BulkForm => ({
  gl_account_id: KEEP,
  department_id: KEEP,
  location_id: KEEP,
  tracking: {},
  memo: { set: false, value: '' },
});

const choice = (v: string): string | null | undefined => (v === KEEP ? undefined : v === CLEAR ? null : v);

/** The bulk form as a patch, or null when it changes nothing. */
export function bulkPatch(form: BulkForm): CodingPatch | null {
  const patch: CodingPatch = {};
  for (const key of ['gl_account_id', 'department_id', 'location_id'] as const) {
    const v = choice(form[key]);
    if (v !== undefined) patch[key] = v;
  }
  const tracking: Record<string, string | null> = {};
  for (const [category, value] of Object.entries(form.tracking)) {
    const v = choice(value);
    if (v !== undefined) tracking[category] = v;
  }
  if (Object.keys(tracking).length) patch.tracking = tracking;
  if (form.memo.set) patch.memo = normaliseMemo(form.memo.value);
  return Object.keys(patch).length ? patch : null;
}

/** An empty memo is no memo: the server stores null rather than ''. */
export const normaliseMemo = (text: string): string | null => (text.trim() === '' ? null : text);

/** The detail drawer's edits as a patch against the row it opened with, or null when unchanged. */
export function diffCoding(original: CodingValues, edited: CodingValues): CodingPatch | null {
  const patch: CodingPatch = {};
  const memo = edited.memo === null ? null : normaliseMemo(edited.memo);
  if (memo !== original.memo) patch.memo = memo;
  for (const key of ['gl_account_id', 'department_id', 'location_id'] as const) {
    if (edited[key] !== original[key]) patch[key] = edited[key];
  }
  const tracking: Record<string, string | null> = {};
  const categories = new Set([...Object.keys(original.tracking), ...Object.keys(edited.tracking)]);
  for (const category of categories) {
    const before = original.tracking[category] ?? null;
    const after = edited.tracking[category] ?? null;
    if (before !== after) tracking[category] = after;
  }
  if (Object.keys(tracking).length) patch.tracking = tracking;
  return Object.keys(patch).length ? patch : null;
}
