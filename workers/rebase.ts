import type { CommandActor } from '../schema/commands/define-command.ts';
import type { MirroredCollection } from '../schema/collections.ts';
import { commandDef } from '../sync/outbox-machine.ts';
import type { OutboxEntry } from '../sync/ports.ts';
import type { OutboxIndex } from './outbox-index.ts';

/**
 * Optimistic rows, as pure functions. The mirror stores only the server's version of a row
 * (the confirmed copy); the user's edits live in the durable outbox. What a row shows is the
 * server row with the pure `apply` of every command still on top of it (outbox order), computed
 * in memory whenever either side changes: a new server row arrives (rebase), a command is queued,
 * rolled back, retried or confirmed. So a rollback restores exactly the server's version, and
 * there is no window in which a crash leaves a half-written optimistic state on disk.
 */

/**
 * How one collection's rows are shaped (workers/collections/<name>.ts). `In` is a row as the
 * worker meets it anywhere (stored, on the wire, or an engine row carrying `server`), `Row` the
 * wire row, `E` the engine's row. The shapers build each row as one object literal: rows built
 * by zod or RxDB sit in V8's slow dictionary mode, and one hidden class per collection keeps
 * rebuilding 10,000 rows (bulk coding) and the engine's sorts and filters fast.
 */
export interface RowShape<In extends { id: string }, Row extends { id: string }, E> {
  /** The server row's own fields (worker-only fields dropped, `deleted: false`). */
  server: (r: In) => Row;
  /** The engine row: the row as shown, with `server` underneath while commands are on top. */
  engine: (r: In | Row, server: Row | undefined) => E;
  /** One command's effect on the row. */
  apply: (index: OutboxIndex, entry: OutboxEntry, row: Row) => Row;
}

/**
 * What a row shows now: its server version (the `server` under an engine row, else the row
 * itself, which then must be a server row) with the commands on top applied in order. Built once
 * per collection: the per-row path is the closure, not a lookup.
 */
export function rebaser<In extends { id: string }, Row extends { id: string }, E>(
  index: OutboxIndex,
  shape: RowShape<In, Row, E>,
  collection: MirroredCollection,
): (current: In) => E {
  const { server, engine } = shape;
  const apply = applier(index, shape, collection);
  return (current) => {
    const under = (current as { server?: Row }).server;
    const entries = index.applied(current.id);
    if (entries.length === 0) return engine(under ?? current, undefined);
    const base = under ?? server(current);
    let visible = base;
    for (const entry of entries) visible = apply(entry, visible);
    return engine(visible, base);
  };
}

/**
 * One entry's effect on a row of `collection`: the collection's own shaper for its commands, the
 * command's `also` effect for a command of another collection that changes this row too.
 */
function applier<Row extends { id: string }>(index: OutboxIndex, shape: RowShape<never, Row, unknown>, collection: MirroredCollection) {
  return (entry: OutboxEntry, row: Row): Row =>
    commandDef(entry.command).collection === collection ? shape.apply(index, entry, row) : index.applyTo(entry, row, collection);
}

/**
 * A row no server version exists for, created by a command still in the outbox: the command's
 * `blank` (as the server starts it), the create applied even when refused (the row stays,
 * marked failed: the person's input is not lost), then the edits on top in their applied
 * states. Undefined when the entity's oldest entry is not a create of this collection. The
 * engine row has no `server` underneath: the feed re-derives it here until a stored row exists.
 */
export function creator<Row extends { id: string }, E>(
  index: OutboxIndex,
  shape: RowShape<never, Row, E>,
  collection: MirroredCollection,
  actor: () => CommandActor,
): (id: string) => E | undefined {
  const apply = applier(index, shape, collection);
  return (id) => {
    const entries = index.entriesOn(id);
    const first = entries[0];
    if (!first) return undefined;
    const def = commandDef(first.command);
    if (!def.blank || def.collection !== collection) return undefined;
    // An id the create names only through its `also` (e.g. the provisional bill a bill completes) is not the row it creates.
    if (!def.entityIds(index.argsOf(first)).includes(id)) return undefined;
    const applied = index.applied(id);
    let row = def.blank(index.argsOf(first), { id, actor: actor(), at: new Date(first.created_at).toISOString() }) as unknown as Row;
    for (const entry of entries) if (entry === first || applied.includes(entry)) row = apply(entry, row);
    return shape.engine(row, undefined);
  };
}

/** A reference row as shown, with the outbox marks of the commands on it (as RowView for queried rows). */
export type MarkedRow<Row> = Row & ReturnType<OutboxIndex['marks']>;

/** Reference rows are the wire rows themselves: nothing to shape, commands applied by their definitions. */
const PLAIN: RowShape<{ id: string }, { id: string }, { id: string }> = {
  server: (r) => r,
  engine: (r) => r,
  apply: (index, entry, row) => index.applyTo(entry, row),
};

/**
 * Reference rows of a collection that commands change (e.g. the bill inbox's provisional bills),
 * as shown: each stored row with the commands on it applied (`rebaser`), the rows pending
 * creates make (`creator`), tombstones an applied delete made left out, each with its marks. The
 * reference cache keeps only the server's rows; this runs when the UI reads reference data (a
 * handful of rows), never per feed row.
 */
export function referenceShower(
  index: OutboxIndex,
  collection: MirroredCollection,
  actor: () => CommandActor,
): (stored: ReadonlyMap<string, { id: string }>) => MarkedRow<{ id: string }>[] {
  const show = rebaser(index, PLAIN, collection);
  const create = creator(index, PLAIN as RowShape<never, { id: string }, { id: string }>, collection, actor);
  return (stored) => {
    const rows: { id: string }[] = [...stored.values()].map(show);
    for (const id of new Set(index.creatingIds(collection))) {
      if (stored.has(id)) continue;
      const made = create(id);
      if (made) rows.push(made);
    }
    return rows.filter((r) => !(r as { deleted?: boolean }).deleted).map((r) => ({ ...r, ...index.marks(r.id) }));
  };
}
