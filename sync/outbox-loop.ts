import type { HttpResult } from './http.ts';
import type { OutboxEntry, UploadState } from './ports.ts';
import { IDLE, nextLoopState, type LoopState, type PauseReason } from './loop-state.ts';
import {
  idempotencyKeyOf, nextEligible, nextWake, OUTBOX_LANES, transition,
  type AnyCommand, type CommandLookup, type OutboxEvent, type OutboxLane,
} from './outbox-machine.ts';

/**
 * The outbox's delivery loop as a pure reducer (issue 26): `reduceOutbox(state, event)` gives the
 * next state and the effects, as data, that the driver in outbox.ts carries out (store reads and
 * writes, deliveries over HTTP, timers) before it feeds their answers back as events.
 *
 *   kick / timer_fired / flight_ended ──▶ list (one store listing at a time; a change meanwhile
 *   lists again) ──listed──▶ recover stale `sending` entries, start a delivery per free lane,
 *   then set a timer for the earliest backoff, or say `idle` when nothing is sendable.
 *   pause ──▶ abort the deliveries and the timer; their outcomes still arrive as flight_ended.
 *
 * Each entry's own life is `transition` (outbox-machine.ts); a delivery's steps are
 * `beginDelivery` and `settleDelivery` below, also as effects.
 */
export interface OutboxLoopState {
  loop: LoopState;
  /** A store listing is under way (its answer comes as `listed`). */
  listing: boolean;
  /** Something changed while listing: list again once it answers. */
  stale: boolean;
  /** The entry in flight in each lane. */
  flights: Partial<Record<OutboxLane, string>>;
  /** When the timer fires (null: none set). */
  timer: number | null;
}

export type OutboxLoopEvent =
  | { type: 'kick' }
  | { type: 'listed'; entries: readonly OutboxEntry[]; now: number }
  | { type: 'list_failed' }
  | { type: 'flight_ended'; lane: OutboxLane }
  | { type: 'timer_fired' }
  | { type: 'pause'; reason: PauseReason }
  | { type: 'resume' };

export type OutboxLoopEffect =
  /** Read the store; answer with `listed` (or `list_failed`). */
  | { type: 'list' }
  /** Store an entry found `sending` that nobody sends (a previous session stopped mid-request). */
  | { type: 'recover'; entry: OutboxEntry; fileId: string | undefined }
  /** Run one delivery of the entry in the lane; answer with `flight_ended`. */
  | { type: 'deliver'; lane: OutboxLane; entry: OutboxEntry }
  /** Fire `timer_fired` at `at` (replacing any timer set before). */
  | { type: 'set_timer'; at: number; now: number }
  | { type: 'clear_timer' }
  /** Abort the requests in flight (their entries go back to pending). */
  | { type: 'abort_flights' }
  /** Nothing is sendable right now: whoever waits for the loop to be idle may go on. */
  | { type: 'idle' };

export interface Step<S, E> {
  state: S;
  effects: E[];
}

export const initialOutboxLoop: OutboxLoopState = { loop: IDLE, listing: false, stale: false, flights: {}, timer: null };

const inFlight = (s: OutboxLoopState, id: string) => Object.values(s.flights).includes(id);
/** No listing and no delivery under way: the loop sleeps on a timer, or has nothing to do. */
export const isQuiet = (s: OutboxLoopState) => !s.listing && Object.keys(s.flights).length === 0;
const isPaused = (s: OutboxLoopState) => s.loop.kind === 'paused';

export function reduceOutbox(s: OutboxLoopState, event: OutboxLoopEvent, lookup: CommandLookup): Step<OutboxLoopState, OutboxLoopEffect> {
  switch (event.type) {
    case 'kick':
      return isPaused(s) ? { state: s, effects: [] } : look(s);
    case 'timer_fired':
      return isPaused(s) ? { state: { ...s, timer: null }, effects: [] } : look({ ...s, timer: null });
    case 'flight_ended': {
      const flights = { ...s.flights };
      delete flights[event.lane];
      const next = { ...s, flights };
      if (!isPaused(next)) return look(next);
      return { state: next, effects: isQuiet(next) ? [{ type: 'idle' }] : [] };
    }
    case 'list_failed': {
      // A store threw (reported by the driver): the loop stops until the next kick.
      const next = { ...s, listing: false, stale: false };
      if (!isQuiet(next)) return { state: next, effects: [] };
      return { state: { ...next, loop: nextLoopState(next.loop, { type: 'done' }) }, effects: [{ type: 'idle' }] };
    }
    case 'listed':
      return plan({ ...s, listing: false }, event.entries, event.now, lookup);
    case 'pause': {
      const next = { ...s, loop: nextLoopState(s.loop, { type: 'pause', reason: event.reason }), timer: null };
      const effects: OutboxLoopEffect[] = [{ type: 'abort_flights' }, { type: 'clear_timer' }];
      if (isQuiet(next)) effects.push({ type: 'idle' });
      return { state: next, effects };
    }
    case 'resume':
      return look({ ...s, loop: nextLoopState(s.loop, { type: 'resume' }) });
  }
}

/** Look for sendable entries: list the store, or list again once the listing under way answers. */
function look(s: OutboxLoopState): Step<OutboxLoopState, OutboxLoopEffect> {
  const loop = nextLoopState(s.loop, { type: 'start' });
  const effects: OutboxLoopEffect[] = s.timer !== null ? [{ type: 'clear_timer' }] : [];
  if (s.listing) return { state: { ...s, loop, stale: true, timer: null }, effects };
  return { state: { ...s, loop, listing: true, stale: false, timer: null }, effects: [...effects, { type: 'list' }] };
}

/** What a listing leads to: recoveries, a delivery per free lane, then a timer or idle. */
function plan(s: OutboxLoopState, listed: readonly OutboxEntry[], now: number, lookup: CommandLookup): Step<OutboxLoopState, OutboxLoopEffect> {
  if (isPaused(s)) return { state: { ...s, stale: false }, effects: isQuiet(s) ? [{ type: 'idle' }] : [] };
  const effects: OutboxLoopEffect[] = [];
  const entries = listed.map((e) => {
    if (e.state !== 'sending' || inFlight(s, e.id)) return e;
    const recovered = transition(e, { type: 'recover' }, now);
    effects.push({ type: 'recover', entry: recovered, fileId: fileOf(e, lookup) });
    return recovered;
  });
  // What this loop sends shows as sending, whatever the listing caught of it.
  const seen = entries.map((e) => (inFlight(s, e.id) && e.state === 'pending' ? { ...e, state: 'sending' as const } : e));
  const flights = { ...s.flights };
  for (const lane of OUTBOX_LANES) {
    if (flights[lane]) continue;
    const next = nextEligible(seen, now, lane, lookup);
    if (!next) continue;
    flights[lane] = next.id;
    effects.push({ type: 'deliver', lane, entry: next });
  }
  const planned = { ...s, flights };
  if (s.stale) return { state: { ...planned, listing: true, stale: false }, effects: [...effects, { type: 'list' }] };
  const wake = nextWake(seen, now);
  if (Object.keys(flights).length > 0) {
    // Until a delivery ends (its lane may take the next), a kick, or the earliest backoff's end.
    if (wake === null) return { state: planned, effects };
    return { state: { ...planned, timer: wake }, effects: [...effects, { type: 'set_timer', at: wake, now }] };
  }
  if (wake === null) return { state: { ...planned, loop: nextLoopState(s.loop, { type: 'done' }) }, effects: [...effects, { type: 'idle' }] };
  const loop = nextLoopState(s.loop, { type: 'wait', until: wake });
  return { state: { ...planned, loop, timer: wake }, effects: [...effects, { type: 'set_timer', at: wake, now }, { type: 'idle' }] };
}

/** The local file an upload entry sends, if it is one (unknown commands: none). */
export function fileOf(e: OutboxEntry, lookup: CommandLookup): string | undefined {
  try {
    return lookup(e.command).file?.(e.args);
  } catch {
    return undefined;
  }
}

/** What one delivery does to the world besides the request, in order. */
export type DeliveryEffect =
  | { type: 'persist'; entry: OutboxEntry }
  | { type: 'remove'; id: string }
  | { type: 'upload_state'; fileId: string; state: UploadState }
  | { type: 'confirm'; entry: OutboxEntry; response: unknown }
  | { type: 'rollback'; entry: OutboxEntry }
  | { type: 'reapply'; entry: OutboxEntry }
  /** A 401: pause the outbox and tell the session. */
  | { type: 'unauthorized' };

/** Before the request: the entry is stored as sending (and its file as uploading). */
export function beginDelivery(entry: OutboxEntry, fileId: string | undefined, now: number): Step<OutboxEntry, DeliveryEffect> {
  const sending = transition(entry, { type: 'send' }, now);
  const effects: DeliveryEffect[] = [{ type: 'persist', entry: sending }];
  if (fileId) effects.push({ type: 'upload_state', fileId, state: { kind: 'uploading' } });
  return { state: sending, effects };
}

/** The request's options besides the body: the entry's key on every attempt, its base version. */
export function deliveryOptions(entry: OutboxEntry, def: AnyCommand): { idempotencyKey: string; ifMatch?: number } {
  return {
    idempotencyKey: idempotencyKeyOf(entry),
    // Issue 24: the version the edit was made against; the server merges field by field.
    ...(def.edits && entry.base_seq !== undefined ? { ifMatch: entry.base_seq } : {}),
  };
}

/**
 * After the request: what its outcome (`classifyOutcome`, or a local refusal) does. `keepDone`
 * (the service worker, which writes no mirror rows): a delivered command with something to
 * confirm is stored `done` with its `answer` instead of removed, for the next open to confirm.
 */
export function settleDelivery(
  sending: OutboxEntry, outcome: { event: OutboxEvent; result: HttpResult<unknown> | null },
  def: Pick<AnyCommand, 'confirm'>, fileId: string | undefined, now: number, keepDone = false,
): Step<OutboxEntry, DeliveryEffect> {
  const next = transition(sending, outcome.event, now);
  const effects: DeliveryEffect[] = [];
  if (next.state === 'done') {
    if (fileId) effects.push({ type: 'upload_state', fileId, state: { kind: 'uploaded', server_id: serverIdOf(outcome.result) ?? fileId } });
    const response = outcome.result?.ok ? outcome.result.data : null;
    if (def.confirm !== 'none') effects.push({ type: 'confirm', entry: next, response });
    if (keepDone && def.confirm !== 'none') effects.push({ type: 'persist', entry: { ...next, answer: deliveredAnswer(def.confirm, response) } });
    else effects.push({ type: 'remove', id: next.id });
    return { state: next, effects };
  }
  const refused = next.state === 'failed' || next.state === 'conflict';
  // Roll back before recording the refusal: if we stop in between, the entry is re-sent
  // (same key, same refusal) rather than left failed over a change the server never took.
  if (refused) effects.push({ type: 'rollback', entry: next });
  // The file stays on the device whatever happened: a refused one can be removed by the user.
  if (fileId) effects.push({ type: 'upload_state', fileId, state: refused && next.last_error ? { kind: 'failed', error: next.last_error } : { kind: 'local' } });
  effects.push({ type: 'persist', entry: next });
  if (outcome.event.type === 'unauthorized') effects.push({ type: 'unauthorized' });
  return { state: next, effects };
}

/** A user's retry of a failed, conflicting or parked entry (null: not in such a state). */
export function planRetry(entry: OutboxEntry, newKey: string, amend: ((args: unknown) => unknown) | undefined, now: number): DeliveryEffect[] | null {
  if (!['failed', 'conflict', 'needs_step_up'].includes(entry.state)) return null;
  const retried = transition(entry, { type: 'retry', newKey }, now);
  const next = amend ? { ...retried, args: amend(retried.args) } : retried;
  // A parked entry was never rolled back; a refused one was, so its change shows again.
  const effects: DeliveryEffect[] = entry.state !== 'needs_step_up' ? [{ type: 'reapply', entry: next }] : [];
  return [...effects, { type: 'persist', entry: next }];
}

/** A user's discard (null: unknown, being sent or done). Rolls back exactly once. */
export function planDiscard(entry: OutboxEntry | null): DeliveryEffect[] | null {
  if (!entry || entry.state === 'sending' || entry.state === 'done') return null;
  // failed and conflict entries were rolled back when refused.
  const effects: DeliveryEffect[] = entry.state === 'pending' || entry.state === 'needs_step_up' ? [{ type: 'rollback', entry }] : [];
  return [...effects, { type: 'remove', id: entry.id }];
}

/**
 * What a `done` entry keeps of the server's answer (`OutboxEntry.answer`): a `row` confirm's row
 * as it came (the confirm validates it), else only the change seq the feed must pass.
 */
export function deliveredAnswer(confirm: AnyCommand['confirm'], response: unknown): Record<string, unknown> | null {
  if (response === null || typeof response !== 'object' || Array.isArray(response)) return null;
  if (confirm === 'row') return response as Record<string, unknown>;
  const seq = (response as { change_seq?: unknown }).change_seq;
  return typeof seq === 'number' ? { change_seq: seq } : null;
}

/** The id an upload's answer names (`{ id, … }`), or null when it could not be read. */
function serverIdOf(result: HttpResult<unknown> | null): string | null {
  const id = result?.ok ? (result.data as { id?: unknown } | null)?.id : undefined;
  return typeof id === 'string' ? id : null;
}
