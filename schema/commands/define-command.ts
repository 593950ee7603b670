import type { z } from 'zod';
import type { CallDef, CallInput, CallResponse } from '../api/define-call.ts';
import type { EntityOf, MirroredCollection, QueriedCollection, RowOf } from '../collections.ts';
import type { ErrorCode, ErrorV2 } from '../errors.ts';

/**
 * How the client learns the server's version of what a command changed:
 * - `row`: the response body is the entity's new server row; it is stored at once.
 * - `change_seq`: the response names the last change seq the command wrote
 *   (`{ change_seq }`); the command's effect stays on top of the stored rows until the change
 *   feed has delivered that seq (no flicker back to the old value).
 * - `none`: the command changes no mirrored row (a file upload); nothing is confirmed.
 */
export const CONFIRM_MODES = ['row', 'change_seq', 'none'] as const;
export type ConfirmMode = (typeof CONFIRM_MODES)[number];

/** What a command's `check` may ask the local mirror: rows of the command's collection. */
export interface CommandCheckContext {
  has(id: string): boolean;
  /** The row as shown (issue 12 reads its `accounting_synced_at`); a mirror may not offer it yet. */
  get?(id: string): Readonly<Record<string, unknown>> | undefined;
}

/** A check for commands that name rows the mirror must hold (one created offline counts): REQUEST_7004 otherwise. */
export const allInMirror = (ids: readonly string[], mirror: Pick<CommandCheckContext, 'has'>): 'REQUEST_7004' | null =>
  ids.every((id) => mirror.has(id)) ? null : 'REQUEST_7004';

/** Who a created row belongs to: the signed-in user of the mirror (the server stamps the same). */
export interface CommandActor {
  user_id: string;
  business_id: string;
}

/** What `blank` may use: the created id, the actor, and the write's moment (ISO). */
export interface BlankContext {
  id: string;
  actor: CommandActor;
  at: string;
}

/** What `also.ids` may read from the local mirror, as shown (commands applied). */
export interface MirrorReader {
  get<C extends QueriedCollection>(collection: C, id: string): RowOf<C> | undefined;
  /** Ids of the rows its definition's query filter matches. */
  matching<C extends QueriedCollection>(collection: C, filter: z.output<EntityOf<C>['query']['filter']>): string[];
}

/**
 * Rows of another collection that the command also changes (the server changes them in the same
 * call). `ids` are read from the mirror once, when the command is queued, and stored with the
 * entry's entity ids (after its own), so a reload and the outbox's FIFO see them; `apply` is the
 * pure optimistic effect on those rows. Keyed by collection: one entry per other collection,
 * queried or reference data (e.g. `bill.create` deletes the provisional bill it completes).
 */
export interface AlsoChange<A extends z.ZodType, C extends MirroredCollection> {
  ids: (args: z.output<A>, mirror: MirrorReader) => (string | undefined)[];
  apply: (row: RowOf<C>, args: z.output<A>) => RowOf<C>;
}
export type AlsoChanges<A extends z.ZodType> = { readonly [C in MirroredCollection]?: AlsoChange<A, C> };

/** One call of the outbox: a command definition and args it parsed (made with `commandPart`). */
export interface CommandPart {
  readonly def: AnyCommandDef;
  readonly args: unknown;
}

/**
 * `split`: a command whose one user action may become several calls (a selection larger than
 * a call takes). `input` is what the action accepts, parsed once; `parts` turns it into the
 * calls, each with args already in the output shape of its command's `args` (not parsed again).
 */
export interface CommandSplit<I extends z.ZodType> {
  input: I;
  parts: (input: z.output<I>) => CommandPart[];
}

/**
 * A command is defined once: its name, args schema, the collection and entities it touches,
 * the API call that carries it, a pure `apply` that the worker runs optimistically and the
 * server with authority, how a success is confirmed, and optional local hooks (`check` refuses
 * before anything is queued, `split` makes one action several calls).
 */
export interface CommandDef<
  N extends string = string,
  A extends z.ZodType = z.ZodType,
  C extends MirroredCollection = MirroredCollection,
  K extends CallDef = CallDef,
  I extends z.ZodType = A,
> {
  name: N;
  /** One call's args: what the outbox entry stores. */
  args: A;
  /** The mirrored collection whose rows `entityIds` names and `apply` changes. */
  collection: C;
  entityIds: (args: z.output<A>) => string[];
  call: K;
  request: (args: z.output<A>) => Partial<CallInput<K>>;
  apply: (entity: RowOf<C>, args: z.output<A>) => RowOf<C>;
  confirm: ConfirmMode;
  /** A local refusal (error code) before anything is queued, or null. Runs once per call. */
  check?: (args: z.output<A>, mirror: CommandCheckContext) => ErrorCode | null;
  split?: CommandSplit<I>;
  /**
   * The outbox's lane (default `main`). Each lane sends one entry at a time and lanes run side by
   * side, so a slow upload never holds back an unrelated edit; ordering across lanes still
   * follows shared entities and `after`.
   */
  lane?: OutboxLane;
  /**
   * Ids besides `entityIds` this command is ordered by (e.g. a local receipt's client id): it
   * waits while an older unfinished entry names one of them, as entity or `after`.
   */
  after?: (args: z.output<A>) => string[];
  /**
   * The args as sent, with client ids another command created replaced by the server's ids
   * (`serverId` answers undefined for an id the server has not given another one).
   */
  resolve?: (args: z.output<A>, serverId: (clientId: string) => string | undefined) => z.output<A>;
  /** A file upload: the client id of the local file whose bytes are the raw body. */
  file?: (args: z.output<A>) => string;
  /**
   * The command may create its entity (a client-chosen id in its args): the row `apply` starts
   * from when the mirror holds none, as the server starts it. The worker then shows the row at
   * once, marked pending (kept, marked failed, when the server refuses; gone when discarded).
   */
  blank?: (args: z.output<A>, ctx: BlankContext) => RowOf<C>;
  also?: AlsoChanges<A>;
  /**
   * `first`: delivered before every other queued command when the outbox sends again (a fraud
   * answer locks the card before anything else reaches the server). Older unfinished entries
   * sharing its entities are sent before it still (FIFO per entity holds), ahead of the rest.
   * Only for commands that are safe to send ahead of unrelated older edits. A function decides
   * per entry (issue 25: a bulk lock goes first, a bulk unlock does not).
   */
  priority?: 'first' | ((args: z.output<A>) => 'first' | undefined);
  /**
   * How many changes one entry is, as the person counts them (issue 25: a bulk edit of 1,485
   * rows is 1,485 changes waiting, not 1). Default 1.
   */
  items?: (args: z.output<A>) => number;
  /**
   * A 2xx answer that refuses the command all the same (a bulk call answering per item, its one
   * item refused in its place): the refusal, in the catalogue's words, or null when it went
   * through. The outbox then treats the entry as refused by the server (rolled back, kept failed
   * with its args), not as done.
   */
  refusal?: (response: CallResponse<K>, args: z.output<A>) => CommandRefusal | null;
  /**
   * Issue 24 (no silent overwrite): the command edits one existing row with a field patch. The
   * worker records that row's server `change_seq` when it queues the command (the entry's
   * `base_seq`) and the outbox sends it as `If-Match`; a 409 CONFLICT names fields of `patch`
   * (a key, or `key.sub` inside an object-valued key such as `tracking`). `withPatch` makes the
   * args of the same edit with another patch (what the conflict drawer re-queues).
   */
  edits?: VersionedEdit<A>;
}

export interface VersionedEdit<A extends z.ZodType> {
  row: (args: z.output<A>) => string;
  patch: (args: z.output<A>) => Readonly<Record<string, unknown>>;
  withPatch: (args: z.output<A>, patch: Record<string, unknown>) => z.output<A>;
}

/** What `refusal` answers: an error_v2 body (code and message). */
export type CommandRefusal = ErrorV2['error_v2'];

export const OUTBOX_LANES = ['main', 'upload'] as const;
export type OutboxLane = (typeof OUTBOX_LANES)[number];

/** Any command, widened so the outbox and the worker can drive each of them the same way. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommandDef = CommandDef<string, z.ZodType, MirroredCollection, CallDef, any> & {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  apply: (entity: any, args: any) => any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  entityIds: (args: any) => string[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request: (args: any) => Partial<CallInput<CallDef>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  check?: (args: any, mirror: CommandCheckContext) => ErrorCode | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  after?: (args: any) => string[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  resolve?: (args: any, serverId: (clientId: string) => string | undefined) => any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  file?: (args: any) => string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  blank?: (args: any, ctx: BlankContext) => any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  also?: { readonly [C in MirroredCollection]?: { ids: (args: any, mirror: MirrorReader) => (string | undefined)[]; apply: (row: any, args: any) => any } };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  refusal?: (response: any, args: any) => CommandRefusal | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  priority?: 'first' | ((args: any) => 'first' | undefined);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  items?: (args: any) => number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  edits?: { row: (args: any) => string; patch: (args: any) => Readonly<Record<string, unknown>>; withPatch: (args: any, patch: Record<string, unknown>) => any };
};

/** `const N`: the name stays a literal type, so `CommandName` is derived from the registry. */
export function defineCommand<
  const N extends string,
  A extends z.ZodType,
  C extends MirroredCollection,
  K extends CallDef,
  I extends z.ZodType = A,
>(def: CommandDef<N, A, C, K, I>): CommandDef<N, A, C, K, I> {
  return def;
}

/** A call of `def` with args already parsed by `def.args` (or built to its output shape). */
export function commandPart<D extends { args: z.ZodType }>(
  def: D,
  args: z.output<D['args']>,
): CommandPart {
  return { def: def as unknown as AnyCommandDef, args };
}

/**
 * A selection as calls: its distinct ids in order, in chunks of at most `max`; a chunk of one id
 * goes as the single-row command (`one`, whose answer is the row itself), any other as `many`.
 */
export function chunkedParts(ids: readonly string[], max: number, one: (id: string) => CommandPart, many: (ids: string[]) => CommandPart): CommandPart[] {
  const unique = [...new Set(ids)];
  const parts: CommandPart[] = [];
  for (let i = 0; i < unique.length; i += max) {
    const chunk = unique.slice(i, i + max);
    parts.push(chunk.length === 1 ? one(chunk[0]!) : many(chunk));
  }
  return parts;
}
