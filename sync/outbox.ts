import { errorBody, validationMessages } from '../schema/errors.ts';
import type { ApiError } from './http.ts';
import type { Clock, LocalFilesPort, OptimisticPort, OutboxEntry, OutboxStore, SessionPort } from './ports.ts';
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
  OUTBOX_LANES,
  transition,
  type AnyCommand,
  type OutboxLane,
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
  /** The device's files, for commands whose body is one (uploads) and their dependents. */
  files?: LocalFilesPort;
}

export interface Outbox {
  /** Stores the entry (make it with createOutboxEntry) and starts sending. */
  enqueue(entry: OutboxEntry): Promise<void>;
  /** Looks for sendable entries now. */
  kick(): void;
  /**
   * failed / conflict / needs_step_up → pending. False when the entry is not in such a state.
   * `amend`: the args to send instead (issue 25: a refused bill create re-sent with
   * `confirm_duplicate`), keeping the entry's place in the queue.
   */
  retry(id: string, amend?: (args: unknown) => unknown): Promise<boolean>;
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
 * Delivers commands oldest sendable first, one at a time per lane (`main`, `upload`): lanes run
 * side by side, so a 10 MB upload never holds back an unrelated edit, while ordering across
 * lanes still follows shared entities and `after` ids (an attach waits for its upload). The loop
 * never sleeps on one entry's backoff while another is sendable; it sleeps only when nothing
 * is, until the earliest backoff ends, a delivery finishes or a kick arrives.
 */
export function createOutbox(opts: OutboxOptions): Outbox {
  const { store, clock } = opts;
  const newKey = opts.newKey ?? (() => crypto.randomUUID());
  const lookup = opts.commands ?? commandDef;
  let cache: OutboxEntry[] = [];
  /** The loop's run while there is one (kicks join it; whenIdle waits on it). */
  let running: Promise<void> | null = null;
  let state: LoopState = IDLE;
  let dirty = false;
  /** Deliveries in flight, one per lane, with their abort controllers. */
  const flights = new Map<OutboxLane, { id: string; done: Promise<void>; ctrl: AbortController }>();
  let wakeCtrl: AbortController | null = null;
  let idleWaiters: (() => void)[] = [];
  /**
   * Store reads and writes one after another: with two deliveries in flight, a listing must not
   * interleave with a delivery's write (it could show an entry just removed as still pending).
   */
  let storeTail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = storeTail.then(fn, fn);
    storeTail = run.catch(() => undefined);
    return run;
  };

  const step = (event: LoopEvent) => void (state = nextLoopState(state, event));
  /** The local file an upload entry sends, if it is one (unknown commands: none). */
  const fileOf = (e: OutboxEntry): string | undefined => {
    try {
      return lookup(e.command).file?.(e.args);
    } catch {
      return undefined;
    }
  };
  const isPaused = () => state.kind === 'paused';
  const inFlight = (id: string) => [...flights.values()].some((f) => f.id === id);

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

  const save = (entry: OutboxEntry) =>
    exclusive(async () => {
      await store.put(entry);
      remember(entry, entry.id);
    });

  const forget = (id: string) =>
    exclusive(async () => {
      await store.remove(id);
      remember(null, id);
    });

  const refresh = () =>
    exclusive(async () => {
      const listed = (await store.list()).filter((e) => e.state !== 'done').sort(byAge);
      cache = listed;
      for (const e of listed) {
        // Nobody is sending it: a previous session stopped mid-request.
        if (e.state === 'sending' && !inFlight(e.id)) {
          const recovered = transition(e, { type: 'recover' }, clock.now());
          await store.put(recovered);
          remember(recovered, e.id);
          const fileId = fileOf(e);
          if (fileId) await opts.files?.setUploadState(fileId, { kind: 'local' });
        }
      }
      return cache;
    });

  async function loop() {
    step({ type: 'start' });
    while (!isPaused()) {
      dirty = false;
      const entries = await refresh();
      const now = clock.now();
      for (const lane of OUTBOX_LANES) {
        if (flights.has(lane) || isPaused()) continue;
        const next = nextEligible(entries, now, lane, lookup);
        if (next) startFlight(lane, next);
      }
      if (dirty) continue;
      const wake = nextWake(entries, now);
      if (flights.size > 0) {
        // Until a delivery ends (then its lane may take the next), a kick, or a backoff's end.
        await sleepUntil(wake, now, [...flights.values()].map((f) => f.done));
        continue;
      }
      if (wake === null) return;
      await sleepUntil(wake, now, []);
    }
    // Paused: the deliveries were aborted; let them record their outcome before the loop ends.
    await Promise.allSettled([...flights.values()].map((f) => f.done));
  }

  function startFlight(lane: OutboxLane, entry: OutboxEntry) {
    const ctrl = new AbortController();
    const done = deliver(entry, ctrl.signal).finally(() => {
      flights.delete(lane);
      dirty = true;
      wakeCtrl?.abort();
    });
    // A store or port threw: reported like a failure of the loop; the entry stays as stored.
    const settled = done.catch((e: unknown) => opts.onError?.(e));
    flights.set(lane, { id: entry.id, done: settled, ctrl });
  }

  async function sleepUntil(until: number | null, now: number, deliveries: Promise<void>[]) {
    wakeCtrl = new AbortController();
    const waitingOnTime = deliveries.length === 0;
    if (waitingOnTime && until !== null) {
      step({ type: 'wait', until });
      notifyIdle();
    }
    try {
      const woken = new Promise<void>((resolve) => wakeCtrl!.signal.addEventListener('abort', () => resolve(), { once: true }));
      const timer = until === null ? new Promise<void>(() => undefined) : clock.sleep(until - now, wakeCtrl.signal).catch(() => undefined);
      await Promise.race([woken, timer, ...deliveries]);
    } finally {
      wakeCtrl.abort();
      if (waitingOnTime) step({ type: 'start' }); // running again, unless paused meanwhile
      wakeCtrl = null;
    }
  }

  async function deliver(entry: OutboxEntry, signal: AbortSignal) {
    const sending = transition(entry, { type: 'send' }, clock.now());
    await save(sending);
    const def = lookup(entry.command);
    const fileId = def.file?.(entry.args);
    if (fileId && opts.files) await opts.files.setUploadState(fileId, { kind: 'uploading' });
    const { event, result } = await send(sending, def, signal);
    const next = transition(sending, event, clock.now());
    if (next.state === 'done') {
      if (fileId && opts.files) await opts.files.setUploadState(fileId, { kind: 'uploaded', server_id: serverIdOf(result) ?? fileId });
      if (def.confirm !== 'none') await opts.optimistic.confirm(next, result?.ok ? result.data : null);
      await forget(next.id);
      return;
    }
    // Roll back before recording the refusal: if we stop in between, the entry is re-sent
    // (same key, same refusal) rather than left failed over a change the server never took.
    if (next.state === 'failed' || next.state === 'conflict') await opts.optimistic.rollback(next);
    if (fileId && opts.files) {
      // The file stays on the device whatever happened: a refused one can be removed by the user.
      await opts.files.setUploadState(fileId, next.last_error && (next.state === 'failed' || next.state === 'conflict')
        ? { kind: 'failed', error: next.last_error }
        : { kind: 'local' });
    }
    await save(next);
    if (event.type === 'unauthorized') {
      step({ type: 'pause', reason: 'unauthorized' });
      opts.session.onUnauthorized();
    }
  }

  async function send(entry: OutboxEntry, def: AnyCommand, signal: AbortSignal): Promise<{ event: OutboxEvent; result: HttpResult<unknown> | null }> {
    const refuse = (error: ApiError) => ({ event: { type: 'rejected', error } as OutboxEvent, result: null });
    const parsed = def.args.safeParse(entry.args);
    if (!parsed.success) return refuse(errorBody('REQUEST_7001', undefined, validationMessages(parsed.error)).error_v2);
    let args: unknown = parsed.data;
    if (def.resolve && opts.files) {
      // Client ids another command created (a receipt uploaded before) go out as the server's.
      const ids = await opts.files.serverIds(def.after?.(args) ?? []);
      args = def.resolve(args, (id) => ids.get(id));
    }
    let file: { body: Blob | Uint8Array; contentType: string } | undefined;
    if (def.file) {
      const found = opts.files ? await opts.files.read(def.file(args)) : null;
      if (!found) return refuse({ ...errorBody('REQUEST_7004').error_v2, message: 'The file is no longer on this device.' });
      file = found;
    }
    const result = await callWithRetry(opts.http, clock, def.call, {
      ...def.request(args),
      ...(file ? { file } : {}),
      idempotencyKey: idempotencyKeyOf(entry),
      // Issue 24: the version the edit was made against; the server merges field by field.
      ...(def.edits && entry.base_seq !== undefined ? { ifMatch: entry.base_seq } : {}),
      signal,
    });
    // A 2xx that refuses the command in its body (one item of a bulk call): refused, as a 4xx would be.
    const refused = result.ok && def.refusal ? def.refusal(result.data, args) : null;
    if (refused) return refuse(refused);
    return { event: classifyOutcome(result, def.call, clock.now()), result };
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
    async retry(id, amend) {
      const entry = await find(id);
      if (!entry || !['failed', 'conflict', 'needs_step_up'].includes(entry.state)) return false;
      const retried = transition(entry, { type: 'retry', newKey: newKey() }, clock.now());
      const next = amend ? { ...retried, args: amend(retried.args) } : retried;
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
      await forget(id);
      kick();
      return true;
    },
    pause(reason = 'stopped') {
      step({ type: 'pause', reason });
      for (const f of flights.values()) f.ctrl.abort();
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

/** The id an upload's answer names (`{ id, … }`), or null when it could not be read. */
function serverIdOf(result: HttpResult<unknown> | null): string | null {
  const id = result?.ok ? (result.data as { id?: unknown } | null)?.id : undefined;
  return typeof id === 'string' ? id : null;
}
