import { setAutoFreeze } from 'immer';
import type { EntityRefs, OutboxEntry, OutboxState } from '../sync/ports.ts';
import { byAge, commandDef, countEntries, entityRefs, isFieldConflict, type OutboxCounts } from '../sync/outbox-machine.ts';
import type { MirroredCollection } from '../schema/collections.ts';
import { COMMANDS } from '../schema/commands/index.ts';
import type { AnyCommandDef } from '../schema/commands/define-command.ts';

/**
 * The outbox as the worker reads it: every unfinished entry by id and by the entities it
 * touches. Kept current from the outbox collection's change stream, so entries written by
 * another tab count here too. It answers the two questions the mirror keeps asking:
 * which commands sit on top of a row (to rebase server rows and roll back), and what the
 * UI shows for a row (pending / failed with the server's message).
 */

/**
 * Commands' `apply` uses immer, which deep-freezes every result by default: for 10,000 rows
 * of a bulk coding that is most of the work. Nothing in the worker mutates rows in place
 * (every change builds a new row), so freezing buys nothing here. This is the data worker's
 * own JS context: the setting does not reach the UI or the server.
 */
setAutoFreeze(false);

/** A command's definition, or undefined for a name this build does not know (an entry from a newer one). */
const knownDef = (name: string): AnyCommandDef | undefined => (COMMANDS as Record<string, AnyCommandDef | undefined>)[name];

/** States whose optimistic effect is on the mirror. failed/conflict were rolled back. */
const APPLIED: ReadonlySet<OutboxState> = new Set(['pending', 'sending', 'needs_step_up']);
const NONE: OutboxEntry[] = [];

/** A row's newest refused command: its id, the server's message, and whether it is a field conflict (the drawer resolves it). */
export interface RowFailure {
  command_id: string;
  message: string;
  conflict?: true;
  /** Issue 25: a bill refused as a duplicate invoice (BILL_PAY_DUPLICATE_INVOICE): re-sent confirmed by `confirmDuplicate`. */
  duplicate?: true;
}

export class OutboxIndex {
  private byId = new Map<string, OutboxEntry>();
  private byEntity = new Map<string, OutboxEntry[]>();
  private parsedArgs = new Map<string, unknown>();
  /**
   * Commands the server confirmed whose new rows the change feed has not delivered yet
   * (entry id → the feed seq that brings them). Their effect stays on top meanwhile, so a
   * confirmed edit never flickers back to the old value.
   */
  private confirmed = new Map<string, { entry: OutboxEntry; untilSeq: number }>();
  private confirmedByEntity = new Map<string, OutboxEntry[]>();
  /** Confirmed entries stored `done` (issue 26, `markDelivered`), and who removes them once the feed passes. */
  private delivered = new Set<string>();
  onDeliveredDropped: ((id: string) => void) | null = null;
  /**
   * A failed entry → its row's change_seq when first shown failed (`isMoot`: has the server's row
   * changed since?). Kept across reloads by the runtime (moot-refusals.ts): `onFailedSeen` hears
   * each new one, `seedFailedOn` brings the stored ones back before anything is shown.
   */
  private failedOn = new Map<string, number>();
  onFailedSeen: ((id: string, seq: number) => void) | null = null;

  /** The stored `failedOn` records of a previous run (entries no longer here are skipped by `isMoot`'s lookup). */
  seedFailedOn(seen: Iterable<readonly [string, number]>): void {
    for (const [id, seq] of seen) if (!this.failedOn.has(id)) this.failedOn.set(id, seq);
  }

  /**
   * Adds the stored entries read at start. Entries the change stream already delivered (or
   * removed) since are newer than that read: `skip` names them, and they are left alone.
   */
  load(entries: readonly OutboxEntry[], skip: ReadonlySet<string> = new Set()): void {
    for (const e of entries) if (!skip.has(e.id) && !this.byId.has(e.id)) this.put(e);
  }

  /**
   * Adds or updates an entry. `argsParsed`: its args are the command schema's parse output
   * already (a fresh createOutboxEntry), so applying it needs no parse; stored or received
   * entries are parsed on first use.
   */
  put(entry: OutboxEntry, opts: { argsParsed?: boolean } = {}): void {
    if (entry.state === 'done') return this.remove(entry.id);
    const old = this.byId.get(entry.id);
    this.byId.set(entry.id, entry);
    if (opts.argsParsed) this.parsedArgs.set(entry.id, entry.args);
    // Args amended on a retry (issue 25): parse them again on next use.
    else if (old && old.args !== entry.args) this.parsedArgs.delete(entry.id);
    if (old) {
      // Same entry, new state: entity lists hold the entry object, so swap it in place.
      for (const id of entry.entity_ids) {
        const list = this.byEntity.get(id);
        const i = list?.findIndex((e) => e.id === entry.id) ?? -1;
        if (list && i >= 0) list[i] = entry;
      }
      return;
    }
    for (const id of entry.entity_ids) {
      const list = this.byEntity.get(id);
      if (!list) this.byEntity.set(id, [entry]);
      else {
        list.push(entry);
        if (list.length > 1 && byAge(list[list.length - 2]!, entry) > 0) list.sort(byAge);
      }
    }
  }

  remove(id: string): void {
    const old = this.byId.get(id);
    if (!old) return;
    this.byId.delete(id);
    this.failedOn.delete(id);
    if (!this.confirmed.has(id)) this.parsedArgs.delete(id);
    for (const entityId of old.entity_ids) {
      const list = this.byEntity.get(entityId)?.filter((e) => e.id !== id);
      if (list?.length) this.byEntity.set(entityId, list);
      else this.byEntity.delete(entityId);
    }
  }

  get(id: string): OutboxEntry | undefined {
    return this.byId.get(id);
  }

  entries(): OutboxEntry[] {
    return [...this.byId.values()].sort(byAge);
  }

  /** Whether the entry's optimistic effect is on the mirror in this state. */
  static isApplied(entry: OutboxEntry | undefined): boolean {
    return entry !== undefined && APPLIED.has(entry.state);
  }

  /** Entries whose effect sits on the entity (applied states, then confirmed), oldest first. */
  applied(entityId: string): OutboxEntry[] {
    const list = this.byEntity.get(entityId);
    const confirmed = this.confirmedByEntity.get(entityId);
    // The common case, a row nobody edited: no array built (this runs for every row loaded).
    if (!list && !confirmed) return NONE;
    const live = list ? list.filter((e) => APPLIED.has(e.state)) : [];
    if (!confirmed) return live;
    const ids = new Set(live.map((e) => e.id));
    return [...live, ...confirmed.filter((e) => !ids.has(e.id))].sort(byAge);
  }

  /** The server took the entry; keep its effect until the feed has passed `untilSeq`. */
  confirm(entry: OutboxEntry, untilSeq: number): void {
    if (this.confirmed.has(entry.id)) return;
    this.confirmed.set(entry.id, { entry, untilSeq });
    for (const id of entry.entity_ids) {
      const list = this.confirmedByEntity.get(id);
      if (list) list.push(entry);
      else this.confirmedByEntity.set(id, [entry]);
    }
  }

  /** Whether the entry's effect is kept as confirmed (until the feed passes its seq). */
  isConfirmed(id: string): boolean {
    return this.confirmed.has(id);
  }

  /**
   * Issue 26: the confirmed entry is stored `done` (the service worker delivered it): when the
   * feed passes its seq, `onDeliveredDropped` hears its id, so the stored entry goes too.
   */
  markDelivered(id: string): void {
    this.delivered.add(id);
  }

  /** The mirror holds every change up to `seq`: drops the overlays it made redundant (their entities). */
  dropConfirmedThrough(seq: number): EntityRefs[] {
    const affected: EntityRefs[] = [];
    for (const [id, { entry, untilSeq }] of this.confirmed) {
      if (untilSeq > seq) continue;
      this.dropConfirmed(id, entry);
      affected.push(entityRefs(entry));
      if (this.delivered.delete(id)) this.onDeliveredDropped?.(id);
    }
    return affected;
  }

  /**
   * A delivered entry's stored `done` copy was removed (by this tab or another): its overlay goes
   * now; its entities, or null. Entries the outbox confirmed live are removed from the store at
   * once and keep their overlay until the feed passes their seq: not touched here.
   */
  forgetDelivered(id: string): EntityRefs | null {
    if (!this.delivered.delete(id)) return null;
    const found = this.confirmed.get(id);
    if (!found) return null;
    this.dropConfirmed(id, found.entry);
    return entityRefs(found.entry);
  }

  private dropConfirmed(id: string, entry: OutboxEntry): void {
    this.confirmed.delete(id);
    if (!this.byId.has(id)) this.parsedArgs.delete(id);
    for (const entityId of entry.entity_ids) {
      const list = this.confirmedByEntity.get(entityId)?.filter((e) => e.id !== id);
      if (list?.length) this.confirmedByEntity.set(entityId, list);
      else this.confirmedByEntity.delete(entityId);
    }
  }

  /**
   * Issue 25 item 8: a refused command that would change nothing if replayed on `row` (the row as
   * the server now has it, e.g. a pay-now refused because the bill was paid from another
   * device): its Retry cannot succeed and there is nothing left for it to do. Only a plain
   * refusal (`failed`, not a field conflict or a duplicate to confirm) of a command that edits an
   * existing row of this collection (no `blank` create, no file upload: those act beyond the row)
   * and whose `apply` on the row returns the row itself (immer's no-op, or a guarded `: row`),
   * once the row changed on the server after the refusal (its `change_seq` above the edit's
   * `base_seq`, or above the one it had when the refusal was first shown in this worker).
   */
  isMoot(entry: OutboxEntry, row: { id: string }, collection?: MirroredCollection): boolean {
    if (entry.state !== 'failed' || isFieldConflict(entry) || entry.last_error?.error_code === 'BILL_PAY_DUPLICATE_INVOICE') return false;
    const def = knownDef(entry.command);
    if (!def || def.blank || def.file || (collection !== undefined && def.collection !== collection)) return false;
    // Moot only once the server's row changed after the refusal: a command that was a no-op on the
    // very row it was refused on (e.g. deleting a bill that is no longer a draft) stays shown.
    const seq = (row as { change_seq?: unknown }).change_seq;
    if (typeof seq !== 'number') return false;
    const seen = entry.base_seq ?? this.failedOn.get(entry.id);
    if (seen === undefined) {
      this.failedOn.set(entry.id, seq);
      this.onFailedSeen?.(entry.id, seq);
      return false;
    }
    if (seq <= seen) return false;
    try {
      return this.applyTo(entry, row, collection) === row;
    } catch {
      return false;
    }
  }

  /** The row's moot refusals (`isMoot`): not shown as failed, and discarded by the runtime. */
  mootOn(row: { id: string }, collection?: MirroredCollection): string[] {
    const list = this.byEntity.get(row.id);
    return list ? list.filter((e) => this.isMoot(e, row, collection)).map((e) => e.id) : [];
  }

  /**
   * What the UI shows for a row: the newest entry's state and the newest failure. Given the row
   * (the server's, as shown), a moot refusal (`isMoot`) is not shown as the row's failure.
   */
  marks(entityId: string, row?: { id: string }, collection?: MirroredCollection): { pending: Exclude<OutboxState, 'done'> | null; failure: RowFailure | null } {
    const list = this.byEntity.get(entityId);
    if (!list?.length) return { pending: null, failure: null };
    const newest = list[list.length - 1]!;
    let failure: RowFailure | null = null;
    for (let i = list.length - 1; i >= 0; i--) {
      const e = list[i]!;
      if ((e.state === 'failed' || e.state === 'conflict') && e.last_error && !(row && this.isMoot(e, row, collection))) {
        // Issue 24: a field-level conflict is resolved in the conflict drawer, not retried.
        failure = isFieldConflict(e) ? { command_id: e.id, message: e.last_error.message, conflict: true }
          : e.last_error.error_code === 'BILL_PAY_DUPLICATE_INVOICE' ? { command_id: e.id, message: e.last_error.message, duplicate: true }
            : { command_id: e.id, message: e.last_error.message };
        break;
      }
    }
    const pending = newest.state === 'done' || (row && this.isMoot(newest, row, collection)) ? null : newest.state;
    return { pending, failure };
  }

  counts(): OutboxCounts {
    return countEntries([...this.byId.values()]);
  }

  /**
   * Runs the entry's command on a row of its collection (args parsed once per entry, not per
   * row); on a row of another collection (`collection`), the command's `also` effect there.
   */
  applyTo<T extends object>(entry: OutboxEntry, row: T, collection?: MirroredCollection): T {
    const def = commandDef(entry.command);
    const args = this.argsOf(entry);
    if (collection === undefined || collection === def.collection) return def.apply(row, args) as T;
    const also = def.also?.[collection];
    return also ? (also.apply(row, args) as T) : row;
  }

  /** The entry's args as its command's schema parses them (parsed once per entry). */
  argsOf(entry: OutboxEntry): unknown {
    let args = this.parsedArgs.get(entry.id);
    if (args === undefined) {
      args = commandDef(entry.command).args.parse(entry.args);
      if (this.byId.has(entry.id) || this.confirmed.has(entry.id)) this.parsedArgs.set(entry.id, args);
    }
    return args;
  }

  /** Every entry on the entity, in any unfinished state, and the confirmed ones, oldest first. */
  entriesOn(entityId: string): OutboxEntry[] {
    const list = this.byEntity.get(entityId) ?? NONE;
    const confirmed = this.confirmedByEntity.get(entityId);
    if (!confirmed) return list;
    const ids = new Set(list.map((e) => e.id));
    return [...list, ...confirmed.filter((e) => !ids.has(e.id))].sort(byAge);
  }

  /**
   * Ids of rows of `collection` that entries whose command may create them (its `blank`) name as
   * their own (its `entityIds`: not the rows of other collections it also changes).
   */
  creatingIds(collection: MirroredCollection): string[] {
    const ids: string[] = [];
    for (const e of this.byId.values()) {
      const def = knownDef(e.command);
      if (def?.blank && def.collection === collection) ids.push(...(def.also ? def.entityIds(this.argsOf(e)) : e.entity_ids));
    }
    return ids;
  }

  /** Whether the entry's command may create a row (its `blank`): its state decides whether that row shows. */
  static creates(entry: OutboxEntry | undefined): boolean {
    return entry !== undefined && knownDef(entry.command)?.blank !== undefined;
  }
}
