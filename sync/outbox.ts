import { errorBody, validationMessages } from '../schema/errors.ts';
import type { Clock, OptimisticPort, OutboxEntry, OutboxStore, SessionPort } from './ports.ts';
import type { HttpClient, HttpResult } from './http.ts';
import { callWithRetry } from './retry.ts';
import { IDLE, nextLoopState, type LoopEvent, type LoopState, type PauseReason } from './loop-state.ts';
import {
  byAge,
  classifyOutcome,
  commandDef,
  countEntries,
  idempotencyKeyOf,
  nextEligible,
  nextWake,
  transition,
  type AnyCommand,
  type OutboxCounts,
  type OutboxEvent,
} from './outbox-machine.ts';

export * from './outbox-machine.ts';

export interface OutboxOptions {
  store: OutboxStore;
  http: HttpClient;
  optimistic: OptimisticPort;
  clock: Clock;
  /** Told about a 401: the outbox pauses itself and keeps the entry pending. */
  session: Pick<SessionPort, 'onUnauthorized'>;
  /** Called after every persisted change with the unfinished entries (oldest first) and counts. */
  onChange?: (entries: OutboxEntry[], counts: OutboxCounts) => void;
  /** A store or port threw: the loop stops until the next kick. */
  onError?: (error: unknown) => void;
  /** Fresh Idempotency-Keys for retries after a definite refusal. */
  newKey?: () => string;
  /** Command lookup; the schema's COMMANDS unless a test brings its own. */
  commands?: (name: string) => AnyCommand;
}

export interface Outbox {
  /** Stores the entry (make it with createOutboxEntry) and starts sending. */
  enqueue(entry: OutboxEntry): Promise<void>;
  /** Looks for sendable entries now. */
  kick(): void;
  /** failed / conflict / needs_step_up → pending. False when the entry is not in such a state. */
  retry(id: string): Promise<boolean>;
  /** Rolls back (unless already rolled back) and removes. False when unknown or being sent. */
  discard(id: string): Promise<boolean>;
  /** Offline, signed out, stopped: aborts the request in flight (its entry goes back to pending). */
  pause(reason?: PauseReason): void;
  resume(): void;
  paused(): boolean;
  /** The delivery loop's state: idle, running, waiting-retry{until}, paused{reason}. */
  loopState(): LoopState;
  /** Resolves once nothing is sendable right now (idle, or waiting out a backoff). */
  whenIdle(): Promise<void>;
  entries(): OutboxEntry[];
  counts(): OutboxCounts;
}

/**
 * Delivers commands one at a time, oldest sendable first. The loop never sleeps on one entry's
 * backoff while another is sendable; it sleeps only when nothing is, until the earliest backoff
 * ends or a kick arrives.
 */
export function createOutbox(opts: OutboxOptions): Outbox {
  const { store, clock } = opts;
  const newKey = opts.newKey ?? (() => crypto.randomUUID());
  let cache: OutboxEntry[] = [];
  /** The loop's run while there is one (kicks join it; whenIdle waits on it). */
  let running: Promise<void> | null = null;
  let state: LoopState = IDLE;
  let dirty = false;
  let inFlight: string | null = null;
  let wakeCtrl: AbortController | null = null;
  let flightCtrl: AbortController | null = null;
  let idleWaiters: (() => void)[] = [];

  const step = (event: LoopEvent) => void (state = nextLoopState(state, event));
  const isPaused = () => state.kind === 'paused';

  const notifyIdle = () => {
    const waiters = idleWaiters;
    idleWaiters = [];
    waiters.forEach((w) => w());
  };

  function remember(entry: OutboxEntry | null, id: string) {
    const rest = cache.filter((e) => e.id !== id);
    cache = entry && entry.state !== 'done' ? [...rest, entry].sort(byAge) : rest;
    opts.onChange?.(cache, countEntries(cache));
  }

  async function save(entry: OutboxEntry) {
    await store.put(entry);
    remember(entry, entry.id);
  }

  async function refresh() {
    const listed = (await store.list()).filter((e) => e.state !== 'done').sort(byAge);
    cache = listed;
    for (const e of listed) {
      // Nobody is sending it: a previous session stopped mid-request.
      if (e.state === 'sending' && e.id !== inFlight) await save(transition(e, { type: 'recover' }, clock.now()));
    }
    return cache;
  }

  async function loop() {
    step({ type: 'start' });
    while (!isPaused()) {
      dirty = false;
      const entries = await refresh();
      const now = clock.now();
      const next = nextEligible(entries, now);
      if (next) {
        await deliver(next);
        continue;
      }
      if (dirty) continue;
      const wake = nextWake(entries, now);
      if (wake === null) return;
      await sleepUntil(wake, now);
    }
  }

  async function sleepUntil(until: number, now: number) {
    wakeCtrl = new AbortController();
    step({ type: 'wait', until });
    notifyIdle();
    try {
      await clock.sleep(until - now, wakeCtrl.signal);
    } catch {
      // woken by a kick or a pause
    } finally {
      step({ type: 'start' }); // running again, unless paused meanwhile
      wakeCtrl = null;
    }
  }

  async function deliver(entry: OutboxEntry) {
    const sending = transition(entry, { type: 'send' }, clock.now());
    await save(sending);
    inFlight = entry.id;
    const { event, result } = await send(sending);
    inFlight = null;
    const next = transition(sending, event, clock.now());
    if (next.state === 'done') {
      await opts.optimistic.confirm(next, result?.ok ? result.data : null);
      await store.remove(next.id);
      remember(null, next.id);
      return;
    }
    // Roll back before recording the refusal: if we stop in between, the entry is re-sent
    // (same key, same refusal) rather than left failed over a change the server never took.
    if (next.state === 'failed' || next.state === 'conflict') await opts.optimistic.rollback(next);
    await save(next);
    if (event.type === 'unauthorized') {
      step({ type: 'pause', reason: 'unauthorized' });
      opts.session.onUnauthorized();
    }
  }

  async function send(entry: OutboxEntry): Promise<{ event: OutboxEvent; result: HttpResult<unknown> | null }> {
    const def = (opts.commands ?? commandDef)(entry.command);
    const args = def.args.safeParse(entry.args);
    if (!args.success) {
      const error = errorBody('REQUEST_7001', undefined, validationMessages(args.error)).error_v2;
      return { event: { type: 'rejected', error }, result: null };
    }
    flightCtrl = new AbortController();
    try {
      const result = await callWithRetry(opts.http, clock, def.call, {
        ...def.request(args.data),
        idempotencyKey: idempotencyKeyOf(entry),
        signal: flightCtrl.signal,
      });
      return { event: classifyOutcome(result, def.call, clock.now()), result };
    } finally {
      flightCtrl = null;
    }
  }

  function kick() {
    if (isPaused()) return;
    dirty = true;
    wakeCtrl?.abort();
    if (running) return;
    running = loop()
      .catch((e: unknown) => opts.onError?.(e))
      .finally(() => {
        running = null;
        step({ type: 'done' });
        notifyIdle();
        // A kick that landed while the loop was on its way out must not be lost.
        if (dirty && !isPaused()) kick();
      });
  }

  async function find(id: string) {
    return (await store.list()).find((e) => e.id === id) ?? null;
  }

  return {
    async enqueue(entry) {
      await save(entry);
      kick();
    },
    kick,
    async retry(id) {
      const entry = await find(id);
      if (!entry || !['failed', 'conflict', 'needs_step_up'].includes(entry.state)) return false;
      const next = transition(entry, { type: 'retry', newKey: newKey() }, clock.now());
      if (entry.state !== 'needs_step_up') await opts.optimistic.reapply?.(next);
      await save(next);
      kick();
      return true;
    },
    async discard(id) {
      const entry = await find(id);
      if (!entry || entry.state === 'sending' || entry.state === 'done') return false;
      // failed and conflict entries were rolled back when refused; roll back exactly once.
      if (entry.state === 'pending' || entry.state === 'needs_step_up') await opts.optimistic.rollback(entry);
      await store.remove(id);
      remember(null, id);
      kick();
      return true;
    },
    pause(reason = 'stopped') {
      step({ type: 'pause', reason });
      flightCtrl?.abort();
      wakeCtrl?.abort();
    },
    resume() {
      step({ type: 'resume' });
      kick();
    },
    paused: isPaused,
    loopState: () => state,
    whenIdle() {
      // A kick may have just cut a sleep short: then the loop is not idle until it looks again.
      if (!running || (state.kind === 'waiting-retry' && !dirty)) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    entries: () => cache,
    counts: () => countEntries(cache),
  };
}
