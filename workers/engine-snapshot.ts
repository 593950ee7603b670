/**
 * Issue 33: what an engine snapshot (engine-spec.ts `EngineSnapshot`) shares between its parts:
 * its format (a snapshot of another format is ignored and the engine rebuilt from the store) and
 * the slot ids, one joined string instead of a million cloned strings.
 */

/** Bump when any part of `EngineSnapshot` changes meaning: older snapshots are then ignored. */
export const ENGINE_SNAPSHOT_FORMAT = 2;

const SEPARATOR = '\n';

/** The slots' ids in one string ('' for a free slot); an id holding the separator cannot be kept (throws). */
export function joinIds(ids: readonly (string | undefined)[]): string {
  const joined = ids.map((id) => id ?? '').join(SEPARATOR);
  // Each separator is between two slots: one more means an id held one.
  let separators = 0;
  for (let i = joined.indexOf(SEPARATOR); i >= 0; i = joined.indexOf(SEPARATOR, i + 1)) separators++;
  if (ids.length > 0 && separators !== ids.length - 1) throw new Error('an id holds a line break: no snapshot');
  return joined;
}

/** The slots of `joinIds`: ids by slot (undefined: free) and slots by id; throws when they are not `slots` with `free` free ones. */
export function splitIds(joined: string, slots: number, free: number): { ids: (string | undefined)[]; slotById: Map<string, number> } {
  const parts = slots === 0 ? [] : joined.split(SEPARATOR);
  if (parts.length !== slots) throw new Error(`engine snapshot: ${parts.length} ids for ${slots} slots`);
  const ids: (string | undefined)[] = [];
  const slotById = new Map<string, number>();
  for (let slot = 0; slot < slots; slot++) {
    const id = parts[slot]!;
    ids.push(id === '' ? undefined : id);
    if (id !== '') slotById.set(id, slot);
  }
  if (slotById.size + free !== slots) throw new Error('engine snapshot: free and live slots do not add up');
  return { ids, slotById };
}
