import { commandDef, type CommandInput, type CommandName } from '../schema/commands/index.ts';
import type { CommandCheckContext, CommandPart, MirrorReader } from '../schema/commands/define-command.ts';
import { errorBody, validationMessages } from '../schema/errors.ts';
import type { MirroredCollection } from '../schema/sync-feed.ts';
import { entityRefs, outboxEntryOf } from '../sync/outbox-machine.ts';
import type { EntityRefs, OutboxEntry } from '../sync/ports.ts';
import type { CommandResult } from './contracts/views.ts';
import type { OutboxIndex } from './outbox-index.ts';
import type { RxOutboxStore } from './outbox-store.ts';

/** What the runner needs from the open mirror (MirrorRuntime provides it). */
export interface CommandRunnerDeps {
  index: OutboxIndex;
  store: Pick<RxOutboxStore, 'putMany'> & Partial<Pick<RxOutboxStore, 'remove'>>;
  /** Resolves when the mirror's rows are in memory (checks read them). */
  ready: Promise<void>;
  /** Brings the parts' rows into memory for the checks and the re-derivation (issue 33); its answer releases them. */
  prepare?: (parts: readonly CommandPart[]) => Promise<() => void>;
  /** The rows of a collection, as a command's `check` sees them. */
  rows: (collection: MirroredCollection) => CommandCheckContext;
  /** The mirror as a command's `also.ids` reads it (rows of other collections it changes). */
  reader?: MirrorReader;
  /** Re-derives what the rows show (the entries' effects applied over the server rows). */
  refresh: (refs: EntityRefs) => void;
  /** The entries are durable: the UI re-reads the outbox, the leader sends. */
  onQueued: (entries: readonly OutboxEntry[]) => void;
  /** Wall clock (ms) for created_at: the outbox orders and backs off by it. */
  now: () => number;
}

export type RunOutcome = { result: CommandResult; entries: OutboxEntry[] };

/**
 * How a run is queued (the conflict drawer's re-queue): `baseSeq` replaces the mirror's row
 * version (the conflict's `current_version`); `replaces` is the conflicted entry it resolves,
 * finished in the same durable write as the new entries are stored (never both, never neither).
 */
export interface RunOptions {
  baseSeq?: number;
  replaces?: OutboxEntry;
}

/**
 * The one command path of the worker: `run(name, input)` for every command in COMMANDS.
 * The input is parsed once (the split's input when the command splits, else its args), split
 * once into calls, checked against the mirror, and queued as outbox entries that are durable
 * before anything shows them (and before it resolves). Every reader applies them over the stored server rows from then on; no
 * row is written, which keeps 10,000 rows within a frame budget (10,000 row writes take seconds).
 */
export class CommandRunner {
  /** Runs in progress: background work (text indexing) waits so that they answer first. */
  private readonly inProgress = new Set<Promise<unknown>>();
  private lastCreatedAt = 0;
  /** Ids of entries whose durable write is in flight (their change events are this call's). */
  private readonly writingIds = new Set<string>();

  constructor(private readonly deps: CommandRunnerDeps) {}

  get busy(): boolean {
    return this.inProgress.size > 0;
  }

  /** Whether this entry's durable write is in flight here: its outbox change event is ours to apply. */
  writing(id: string): boolean {
    return this.writingIds.has(id);
  }

  /** Resolves when the runs in progress have settled. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inProgress]);
  }

  run<N extends CommandName>(name: N, input: CommandInput<N>, options: RunOptions = {}): Promise<RunOutcome> {
    const t0 = performance.now();
    const call = this.queue(name, input, t0, options);
    this.inProgress.add(call);
    const done = () => void this.inProgress.delete(call);
    call.then(done, done);
    return call;
  }

  private async queue(name: CommandName, input: unknown, t0: number, options: RunOptions): Promise<RunOutcome> {
    const def = commandDef(name);
    const parsed = (def.split?.input ?? def.args).safeParse(input);
    if (!parsed.success) return refused(errorBody('REQUEST_7001', undefined, validationMessages(parsed.error)).error_v2);
    const parts: CommandPart[] = def.split ? def.split.parts(parsed.data) : [{ def, args: parsed.data }];
    await this.deps.ready;
    const release = (await this.deps.prepare?.(parts)) ?? (() => undefined);
    try {
      return await this.checkAndQueue(parts, t0, options);
    } finally {
      release();
    }
  }

  private async checkAndQueue(parts: readonly CommandPart[], t0: number, options: RunOptions): Promise<RunOutcome> {
    for (const part of parts) {
      const code = part.def.check?.(part.args, this.deps.rows(part.def.collection)) ?? null;
      if (code) return refused(errorBody(code).error_v2);
    }
    const own = parts.map((part) => withBase(outboxEntryOf(part, crypto.randomUUID(), this.createdAt()), part, this.deps.rows, options));
    const affected = own.reduce((n, e) => n + e.entity_ids.length, 0);
    const entries = own.map((entry, i) => withAlsoIds(entry, parts[i]!, this.deps.reader));
    const refs = entries.map(entityRefs);
    const { index, store } = this.deps;
    // Durable before shown: nothing (row, pending mark, count) shows the edit until IndexedDB
    // has committed the entries. A reload or crash during the write then loses an edit the
    // user never saw as made, never one shown as "pending". The write's own change event is
    // left to this call (`writing`), which indexes the parsed args and re-derives the rows once.
    const ids = entries.map((e) => e.id);
    for (const id of ids) this.writingIds.add(id);
    // A resolved conflict leaves in the same transaction ('done' is never listed), then goes.
    const finished = options.replaces ? { ...options.replaces, state: 'done' as const } : null;
    try {
      await store.putMany(finished ? [...entries, finished] : entries);
      for (const entry of entries) index.put(entry, { argsParsed: true });
      if (finished) index.put(finished);
    } finally {
      for (const id of ids) this.writingIds.delete(id);
    }
    if (finished) {
      refs.push(entityRefs(finished));
      await store.remove?.(finished.id);
    }
    for (const r of refs) this.deps.refresh(r);
    this.deps.onQueued(entries);
    return { result: { ok: true, command_id: entries[0]!.id, affected, took_ms: performance.now() - t0 }, entries };
  }

  /** Strictly increasing, so commands queued in the same ms keep their FIFO order. */
  private createdAt(): number {
    const now = Math.max(this.deps.now(), this.lastCreatedAt + 1);
    this.lastCreatedAt = now;
    return now;
  }
}

/**
 * The rows of other collections the command also changes (its `also`), read from the mirror now
 * and stored after its own entity ids: the outbox orders by them (FIFO per entity), every reader
 * finds the entry on those rows, and a reload needs no lookup.
 */
function withAlsoIds(entry: OutboxEntry, part: CommandPart, reader: MirrorReader | undefined): OutboxEntry {
  const also = part.def.also;
  if (!also || !reader) return entry;
  const ids = new Set(entry.entity_ids);
  for (const change of Object.values(also)) for (const id of change?.ids(part.args, reader) ?? []) if (id) ids.add(id);
  return ids.size === entry.entity_ids.length ? entry : { ...entry, entity_ids: [...ids] };
}

/**
 * Issue 24: an edit of an existing row carries the version it was made against, the `change_seq`
 * of the row as the mirror has it now (the server's version: a command's effect never changes it),
 * so every edit queued before the next pull names the same base and the server, which does not
 * count this device's own changes since as conflicts, merges them field by field. A row made by
 * a create still in the outbox has no server version (its blank's 0): no If-Match.
 */
function withBase(entry: OutboxEntry, part: CommandPart, rows: CommandRunnerDeps['rows'], options: RunOptions): OutboxEntry {
  const edits = part.def.edits;
  if (!edits) return entry;
  if (options.baseSeq !== undefined) return { ...entry, base_seq: options.baseSeq };
  const seq = rows(part.def.collection).get?.(edits.row(part.args))?.change_seq;
  return typeof seq === 'number' && seq > 0 ? { ...entry, base_seq: seq } : entry;
}

function refused(error: Extract<CommandResult, { ok: false }>['error']): RunOutcome {
  return { result: { ok: false, error }, entries: [] };
}

