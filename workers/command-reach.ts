import { COMMANDS } from '../schema/commands/index.ts';
import { QUERIED_COLLECTIONS, REFERENCE_COLLECTIONS, type QueriedCollection, type ReferenceCollection } from '../schema/collections.ts';

/* Which collections the commands reach, read once from their definitions (COMMANDS). */

const DEFS = Object.values(COMMANDS) as { collection: string; also?: object }[];

/** The other collections the commands of each collection also change (their definitions' `also`). */
export const ALSO_CHANGED: Partial<Record<string, string[]>> = {};
for (const def of DEFS) {
  for (const other of Object.keys(def.also ?? {})) {
    const list = (ALSO_CHANGED[def.collection] ??= []);
    if (!list.includes(other)) list.push(other);
  }
}

export const isQueried = (c: string): c is QueriedCollection => (QUERIED_COLLECTIONS as readonly string[]).includes(c);

/** The reference collections some command changes (its own collection or an `also`): read as shown, with marks. */
export const COMMANDED_REFERENCES: readonly ReferenceCollection[] = REFERENCE_COLLECTIONS.filter((kind) =>
  DEFS.some((d) => d.collection === kind || (d.also !== undefined && kind in d.also)),
);
