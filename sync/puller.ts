import { syncChanges, syncStream } from '../schema/api/calls.ts';
import { SYNC_BATCH_DEFAULT, SYNC_BATCH_MAX } from '../schema/constants.ts';
import { streamEventSchema, type ChangesResponse } from '../schema/sync-feed.ts';
import type { Clock, MirrorStore } from './ports.ts';
import type { HttpClient, HttpResult } from './http.ts';
import { callWithRetry } from './retry.ts';
import { readSse } from './sse.ts';
import { FIRST_PAGE_MARKS, markFirstPage } from './first-page-marks.ts';
import type { EarlyFirstPage, FeedAnswer } from './first-page.ts';
import { IDLE, nextLoopState, type LoopEvent, type LoopState } from './loop-state.ts';
import {
  MIN_BATCH, initialLive, reduceLive, reducePull, startPull, terminal,
  type FeedQuery, type LiveEnd, type LiveEvent, type PullerEvent, type PullFailure, type PullResult,
} from './puller-reducer.ts';

export * from './puller-reducer.ts';

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
  /**
   * Issue 33: a fresh mirror's first page already asked (sync/first-page.ts). Offered to the
   * puller's first ask only: taken when it is that page, dropped otherwise.
   */
  firstPage?: EarlyFirstPage;
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

const DEFAULT_IDLE_TIMEOUT_MS = 45_000;

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

  let early = opts.firstPage ?? null;
  const ask = (query: FeedQuery, signal: AbortSignal | undefined): Promise<FeedAnswer> => {
    const offered = early;
    early = null;
    const taken = offered?.take(query, signal);
    const asked = () => callWithRetry(opts.http, opts.clock, syncChanges, { query, signal });
    // A failed early answer is forgotten: the page is asked as always (with the retry rule).
    return taken ? taken.then((res) => (res.ok || res.kind === 'aborted' ? res : asked())) : asked();
  };
  const pullOnce = (signal: AbortSignal | undefined) => runPull(opts, limit, ask, signal, (seq) => void (checkpoint = seq));

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

  async function live(signal: AbortSignal): Promise<LiveEnd> {
    const run = ++liveRun;
    const step = (event: LoopEvent) => {
      if (run === liveRun) state = nextLoopState(state, event);
    };
    // A new run: resume what an earlier one left paused (a 401 before this sign-in).
    step({ type: 'resume' });
    step({ type: 'start' });
    // Issue 33: a fresh mirror's first page, asked early, is taken now rather than after the
    // stream has opened (on PGlite the stream's open queues behind the feed's statements). The
    // loop's catch-up below joins this pull and runs it once more when it ends, from after the
    // stream opened, so nothing written meanwhile goes unpulled.
    if (early?.pending) void pull(signal);
    const end = await follows(signal, step);
    step(end.reason === 'aborted' ? { type: 'stop' } : { type: 'pause', reason: end.reason });
    return end;
  }

  /** The live loop, as `reduceLive` (puller-reducer.ts) decides it; this carries out its effects. */
  async function follows(signal: AbortSignal, step: (event: LoopEvent) => void): Promise<LiveEnd> {
    const config = { reconnectMs: opts.reconnectMs ?? 1_000, maxReconnectMs: opts.maxReconnectMs ?? 30_000 };
    const retry: { ms: number | null } = { ms: null };
    let state = initialLive;
    let stream: ReadableStream<Uint8Array> | null = null;
    let event: LiveEvent = { type: 'begin', aborted: signal.aborted };
    const at = () => ({ now: opts.clock.now(), jitter: random(), aborted: signal.aborted });
    for (;;) {
      const next = reduceLive(state, event, config);
      state = next.state;
      let answer: LiveEvent | null = null;
      for (const effect of next.effects) {
        switch (effect.type) {
          case 'open': {
            // Open the stream first, then catch up: a write landing between the two is announced.
            const opened = await opts.http.stream(syncStream, { signal });
            stream = opened.ok ? opened.data : null;
            answer = { type: 'opened', result: opened.ok ? { ok: true } : opened };
            break;
          }
          case 'pull':
            answer = { type: 'caught_up', result: await pull(signal), ...at() };
            break;
          case 'follow': {
            const end = await follow(opts, pull, () => checkpoint, stream!, signal, retry);
            answer = { type: 'followed', end, retryMs: retry.ms, ...at() };
            break;
          }
          case 'cancel_stream':
            await stream?.cancel().catch(() => undefined);
            break;
          case 'emit': emit(effect.event); break;
          case 'loop': step(effect.event); break;
          case 'sleep':
            await opts.clock.sleep(effect.ms, signal).catch(() => undefined);
            answer = { type: 'slept', aborted: signal.aborted };
            break;
          case 'end': return effect.end;
        }
      }
      event = answer!;
    }
  }

  return { pull, live, checkpoint: () => checkpoint, loopState: () => state };
}

/** One pull, as `startPull` / `reducePull` (puller-reducer.ts) decide it, page by page. */
async function runPull(
  opts: PullerOptions, limit: number, ask: (query: FeedQuery, signal: AbortSignal | undefined) => Promise<FeedAnswer>,
  signal: AbortSignal | undefined, stored: (seq: number) => void,
): Promise<PullResult> {
  const cp = await opts.store.getCheckpoint();
  stored(cp.seq);
  let step = startPull(cp, limit);
  let inflight: Promise<HttpResult<ChangesResponse>> | null = null;
  /** Whether `inflight` is a first mirror's first page (its milestones are marked for the bench). */
  let firstOfWalk = false;
  /**
   * The batch handed to the store and not yet confirmed stored. The next batch is handed over
   * before waiting for it (the store writes batches in order, a checkpoint only after its rows
   * and every earlier batch: ports.ts), so the store validates and queues the next rows while
   * IndexedDB commits the last ones instead of the two taking turns.
   */
  let storing: { done: Promise<void>; seq: number } | null = null;
  const settle = async () => {
    const batch = storing;
    if (!batch) return;
    storing = null;
    await batch.done;
    stored(batch.seq);
  };
  for (;;) {
    for (const effect of step.effects) {
      switch (effect.type) {
        case 'emit': opts.onEvent?.(effect.event); break;
        case 'fetch':
          firstOfWalk = 'backfill' in effect.query && effect.query.top === undefined;
          if (firstOfWalk) markFirstPage(FIRST_PAGE_MARKS.asked);
          inflight = ask(effect.query, signal);
          inflight.catch(() => undefined); // a prefetch abandoned after a store failure must not go unhandled
          break;
        case 'settle': await settle(); break;
        case 'reset': await opts.store.reset(); break;
        case 'store': {
          const done = opts.store.applyChanges(effect.changes, effect.checkpoint);
          const told = effect.progress;
          done.then(
            () => told && opts.onEvent?.(told),
            () => undefined, // awaited by settle; a batch after a failed one must not go unhandled
          );
          await settle();
          storing = { done, seq: effect.checkpoint.seq };
          break;
        }
        case 'end': return effect.result;
      }
    }
    const res: HttpResult<ChangesResponse> = await inflight!;
    if (firstOfWalk && res.ok) markFirstPage(FIRST_PAGE_MARKS.received);
    step = reducePull(step.state, res.ok ? { type: 'page', page: res.data, status: res.status } : { type: 'failed', failure: res });
  }
}

/**
 * Reads announcements until the stream ends; returns a LiveEnd only when live must stop.
 * A watchdog drops a stream that says nothing (not even the server's heartbeat comment) for
 * idleTimeoutMs: a sleeping laptop or a changed network can leave a connection half-open forever.
 */
async function follow(
  opts: PullerOptions, pull: (signal: AbortSignal) => Promise<PullResult>, seen: () => number,
  body: ReadableStream<Uint8Array>, signal: AbortSignal, retry: { ms: number | null },
) {
  const watch = new AbortController();
  const stopWatching = () => watch.abort();
  signal.addEventListener('abort', stopWatching, { once: true });
  let lastSeen = opts.clock.now();
  void watchdog(opts.clock, opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, watch, () => lastSeen);
  try {
    for await (const item of readSse(body, watch.signal)) {
      lastSeen = opts.clock.now();
      if (item.type === 'retry') retry.ms = item.ms;
      if (item.type !== 'event' || item.event !== 'seq') continue;
      const announced = parseSeq(item.data);
      if (announced === null || announced <= seen()) continue;
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

/** Aborts `watch` once nothing was seen for idleMs. */
async function watchdog(clock: Clock, idle: number, watch: AbortController, lastSeen: () => number) {
  while (!watch.signal.aborted) {
    const quiet = clock.now() - lastSeen();
    if (quiet >= idle) return watch.abort();
    try {
      await clock.sleep(idle - quiet, watch.signal);
    } catch {
      return;
    }
  }
}

function parseSeq(data: string): number | null {
  try {
    const parsed = streamEventSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data.seq : null;
  } catch {
    return null;
  }
}

