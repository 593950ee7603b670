import type { ErrorV2, FieldConflict } from '../errors.ts';

/**
 * Issue 24 (no silent overwrite): what a 409 CONFLICT names and how the conflict drawer's choice
 * becomes the next command. Pure, shared by the worker (which queues the result) and the UI
 * (which previews it).
 */
export type { FieldConflict };
export type ConflictChoice = 'mine' | 'theirs';

/** The conflict details of a refusal, or null when it is not a field-level CONFLICT. */
export function fieldConflicts(error: ErrorV2['error_v2'] | null | undefined): { conflicts: FieldConflict[]; current_version: number } | null {
  if (!error || error.error_code !== 'CONFLICT' || !error.conflicts || error.current_version === undefined) return null;
  return { conflicts: error.conflicts, current_version: error.current_version };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The patch the choice re-queues: every field of the refused patch the server did not name (the
 * 409 applied nothing, so those still have to go), plus the named fields kept as mine; a field
 * kept as theirs is left out. A conflict names a patch key (`memo`) or, inside an object-valued
 * key, one entry of it (`tracking.<category id>`); naming the whole object covers its entries.
 * Null when nothing is left to send: the conflicted edit is then only dropped.
 */
export function resolvedPatch(
  patch: Readonly<Record<string, unknown>>,
  conflicts: readonly Pick<FieldConflict, 'field'>[],
  choices: Readonly<Record<string, ConflictChoice>>,
): Record<string, unknown> | null {
  const named = new Set(conflicts.map((c) => c.field));
  /** Whether `field` goes out: not in conflict, or kept as mine (an unanswered conflict keeps theirs). */
  const sends = (field: string, parent?: string) => {
    if (named.has(field)) return choices[field] === 'mine';
    if (parent !== undefined && named.has(parent)) return choices[parent] === 'mine';
    return true;
  };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (isPlainObject(value)) {
      const kept = Object.fromEntries(Object.entries(value).filter(([sub]) => sends(`${key}.${sub}`, key)));
      if (Object.keys(kept).length > 0) out[key] = kept;
    } else if (sends(key)) {
      out[key] = value;
    }
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** Every conflict answered the same way ("Keep all mine" / "Keep all theirs"). */
export const allChoices = (conflicts: readonly Pick<FieldConflict, 'field'>[], choice: ConflictChoice): Record<string, ConflictChoice> =>
  Object.fromEntries(conflicts.map((c) => [c.field, choice]));
