import { BACKFILL_STAGES, type BackfillCursor, type Change, type ChangesResponse } from '../schema/sync-feed.ts';
import type { PullCheckpoint } from './ports.ts';
import type { ApiError, HttpFailure } from './http.ts';
import type { LoopEvent } from './loop-state.ts';

/**
 * The puller as pure reducers (issue 26): `startPull` / `reducePull` decide one pull of the change
 * feed page by page, `reduceLive` the live loop's reconnects; each gives the next state and the
 * effects, as data, that the driver in puller.ts carries out (HTTP, the mirror store, timers,
 * events) before it feeds the answers back.
 */

/** What the puller tells its owner, in order; the engine folds these into its phase. */
export type PullerEvent =
  | { type: 'pull_started'; initial: boolean }
  | { type: 'progress'; loaded: number; total: number }
  | { type: 'pull_succeeded'; checkpoint: number }
  | { type: 'pull_failed'; failure: PullFailure }
  | { type: 'stream_open' }
  | { type: 'stream_lost' };

/** A pull fails on the wire (HttpFailure) or in our own store (e.g. IndexedDB quota). */
export type PullFailure = HttpFailure | { ok: false; kind: 'store'; error: ApiError };
export type PullResult = { ok: true; checkpoint: number } | { ok: false; failure: PullFailure };

/** Why `live` returned: the caller aborted, or the server refused the session (no point retrying). */
export type LiveEnd = { reason: 'aborted' } | { reason: 'unauthorized' | 'forbidden'; failure: HttpFailure };

/** The next page to ask for: the forward feed after a seq, or the first mirror's walk from a cursor (null: its first page). */
export type Ask = { kind: 'forward'; after: number } | { kind: 'backfill'; cursor: BackfillCursor | null };

export type FeedQuery = { after: number; limit: number } | ({ backfill: true; limit: number } & Partial<BackfillCursor>);

export interface PullState {
  limit: number;
  /** The epoch of the batch last handed to the store (or of the stored checkpoint). */
  epoch: string | null;
  /** The seq of the batch last handed to the store: the checkpoint once it is confirmed. */
  seq: number;
  /** A first mirror until a pull reaches the end of the feed. */
  initial: boolean;
  total: number | null;
  loaded: number;
  /** The page asked for and not yet answered. */
  ask: Ask;
}

export type PullEvent = { type: 'page'; page: ChangesResponse; status: number } | { type: 'failed'; failure: PullFailure };

export type PullEffect =
  | { type: 'emit'; event: PullerEvent }
  /** Ask for a page; its answer comes back as `page` or `failed`. */
  | { type: 'fetch'; query: FeedQuery }
  /** Wait until the batch being stored is confirmed (its checkpoint is then the puller's). */
  | { type: 'settle' }
  /** Drop the whole mirror (visibility changed). */
  | { type: 'reset' }
  /**
   * Hand the batch to the store (rows and checkpoint in one write), then wait for the previous
   * one: the store writes batches in order; `progress` is told once this one is stored.
   */
  | { type: 'store'; changes: Change[]; checkpoint: PullCheckpoint & { epoch: string }; progress: PullerEvent | null }
  | { type: 'end'; result: PullResult };

export interface Step<S, E> {
  state: S;
  effects: E[];
}

const FEED_BROKEN = { message: 'The change feed did not advance.', error_code: 'SYNC_FEED' };

/** The floor of a batch (an earlier issue's: fewer rows per page cost more round trips than they save). */
export const MIN_BATCH = 1_000;

/**
 * Issue 33: a walk's first page asks for the floor, not the batch. The list waits for it on a
 * first sign-in, and the server builds each row's doc (on PGlite, one connection, single-threaded),
 * so half the rows is about half the wait; the pages after it are asked for at the full batch
 * while this one is stored (the server prepares that next page at the default batch too:
 * server/feed/changes.ts).
 */
export const queryOf = (a: Ask, limit: number): FeedQuery =>
  a.kind === 'forward'
    ? { after: a.after, limit }
    : a.cursor === null ? firstWalkQuery(limit) : { backfill: true, limit, ...a.cursor };

/** The rows a walk's first page asks for (issue 33; sizes measured in docs/performance.md). */
export const FIRST_WALK_PAGE = MIN_BATCH;

/** A fresh mirror's first ask (the walk's first page), at a puller batch of `limit`: what an early ask must match (sync/first-page.ts). */
export const firstWalkQuery = (limit: number): FeedQuery => ({ backfill: true, limit: Math.min(limit, FIRST_WALK_PAGE) });

/** Whether two asks name the same page (an early first page is taken only for the page asked). */
export const sameQuery = (a: FeedQuery, b: FeedQuery): boolean => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => (a as Record<string, unknown>)[k] === (b as Record<string, unknown>)[k]);
};

/** A walk's page that says there is more must have moved its cursor down (else it would loop forever). */
function walkAdvanced(prev: BackfillCursor | null, next: BackfillCursor, sent: number): boolean {
  if (sent === 0) return false;
  if (prev === null) return true;
  const rank = (c: BackfillCursor) => BACKFILL_STAGES.indexOf(c.stage);
  return rank(next) > rank(prev) || (rank(next) === rank(prev) && next.before < prev.before);
}

/** Whether a pull from `cp` starts a fresh walk (its first ask is `firstWalkQuery`): nothing stored yet, no walk to resume. */
export const startsWalk = (cp: PullCheckpoint): boolean => !cp.backfill && cp.mirrored !== true && cp.seq === 0;

/**
 * A pull from the stored checkpoint. A first mirror walks the feed newest first (`backfill`: what
 * a person looks at first arrives first), storing its cursor with every batch so a reload resumes
 * the walk; when it ends, the checkpoint is the walk's top and the forward pull brings what
 * changed meanwhile. A mirror stays `initial` (not `mirrored`) until that forward pull reaches
 * the end of the feed (a reload mid-way resumes it, counting on from the stored progress).
 */
export function startPull(cp: PullCheckpoint, limit: number): Step<PullState, PullEffect> {
  const initial = cp.mirrored !== true;
  const total = initial ? (cp.first?.total ?? null) : null;
  const loaded = initial ? (cp.first?.loaded ?? 0) : 0;
  const ask: Ask = cp.backfill
    ? { kind: 'backfill', cursor: cp.backfill }
    : startsWalk(cp) ? { kind: 'backfill', cursor: null } : { kind: 'forward', after: cp.seq };
  const effects: PullEffect[] = [{ type: 'emit', event: { type: 'pull_started', initial } }];
  if (initial && total !== null) effects.push({ type: 'emit', event: { type: 'progress', loaded, total: Math.max(total, loaded) } });
  effects.push({ type: 'fetch', query: queryOf(ask, limit) });
  return { state: { limit, epoch: cp.epoch, seq: cp.seq, initial, total, loaded, ask }, effects };
}

const failing = (s: PullState, failure: PullFailure): Step<PullState, PullEffect> => ({
  state: s,
  effects: [{ type: 'settle' }, { type: 'emit', event: { type: 'pull_failed', failure } }, { type: 'end', result: { ok: false, failure } }],
});

export function reducePull(s: PullState, event: PullEvent): Step<PullState, PullEffect> {
  if (event.type === 'failed') return failing(s, event.failure);
  const { page, status } = event;
  if (s.epoch !== null && page.visibility_epoch !== s.epoch) {
    // What this user may see changed (role, team): rows we hold may no longer be theirs.
    const ask: Ask = { kind: 'backfill', cursor: null };
    return {
      state: { ...s, epoch: null, seq: 0, total: null, loaded: 0, initial: true, ask },
      effects: [{ type: 'settle' }, { type: 'reset' }, { type: 'emit', event: { type: 'pull_started', initial: true } }, { type: 'fetch', query: queryOf(ask, s.limit) }],
    };
  }
  const { ask } = s;
  // A server without the walk ignores backfill=true and answers the forward feed from 0:
  // that page is taken as what it is (the mirror then fills oldest first, as before).
  const walk = ask.kind === 'backfill' && page.backfill !== undefined ? page.backfill : null;
  const from = ask.kind === 'forward' ? ask.after : 0;
  const asked = ask.kind === 'backfill' ? ask.cursor : null;
  const advanced = walk ? walkAdvanced(asked, walk, page.changes.length) : page.checkpoint > from;
  if (page.has_more && !advanced) return failing(s, { ok: false, kind: 'bad_response', status, error: FEED_BROKEN });
  const effects: PullEffect[] = [];
  let { total, loaded } = s;
  // The total comes with the first page of a walk (or of a forward feed from 0).
  if (page.total !== undefined && (walk ? asked === null : from === 0)) {
    total = page.total;
    loaded = 0;
    // Said at once (issue 25): the share is known while the first page is still being stored.
    if (s.initial) effects.push({ type: 'emit', event: { type: 'progress', loaded: 0, total } });
  }
  const next: Ask | null = walk
    ? page.has_more ? { kind: 'backfill', cursor: walk } : { kind: 'forward', after: page.checkpoint }
    : page.has_more ? { kind: 'forward', after: page.checkpoint } : null;
  // Ask for the next page before writing this one: the server, the wire and IndexedDB then work
  // at the same time (the feed is keyed by seq or by the walk's cursor, not by the write). Not
  // after a walk's first page (issue 33): the first rows a person waits for are written first,
  // without the next page's parse on the worker's thread and its query ahead of the shell's
  // requests on the server; asked once they are stored (one page's wait in a whole first mirror).
  const firstRows = walk !== null && asked === null;
  if (next && !firstRows) effects.push({ type: 'fetch', query: queryOf(next, s.limit) });
  loaded += page.changes.length;
  // The first mirror is complete with the forward pull's last page (stored with it); until
  // then the progress is stored too, so a resumed first mirror goes on counting from there.
  const mirrored = !s.initial || next === null;
  const stored: PullCheckpoint & { epoch: string } = {
    seq: walk && page.has_more ? 0 : page.checkpoint, epoch: page.visibility_epoch, mirrored,
    ...(!mirrored && total !== null ? { first: { loaded, total: Math.max(total, loaded) } } : {}),
    ...(walk && page.has_more ? { backfill: walk } : {}),
  };
  // Told as soon as the batch is stored (issue 25); batches are stored in order, so it only grows.
  const progress = s.initial && total !== null ? { type: 'progress' as const, loaded, total: Math.max(total, loaded) } : null;
  effects.push({ type: 'store', changes: page.changes, checkpoint: stored, progress });
  if (next && firstRows) effects.push({ type: 'settle' }, { type: 'fetch', query: queryOf(next, s.limit) });
  const state: PullState = { ...s, epoch: stored.epoch, seq: stored.seq, total, loaded, ask: next ?? ask };
  if (next) return { state, effects };
  effects.push({ type: 'settle' }, { type: 'emit', event: { type: 'pull_succeeded', checkpoint: stored.seq } });
  return { state, effects: [...effects, { type: 'end', result: { ok: true, checkpoint: stored.seq } }] };
}

/** Failures that no reconnect can cure until the user signs in again (or steps up). */
export function terminal(f: PullFailure): LiveEnd | null {
  if (f.kind === 'store') return null;
  if (f.kind === 'unauthenticated' || (f.kind === 'http' && f.status === 401)) return { reason: 'unauthorized', failure: f };
  if (f.kind === 'forbidden' || f.kind === 'step_up' || (f.kind === 'http' && f.status === 403)) return { reason: 'forbidden', failure: f };
  if (f.kind === 'aborted') return { reason: 'aborted' };
  return null;
}

/**
 * The live loop: open the stream, then catch up (a write landing between the two is announced),
 * then follow it; on a drop, back off (the server's `retry:` or reconnectMs, doubling per failure
 * up to maxReconnectMs, spread by a jitter) and go again. Ends on abort or a terminal failure.
 */
export interface LiveState {
  /** Failed connections since the last one that opened and caught up. */
  failures: number;
  /** The server's `retry:` (ms), once it sent one. */
  retryMs: number | null;
  /** The stream opened this round (the driver holds its body). */
  streamOk: boolean;
}

export interface LiveConfig {
  reconnectMs: number;
  maxReconnectMs: number;
}

export type LiveEvent =
  | { type: 'begin'; aborted: boolean }
  | { type: 'opened'; result: { ok: true } | HttpFailure }
  | { type: 'caught_up'; result: PullResult; now: number; jitter: number; aborted: boolean }
  | { type: 'followed'; end: LiveEnd | null; retryMs: number | null; now: number; jitter: number; aborted: boolean }
  | { type: 'slept'; aborted: boolean };

export type LiveEffect =
  | { type: 'open' }
  | { type: 'pull' }
  /** Read the stream's announcements, pulling on each newer seq; answer with `followed`. */
  | { type: 'follow' }
  | { type: 'cancel_stream' }
  | { type: 'emit'; event: PullerEvent }
  | { type: 'loop'; event: LoopEvent }
  | { type: 'sleep'; ms: number }
  | { type: 'end'; end: LiveEnd };

export const initialLive: LiveState = { failures: 0, retryMs: null, streamOk: false };

const ABORTED: LiveEnd = { reason: 'aborted' };

export function reduceLive(s: LiveState, event: LiveEvent, config: LiveConfig): Step<LiveState, LiveEffect> {
  switch (event.type) {
    case 'begin':
      return { state: s, effects: [event.aborted ? { type: 'end', end: ABORTED } : { type: 'open' }] };
    case 'opened': {
      const end = event.result.ok ? null : terminal(event.result);
      if (end) return { state: s, effects: [{ type: 'end', end }] };
      return { state: { ...s, streamOk: event.result.ok }, effects: [{ type: 'pull' }] };
    }
    case 'caught_up': {
      const end = event.result.ok ? null : terminal(event.result.failure);
      if (end) return { state: s, effects: [{ type: 'end', end }] };
      if (s.streamOk && event.result.ok) return { state: { ...s, failures: 0 }, effects: [{ type: 'emit', event: { type: 'stream_open' } }, { type: 'follow' }] };
      const lost = reconnect(s, event, config);
      return s.streamOk ? { state: lost.state, effects: [{ type: 'cancel_stream' }, ...lost.effects] } : lost;
    }
    case 'followed':
      if (event.end) return { state: s, effects: [{ type: 'end', end: event.end }] };
      return reconnect({ ...s, retryMs: event.retryMs }, event, config);
    case 'slept':
      if (event.aborted) return { state: s, effects: [{ type: 'end', end: ABORTED }] };
      return { state: s, effects: [{ type: 'loop', event: { type: 'start' } }, { type: 'open' }] };
  }
}

function reconnect(s: LiveState, at: { now: number; jitter: number; aborted: boolean }, config: LiveConfig): Step<LiveState, LiveEffect> {
  if (at.aborted) return { state: s, effects: [{ type: 'end', end: ABORTED }] };
  const failures = s.failures + 1;
  const base = s.retryMs ?? config.reconnectMs;
  const delay = Math.min(config.maxReconnectMs, base * 2 ** (failures - 1));
  const wait = Math.round(delay * (0.5 + 0.5 * at.jitter));
  return {
    state: { ...s, failures, streamOk: false },
    effects: [{ type: 'emit', event: { type: 'stream_lost' } }, { type: 'loop', event: { type: 'wait', until: at.now + wait } }, { type: 'sleep', ms: wait }],
  };
}
