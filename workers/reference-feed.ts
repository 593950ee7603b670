import type { RxChangeEvent } from 'rxdb';
import type { Subscription } from 'rxjs';
import type { ReferenceCollection } from '../schema/collections.ts';
import { scanDocs, stripMeta } from './bulk-write.ts';
import { REF_KINDS, splitRefKey, type MirrorDatabase, type RefDoc } from './db.ts';

/**
 * Reference rows as the mirror stores them (db.ts: every reference collection shares the one
 * `refs` RxDB collection), read as one stream of rows tagged with their collection, for the
 * reference cache. `key` is the stored primary key (the id, or `kind|id` in refs): what the
 * runtime's load compares with the keys the change streams touched meanwhile.
 */
export interface ReferenceRow {
  key: string;
  kind: ReferenceCollection;
  id: string;
  /** The row as the entity has it (`deleted: false` put back); null: removed. */
  row: object | null;
}

/** Every stored reference row, page by page. */
export async function* scanReferences(db: MirrorDatabase, pageSize: number): AsyncGenerator<ReferenceRow[]> {
  if (REF_KINDS.length === 0) return;
  for await (const page of scanDocs(db.refs, pageSize)) yield page.map(fromRefDoc);
}

/** Follows the `refs` collection; `onRows` gets each event bulk's rows. */
export function subscribeReferences(db: MirrorDatabase, onRows: (rows: ReferenceRow[]) => void): Subscription[] {
  if (REF_KINDS.length === 0) return [];
  return [
    db.refs.eventBulks$.subscribe((bulk) =>
      // A delete is known by its key alone: `kind|id`.
      onRows((bulk.events as RxChangeEvent<RefDoc>[]).map((ev) =>
        ev.operation === 'DELETE' ? { key: ev.documentId, ...splitRefKey(ev.documentId), row: null } : fromRefDoc(stripMeta(ev.documentData)),
      )),
    ),
  ];
}

/** Rows grouped by collection, as ReferenceCache.apply takes them. */
export function byKind(rows: readonly ReferenceRow[]): Map<ReferenceCollection, { upserts: object[]; removals: string[] }> {
  const out = new Map<ReferenceCollection, { upserts: object[]; removals: string[] }>();
  for (const r of rows) {
    let group = out.get(r.kind);
    if (!group) out.set(r.kind, (group = { upserts: [], removals: [] }));
    if (r.row) group.upserts.push(r.row);
    else group.removals.push(r.id);
  }
  return out;
}

function fromRefDoc(doc: RefDoc): ReferenceRow {
  return { key: doc.id, kind: doc.kind, id: doc.row_id, row: withDeleted(doc.row) };
}

/** Reference rows are stored without `deleted` (RxDB reserves the name); the entity has it. */
function withDeleted<T extends object>(row: T): T & { deleted: false } {
  return { ...row, deleted: false };
}
