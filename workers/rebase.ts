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
export function rebaser<In extends { id: string }, Row extends { id: string }, E>(index: OutboxIndex, shape: RowShape<In, Row, E>): (current: In) => E {
  const { server, engine, apply } = shape;
  return (current) => {
    const under = (current as { server?: Row }).server;
    const entries = index.applied(current.id);
    if (entries.length === 0) return engine(under ?? current, undefined);
    const base = under ?? server(current);
    let visible = base;
    for (const entry of entries) visible = apply(index, entry, visible);
    return engine(visible, base);
  };
}
