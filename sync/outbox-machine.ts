import type { CallDef } from '../schema/api/define-call.ts';
import { STEP_UP_SCOPES, type StepUpScope } from '../schema/api/scopes.ts';
import { commandDef, type CommandName } from '../schema/commands/index.ts';
import { OUTBOX_LANES, type AnyCommandDef, type CommandPart, type OutboxLane } from '../schema/commands/define-command.ts';
import type { EntityRefs, OutboxEntry, OutboxState } from './ports.ts';
import type { ApiError, HttpResult } from './http.ts';
import { backoffDelay, isKeyInFlight, parseRetryAfter } from './retry.ts';

/**
 * The outbox entry's life as a pure state machine (every arrow has a table row in the tests):
 *
 *   pending ──send──▶ sending ──succeeded──▶ done
 *      ▲                 │ unknown_outcome (network, timeout, 408/429/5xx, IDEMPOTENCY_7010):
 *      │                 │   back to pending, maybe_sent, same key, not before a backoff
 *      ├─────────────────┤ unauthorized (401) / aborted (pause) / recover (stale after reload)
 *      │                 ├─rejected (4xx)──▶ failed ─────┐
 *      │                 ├─conflict (409)──▶ conflict ───┤ retry (fresh key: the refusal is final)
 *      │                 └─step_up─────────▶ needs_step_up ┘ retry (same key: nothing was sent)
 *      └──────────────────────────────────────────────────┘
 */
export type OutboxEvent =
  | { type: 'send' }
  | { type: 'succeeded' }
  | { type: 'unknown_outcome'; error: ApiError; maybeSent: boolean; retryAfterMs: number | null }
  | { type: 'rejected'; error: ApiError }
  | { type: 'conflict'; error: ApiError }
  | { type: 'step_up'; scope: StepUpScope | null; error: ApiError }
  | { type: 'unauthorized' }
  | { type: 'aborted'; maybeSent: boolean }
  | { type: 'recover' }
  | { type: 'retry'; newKey: string };

export class InvalidTransitionError extends Error {
  constructor(readonly state: OutboxState, readonly event: OutboxEvent['type']) {
    super(`outbox: no transition from ${state} on ${event}`);
  }
}

/** Backoff for re-sends after an unknown outcome: 0.3 s doubling, at most a minute apart. */
export const OUTBOX_MAX_BACKOFF_MS = 60_000;

export function transition(entry: OutboxEntry, event: OutboxEvent, now: number): OutboxEntry {
  const fail = () => {
    throw new InvalidTransitionError(entry.state, event.type);
  };
  if (event.type === 'send') {
    if (entry.state !== 'pending') return fail();
    return { ...entry, state: 'sending', attempts: entry.attempts + 1 };
  }
  if (event.type === 'retry') {
    if (entry.state === 'needs_step_up') return { ...entry, state: 'pending', not_before: now, step_up_scope: null, last_error: null };
    if (entry.state !== 'failed' && entry.state !== 'conflict') return fail();
    // A definite refusal: nothing under the old key was applied, so a fresh key is safe and
    // avoids the server replaying its stored refusal.
    return { ...entry, state: 'pending', not_before: now, last_error: null, maybe_sent: false, idempotency_key: event.newKey };
  }
  if (entry.state !== 'sending') return fail();
  switch (event.type) {
    case 'succeeded':
      return { ...entry, state: 'done', last_error: null, step_up_scope: null };
    case 'unknown_outcome': {
      const delay = event.retryAfterMs ?? backoffDelay(entry.attempts - 1, OUTBOX_MAX_BACKOFF_MS);
      return { ...entry, state: 'pending', maybe_sent: entry.maybe_sent || event.maybeSent, not_before: now + delay, last_error: event.error };
    }
    case 'rejected':
      return { ...entry, state: 'failed', last_error: event.error };
    case 'conflict':
      return { ...entry, state: 'conflict', last_error: event.error };
    case 'step_up':
      return { ...entry, state: 'needs_step_up', step_up_scope: event.scope, last_error: event.error };
    case 'unauthorized':
      return { ...entry, state: 'pending', not_before: now };
    case 'aborted':
      return { ...entry, state: 'pending', not_before: now, maybe_sent: entry.maybe_sent || event.maybeSent };
    case 'recover':
      // Found 'sending' with nobody sending it (the tab closed mid-request): it may have arrived.
      return { ...entry, state: 'pending', not_before: now, maybe_sent: true };
  }
}

/** The key the next send uses. */
export const idempotencyKeyOf = (e: OutboxEntry): string => e.idempotency_key ?? e.id;

const UNKNOWN_STATUSES = new Set([408, 429]);

/** Maps one HTTP outcome to the machine's event. */
export function classifyOutcome(result: HttpResult<unknown>, call: CallDef, now: number): OutboxEvent {
  if (result.ok) return { type: 'succeeded' };
  switch (result.kind) {
    case 'bad_response':
      // A 2xx: the server acted. The change feed brings the row even if we cannot read the body.
      return { type: 'succeeded' };
    case 'unauthenticated':
      return { type: 'unauthorized' };
    case 'step_up':
      return { type: 'step_up', scope: result.scope, error: result.error };
    case 'forbidden':
      return { type: 'rejected', error: result.error };
    case 'aborted':
      return { type: 'aborted', maybeSent: result.maybeSent };
    case 'network':
    case 'timeout':
      return { type: 'unknown_outcome', error: result.error, maybeSent: result.maybeSent, retryAfterMs: null };
    case 'http':
      // The first request with this key is still being processed: ask again later, same key.
      if (isKeyInFlight(result)) return { type: 'unknown_outcome', error: result.error, maybeSent: true, retryAfterMs: parseRetryAfter(result.retryAfter, now) };
      return classifyStatus(result.status, result.error, result.retryAfter, call, now);
  }
}

function classifyStatus(status: number, error: ApiError, retryAfter: string | null, call: CallDef, now: number): OutboxEvent {
  const unknown = (): OutboxEvent => ({ type: 'unknown_outcome', error, maybeSent: true, retryAfterMs: parseRetryAfter(retryAfter, now) });
  if (status === 401) return { type: 'unauthorized' };
  if (status >= 500 || UNKNOWN_STATUSES.has(status)) return unknown();
  if (status === 409) return { type: 'conflict', error };
  if (status === 403 && error.error_code === 'AUTH_7016') return { type: 'step_up', scope: stepUpScopeOf(call), error };
  return { type: 'rejected', error };
}

function stepUpScopeOf(call: CallDef): StepUpScope | null {
  if (call.auth.kind !== 'scopes') return null;
  const scopes: readonly string[] = call.auth.scopes;
  return STEP_UP_SCOPES.find((s) => scopes.includes(s)) ?? null;
}

/** States that still hold their entity: a younger entry on the same entity waits behind them. */
const UNFINISHED: ReadonlySet<OutboxState> = new Set(['pending', 'sending', 'needs_step_up', 'conflict', 'failed']);

export const byAge = (a: OutboxEntry, b: OutboxEntry) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** How the scheduler sees a command: its lane and what orders it (unknown names: main, entities only). */
export interface Scheduling {
  lane: OutboxLane;
  keys: readonly string[];
}

/** A lookup of command definitions (the schema's COMMANDS unless a test brings its own). */
export type CommandLookup = (name: string) => AnyCommandDef;

export function schedulingOf(entry: OutboxEntry, lookup: CommandLookup = commandDef): Scheduling {
  let def: AnyCommandDef;
  try {
    def = lookup(entry.command);
  } catch {
    return { lane: 'main', keys: entry.entity_ids };
  }
  const after = def.after?.(entry.args) ?? [];
  return { lane: def.lane ?? 'main', keys: after.length ? [...entry.entity_ids, ...after] : entry.entity_ids };
}

/**
 * FIFO per entity: the oldest pending entry whose backoff is over and that no older unfinished
 * entry shares an entity (or an `after` id) with. A failed, conflicting or parked older entry keeps blocking: the
 * younger edit was made on top of the older one's optimistic state, so sending it alone could
 * apply a change the user never saw. It proceeds once the older one is retried or discarded.
 * Entries on other entities are not held up by one in backoff.
 *
 * Lanes: with `lane`, only an entry of that lane is returned, but entries of every lane hold
 * their keys, so an attach still waits for the upload of its receipt in the upload lane while
 * an unrelated coding edit goes past it.
 */
export function nextEligible(
  entries: readonly OutboxEntry[], now: number, lane?: OutboxLane, lookup: CommandLookup = commandDef,
): OutboxEntry | null {
  const held = new Set<string>();
  for (const e of deliveryOrder(entries, lookup)) {
    if (!UNFINISHED.has(e.state)) continue;
    // Issue 24: a field-level conflict (409 CONFLICT) holds nothing. Nothing of it was applied
    // and it is rolled back; younger edits carry their own fields and their own base version, so
    // they go on (one of the same field meets the same conflict and waits in the drawer too).
    if (isFieldConflict(e)) continue;
    const s = schedulingOf(e, lookup);
    const blocked = s.keys.some((id) => held.has(id));
    if (!blocked && e.state === 'pending' && e.not_before <= now && (lane === undefined || s.lane === lane)) return e;
    for (const id of s.keys) held.add(id);
  }
  return null;
}

/**
 * The order entries are considered in: oldest first, except that a command defined with
 * `priority: 'first'` goes before every other entry, and so do the older unfinished entries it
 * shares keys with (transitively), since FIFO per entity still holds: e.g. a fraud answer that
 * locks a card goes before a queued memo edit, but after an older edit of the same transaction.
 */
export function deliveryOrder(entries: readonly OutboxEntry[], lookup: CommandLookup = commandDef): OutboxEntry[] {
  const aged = [...entries].sort(byAge);
  const first = new Set<OutboxEntry>();
  const keys = new Set<string>();
  // Youngest to oldest: a priority entry claims its keys; an older entry holding one joins it.
  for (let i = aged.length - 1; i >= 0; i--) {
    const e = aged[i]!;
    if (!UNFINISHED.has(e.state)) continue;
    const s = schedulingOf(e, lookup);
    if (priorityOf(e, lookup) || s.keys.some((k) => keys.has(k))) {
      first.add(e);
      for (const k of s.keys) keys.add(k);
    }
  }
  if (first.size === 0) return aged;
  return [...aged.filter((e) => first.has(e)), ...aged.filter((e) => !first.has(e))];
}

function priorityOf(entry: OutboxEntry, lookup: CommandLookup): boolean {
  try {
    const p = lookup(entry.command).priority;
    return (typeof p === 'function' ? p(entry.args) : p) === 'first';
  } catch {
    return false;
  }
}

/**
 * How many changes an entry is, as the person counts them (its command's `items`, default 1):
 * a bulk coding of 1,485 rows is 1,485 changes waiting (issue 25). Unknown commands count 1.
 */
export function itemsOf(entry: OutboxEntry, lookup: CommandLookup = commandDef): number {
  try {
    const n = lookup(entry.command).items?.(entry.args);
    return typeof n === 'number' && Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1;
  } catch {
    return 1;
  }
}
/** An entry the server refused with CONFLICT (field-level details): the conflict drawer resolves it. */
export const isFieldConflict = (e: Pick<OutboxEntry, 'state' | 'last_error'>): boolean =>
  e.state === 'conflict' && e.last_error?.error_code === 'CONFLICT';

/** When the earliest backed-off entry becomes sendable, or null if none is waiting on time. */
export function nextWake(entries: readonly OutboxEntry[], now: number): number | null {
  let wake: number | null = null;
  for (const e of entries) {
    if (e.state === 'pending' && e.not_before > now && (wake === null || e.not_before < wake)) wake = e.not_before;
  }
  return wake;
}

export interface OutboxCounts {
  pending: number;
  /** The changes those pending entries are (`itemsOf`: a bulk entry counts its rows). */
  pendingItems: number;
  failed: number;
  needsStepUp: number;
}

export function countEntries(entries: readonly OutboxEntry[], lookup: CommandLookup = commandDef): OutboxCounts {
  const c: OutboxCounts = { pending: 0, pendingItems: 0, failed: 0, needsStepUp: 0 };
  for (const e of entries) {
    if (e.state === 'pending' || e.state === 'sending') {
      c.pending++;
      c.pendingItems += itemsOf(e, lookup);
    }
    else if (e.state === 'failed' || e.state === 'conflict') c.failed++;
    else if (e.state === 'needs_step_up') c.needsStepUp++;
  }
  return c;
}

/**
 * Makes an entry from raw args: validates them against the command and derives the entities it
 * touches. `id` becomes the Idempotency-Key; the worker supplies it (a uuid).
 */
export function createOutboxEntry(input: { id: string; command: CommandName; args: unknown; now: number }): OutboxEntry {
  const def = commandDef(input.command);
  return outboxEntryOf({ def, args: def.args.parse(input.args) }, input.id, input.now);
}

/** Makes an entry from a call whose args its command already parsed (no second parse). */
export function outboxEntryOf(part: CommandPart, id: string, now: number): OutboxEntry {
  return {
    id,
    command: part.def.name as CommandName,
    args: part.args,
    entity_ids: part.def.entityIds(part.args),
    created_at: now,
    attempts: 0,
    state: 'pending',
    not_before: now,
    maybe_sent: false,
    last_error: null,
    step_up_scope: null,
  };
}

/** The entities an entry touches, qualified by its command's collection. */
export function entityRefs(entry: OutboxEntry): EntityRefs {
  return { collection: commandDef(entry.command).collection, ids: entry.entity_ids };
}

/** A command's definition, widened so the outbox can drive any of them the same way. */
export type AnyCommand = AnyCommandDef;
export { commandDef };

export { OUTBOX_LANES, type OutboxLane };
