import { syncChanges, syncStream } from '../schema/api/calls.ts';
import { SYNC_BATCH_DEFAULT, SYNC_BATCH_MAX } from '../schema/constants.ts';
import { BACKFILL_STAGES, streamEventSchema, type BackfillCursor } from '../schema/sync-feed.ts';
import type { Clock, MirrorStore, PullCheckpoint } from './ports.ts';
import type { ApiError, HttpClient, HttpFailure } from './http.ts';
import { callWithRetry } from './retry.ts';
import { readSse } from './sse.ts';
import { IDLE, nextLoopState, type LoopEvent, type LoopState } from './loop-state.ts';

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

export interface PullerOptions {
  http: HttpClient;
  clock: Clock;
  store: MirrorStore;
  /** Rows per batch, at least 1,000 (the floor), at most SYNC_BATCH_MAX. */
  batchSize?: number;
  onEvent?: (e: PullerEvent) => void;
  /** First reconnect delay when the server sends no `retry:`; doubles per failure up to maxReconnectMs. */
  reconnectMs?: number;
  maxReconnectMs?: number;
  /** Silence after which the stream counts as dead (the server sends a heartbeat every 15 s). */
  idleTimeoutMs?: number;
  /** 0..1; spreads reconnects of many clients after a server restart. Tests pass () => 1. */
  random?: () => number;
}

export interface Puller {
  /** Pulls until caught up. Concurrent calls share one run, which loops once more for them. */
  pull(signal?: AbortSignal): Promise<PullResult>;
  /** Pull, then follow the SSE stream, pulling whenever it announces a newer seq; reconnects. */
  live(signal: AbortSignal): Promise<LiveEnd>;
  checkpoint(): number;
  /**
   * The live loop's state: idle (never started), running (opening, catching up or following
   * the stream), waiting-retry{until} (reconnect backoff), paused{unauthorized | forbidden}
   * (ended until a new sign-in or scope), stopped (aborted by its owner).
   */
  loopState(): LoopState;
}

/** The next page to ask for: the forward feed after a seq, or the first mirror's walk from a cursor (null: its first page). */
type Ask = { kind: 'forward'; after: number } | { kind: 'backfill'; cursor: BackfillCursor | null };

/** A walk's page that says there is more must have moved its cursor down (else it would loop forever). */
function walkAdvanced(prev: BackfillCursor | null, next: BackfillCursor, sent: number): boolean {
  if (sent === 0) return false;
  if (prev === null) return true;
  const rank = (c: BackfillCursor) => BACKFILL_STAGES.indexOf(c.stage);
  return rank(next) > rank(prev) || (rank(next) === rank(prev) && next.before < prev.before);
}

export const MIN_BATCH = 1_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 45_000;
const FEED_BROKEN = { message: 'The change feed did not advance.', error_code: 'SYNC_FEED' };

export function createPuller(opts: PullerOptions): Puller {
  const limit = Math.min(SYNC_BATCH_MAX, Math.max(MIN_BATCH, opts.batchSize ?? SYNC_BATCH_DEFAULT));
  const emit = (e: PullerEvent) => opts.onEvent?.(e);
  const random = opts.random ?? Math.random;
  let checkpoint = 0;
  let current: Promise<PullResult> | null = null;
  let again = false;
  let state: LoopState = IDLE;
  /** The newest live run: an older one still winding down (aborted) must not set the state. */
  let liveRun = 0;

  /**
   * A first mirror walks the feed newest first (`backfill`: what a person looks at first arrives
   * first), storing its cursor with every batch so a reload resumes the walk; when it ends, the
   * checkpoint is the walk's top and the forward pull brings what changed meanwhile. A mirror
   * stays `initial` (not `mirrored`) until that forward pull reaches the end of the feed.
   */
  async function pullOnce(signal: AbortSignal | undefined): Promise<PullResult> {
    let cp = await opts.store.getCheckpoint();
    checkpoint = cp.seq;
    // A first mirror until a pull has reached the end of the feed (a reload mid-way resumes it).
    let initial = cp.mirrored !== true;
    emit({ type: 'pull_started', initial });
    let total: number | null = initial ? (cp.first?.total ?? null) : null;
    let loaded = initial ? (cp.first?.loaded ?? 0) : 0;
    if (initial && total !== null) emit({ type: 'progress', loaded, total: Math.max(total, loaded) });
    let ask: Ask = cp.backfill
      ? { kind: 'backfill', cursor: cp.backfill }
      : initial && cp.seq === 0 ? { kind: 'backfill', cursor: null } : { kind: 'forward', after: cp.seq };
    const fetchPage = (a: Ask) => {
      const query = a.kind === 'forward' ? { after: a.after, limit } : { backfill: true, limit, ...(a.cursor ?? {}) };
      const p = callWithRetry(opts.http, opts.clock, syncChanges, { query, signal });
      p.catch(() => undefined); // a prefetch abandoned after a store failure must not go unhandled
      return p;
    };
    let inflight = fetchPage(ask);
    /**
     * The batch handed to the store and not yet confirmed stored. The next batch is handed over
     * before waiting for it (the store writes batches in order, a checkpoint only after its rows
     * and every earlier batch: ports.ts), so the store validates and queues the next rows while
     * IndexedDB commits the last ones instead of the two taking turns.
     */
    let storing: { done: Promise<void>; stored: PullCheckpoint & { epoch: string }; loaded: number } | null = null;
    const settle = async () => {
      const batch = storing;
      if (!batch) return;
      storing = null;
      await batch.done;
      cp = batch.stored;
      checkpoint = cp.seq;
    };
    const fail = async (failure: PullFailure) => {
      await settle();
      return failed(failure);
    };
    for (;;) {
      const res = await inflight;
      if (!res.ok) return fail(res);
      const page = res.data;
      if (cp.epoch !== null && page.visibility_epoch !== cp.epoch) {
        await settle();
        // What this user may see changed (role, team): rows we hold may no longer be theirs.
        await opts.store.reset();
        cp = { seq: 0, epoch: null };
        total = null;
        loaded = 0;
        initial = true;
        emit({ type: 'pull_started', initial: true });
        ask = { kind: 'backfill', cursor: null };
        inflight = fetchPage(ask);
        continue;
      }
      // A server without the walk ignores backfill=true and answers the forward feed from 0:
      // that page is taken as what it is (the mirror then fills oldest first, as before).
      const walk = ask.kind === 'backfill' && page.backfill !== undefined ? page.backfill : null;
      const from = ask.kind === 'forward' ? ask.after : 0;
      const asked = ask.kind === 'backfill' ? ask.cursor : null;
      const advanced = walk ? walkAdvanced(asked, walk, page.changes.length) : page.checkpoint > from;
      if (page.has_more && !advanced) return fail({ ok: false, kind: 'bad_response', status: res.status, error: FEED_BROKEN });
      // The total comes with the first page of a walk (or of a forward feed from 0).
      if (page.total !== undefined && (walk ? asked === null : from === 0)) {
        total = page.total;
        loaded = 0;
        // Said at once (issue 25): the share is known while the first page is still being stored.
        if (initial) emit({ type: 'progress', loaded: 0, total });
      }
      const next: Ask | null = walk
        ? page.has_more ? { kind: 'backfill', cursor: walk } : { kind: 'forward', after: page.checkpoint }
        : page.has_more ? { kind: 'forward', after: page.checkpoint } : null;
      // Ask for the next page before writing this one: on a first mirror the server, the wire
      // and IndexedDB then work at the same time instead of taking turns (the feed is keyed by
      // seq or by the walk's cursor, so the next page does not depend on the write).
      if (next) inflight = fetchPage(next);
      loaded += page.changes.length;
      // The first mirror is complete with the forward pull's last page (stored with it); until
      // then the progress is stored too, so a resumed first mirror goes on counting from there.
      const mirrored = !initial || next === null;
      const stored: PullCheckpoint & { epoch: string } = {
        seq: walk && page.has_more ? 0 : page.checkpoint, epoch: page.visibility_epoch, mirrored,
        ...(!mirrored && total !== null ? { first: { loaded, total: Math.max(total, loaded) } } : {}),
        ...(walk && page.has_more ? { backfill: walk } : {}),
      };
      const done = opts.store.applyChanges(page.changes, stored);
      // The progress is told as soon as the batch is stored, not when the next page has arrived
      // (issue 25: a slow page left the share unsaid). Batches are stored in order, so it only grows.
      const told = initial && total !== null ? { type: 'progress' as const, loaded, total: Math.max(total, loaded) } : null;
      done.then(
        () => told && emit(told),
        () => undefined, // awaited by settle; a batch after a failed one must not go unhandled
      );
      await settle();
      storing = { done, stored, loaded };
      // The epoch check above compares with the batch being stored.
      cp = { ...cp, epoch: stored.epoch };
      if (!next) break;
      ask = next;
    }
    await settle();
    emit({ type: 'pull_succeeded', checkpoint: cp.seq });
    return { ok: true, checkpoint: cp.seq };
  }

  function failed(failure: PullFailure): PullResult {
    emit({ type: 'pull_failed', failure });
    return { ok: false, failure };
  }

  function pull(signal?: AbortSignal): Promise<PullResult> {
    if (current) {
      again = true;
      return current;
    }
    current = (async () => {
      let result: PullResult;
      do {
        again = false;
        result = await pullOnce(signal).catch((e: unknown) =>
          // The store threw: report it like any failed pull; live() backs off and tries again.
          failed({ ok: false, kind: 'store', error: { message: e instanceof Error ? e.message : String(e), error_code: 'LOCAL_STORE' } }),
        );
      } while (again && result.ok && !signal?.aborted);
      return result;
    })().finally(() => {
      current = null;
    });
    return current;
  }

  /**
   * Reads announcements until the stream ends; returns a LiveEnd only when live must stop.
   * A watchdog drops a stream that says nothing (not even the server's heartbeat comment) for
   * idleTimeoutMs: a sleeping laptop or a changed network can leave a connection half-open forever.
   */
  async function follow(body: ReadableStream<Uint8Array>, signal: AbortSignal, retry: { ms: number | null }) {
    const watch = new AbortController();
    const stopWatching = () => watch.abort();
    signal.addEventListener('abort', stopWatching, { once: true });
    let lastSeen = opts.clock.now();
    void watchdog(watch, () => lastSeen);
    try {
      for await (const item of readSse(body, watch.signal)) {
        lastSeen = opts.clock.now();
        if (item.type === 'retry') retry.ms = item.ms;
        if (item.type !== 'event' || item.event !== 'seq') continue;
        const announced = parseSeq(item.data);
        if (announced === null || announced <= checkpoint) continue;
        const r = await pull(signal);
        lastSeen = opts.clock.now();
        if (!r.ok) return terminal(r.failure) ?? null;
      }
    } catch {
      // The connection dropped (or was aborted): reconnect below.
    } finally {
      signal.removeEventListener('abort', stopWatching);
      watch.abort();
    }
    return null;
  }

  async function watchdog(watch: AbortController, lastSeen: () => number) {
    const idle = opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    while (!watch.signal.aborted) {
      const quiet = opts.clock.now() - lastSeen();
      if (quiet >= idle) return watch.abort();
      try {
        await opts.clock.sleep(idle - quiet, watch.signal);
      } catch {
        return;
      }
    }
  }

  async function live(signal: AbortSignal): Promise<LiveEnd> {
    const run = ++liveRun;
    const step = (event: LoopEvent) => {
      if (run === liveRun) state = nextLoopState(state, event);
    };
    // A new run: resume what an earlier one left paused (a 401 before this sign-in).
    step({ type: 'resume' });
    step({ type: 'start' });
    const end = await follows(signal, step);
    step(end.reason === 'aborted' ? { type: 'stop' } : { type: 'pause', reason: end.reason });
    return end;
  }

  async function follows(signal: AbortSignal, step: (event: LoopEvent) => void): Promise<LiveEnd> {
    const retry: { ms: number | null } = { ms: null };
    for (let failures = 0; !signal.aborted; ) {
      // Open the stream first, then catch up: a write landing between the two is announced.
      const stream = await opts.http.stream(syncStream, { signal });
      if (!stream.ok && terminal(stream)) return terminal(stream)!;
      const caught = await pull(signal);
      if (!caught.ok && terminal(caught.failure)) return terminal(caught.failure)!;
      if (stream.ok && caught.ok) {
        emit({ type: 'stream_open' });
        failures = 0;
        const end = await follow(stream.data, signal, retry);
        if (end) return end;
      } else if (stream.ok) {
        await stream.data.cancel().catch(() => undefined);
      }
      if (signal.aborted) break;
      emit({ type: 'stream_lost' });
      failures++;
      const base = retry.ms ?? opts.reconnectMs ?? 1_000;
      const delay = Math.min(opts.maxReconnectMs ?? 30_000, base * 2 ** (failures - 1));
      const wait = Math.round(delay * (0.5 + 0.5 * random()));
      step({ type: 'wait', until: opts.clock.now() + wait });
      await opts.clock.sleep(wait, signal).catch(() => undefined);
      step({ type: 'start' });
    }
    return { reason: 'aborted' };
  }

  return { pull, live, checkpoint: () => checkpoint, loopState: () => state };
}

function parseSeq(data: string): number | null {
  try {
    const parsed = streamEventSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data.seq : null;
  } catch {
    return null;
  }
}

/** Failures that no reconnect can cure until the user signs in again (or steps up). */
export function terminal(f: PullFailure): LiveEnd | null {
  if (f.kind === 'store') return null;
  if (f.kind === 'unauthenticated' || (f.kind === 'http' && f.status === 401)) return { reason: 'unauthorized', failure: f };
  if (f.kind === 'forbidden' || f.kind === 'step_up' || (f.kind === 'http' && f.status === 403)) return { reason: 'forbidden', failure: f };
  if (f.kind === 'aborted') return { reason: 'aborted' };
  return null;
}
