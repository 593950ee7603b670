import { errorBody, validationMessages } from '../schema/errors.ts';
import type { ApiError } from './http.ts';
import type { Clock, LocalFilesPort, OptimisticPort, OutboxEntry, OutboxStore, SessionPort } from './ports.ts';
import type { HttpClient, HttpResult } from './http.ts';
import { callWithRetry } from './retry.ts';
import type { LoopState, PauseReason } from './loop-state.ts';
import { byAge, classifyOutcome, commandDef, countEntries, type AnyCommand, type CommandLookup, type OutboxCounts, type OutboxEvent, type OutboxLane } from './outbox-machine.ts';
import {
  beginDelivery, deliveryOptions, fileOf, initialOutboxLoop, isQuiet, planDiscard, planRetry, reduceOutbox, settleDelivery,
  type DeliveryEffect, type OutboxLoopEffect, type OutboxLoopEvent, type OutboxLoopState,
} from './outbox-loop.ts';

export * from './outbox-machine.ts';
export * from './outbox-loop.ts';

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
  /**
   * Store delivered commands `done` with the server's answer instead of removing them
   * (`settleDelivery`'s keepDone): the service worker's delivery, which writes no mirror rows.
   */
  keepDelivered?: boolean;
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
 *
 * What to do next is decided by the pure reducers of outbox-loop.ts; this is their driver: it
 * owns the store, the requests, the timer and the ports, and feeds their answers back as events.
 */
export function createOutbox(opts: OutboxOptions): Outbox {
  const { clock } = opts;
  const newKey = opts.newKey ?? (() => crypto.randomUUID());
  const lookup = opts.commands ?? commandDef;
  const entries = createEntryCache(opts.store, opts.onChange, lookup);
  let state: OutboxLoopState = initialOutboxLoop;
  /** Deliveries in flight, one per lane, by their abort controllers. */
  const flights = new Map<OutboxLane, AbortController>();
  const timer = createTimer(opts.clock, () => dispatch({ type: 'timer_fired' }));
  let idleWaiters: (() => void)[] = [];

  function dispatch(event: OutboxLoopEvent) {
    const step = reduceOutbox(state, event, lookup);
    state = step.state;
    for (const effect of step.effects) run(effect);
  }

  function run(effect: OutboxLoopEffect) {
    switch (effect.type) {
      case 'list':
        entries.list().then(
          (listed) => dispatch({ type: 'listed', entries: listed, now: clock.now() }),
          (e: unknown) => {
            opts.onError?.(e);
            dispatch({ type: 'list_failed' });
          },
        ).catch((e: unknown) => opts.onError?.(e));
        return;
      case 'recover': {
        // Its file is uploading no more: back to waiting.
        const local: DeliveryEffect[] = effect.fileId ? [{ type: 'upload_state', fileId: effect.fileId, state: { kind: 'local' } }] : [];
        perform([{ type: 'persist', entry: effect.entry }, ...local]).catch((e: unknown) => opts.onError?.(e));
        return;
      }
      case 'deliver': {
        const ctrl = new AbortController();
        flights.set(effect.lane, ctrl);
        // A store or port threw: reported like a failure of the loop; the entry stays as stored.
        deliver(effect.entry, ctrl.signal)
          .catch((e: unknown) => opts.onError?.(e))
          .finally(() => {
            flights.delete(effect.lane);
            dispatch({ type: 'flight_ended', lane: effect.lane });
          });
        return;
      }
      case 'set_timer':
        return timer.set(effect.at - effect.now);
      case 'clear_timer':
        return timer.clear();
      case 'abort_flights':
        for (const ctrl of flights.values()) ctrl.abort();
        return;
      case 'idle': {
        const waiters = idleWaiters;
        idleWaiters = [];
        waiters.forEach((w) => w());
      }
    }
  }

  const perform = (effects: readonly DeliveryEffect[]) =>
    performEffects(effects, { entries, optimistic: opts.optimistic, files: opts.files }, () => {
      dispatch({ type: 'pause', reason: 'unauthorized' });
      opts.session.onUnauthorized();
    });

  async function deliver(entry: OutboxEntry, signal: AbortSignal) {
    const fileId = opts.files ? fileOf(entry, lookup) : undefined;
    const begun = beginDelivery(entry, fileId, clock.now());
    await perform(begun.effects);
    const def = lookup(entry.command);
    const outcome = await sendEntry(opts, begun.state, def, signal);
    await perform(settleDelivery(begun.state, outcome, def, fileId, clock.now(), opts.keepDelivered).effects);
  }

  const find = async (id: string) => (await opts.store.list()).find((e) => e.id === id) ?? null;
  const kick = () => dispatch({ type: 'kick' });

  return {
    async enqueue(entry) {
      await entries.save(entry);
      kick();
    },
    kick,
    async retry(id, amend) {
      const entry = await find(id);
      const effects = entry && planRetry(entry, newKey(), amend, clock.now());
      if (!effects) return false;
      await perform(effects);
      kick();
      return true;
    },
    async discard(id) {
      const effects = planDiscard(await find(id));
      if (!effects) return false;
      await perform(effects);
      kick();
      return true;
    },
    pause: (reason = 'stopped') => dispatch({ type: 'pause', reason }),
    resume: () => dispatch({ type: 'resume' }),
    paused: () => state.loop.kind === 'paused',
    loopState: () => state.loop,
    whenIdle() {
      if (isQuiet(state)) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    entries: () => entries.current(),
    counts: () => countEntries(entries.current(), lookup),
  };
}

/** Sends one entry: its args (ids resolved, file read) under its key, the outcome as the machine's event. */
async function sendEntry(
  opts: Pick<OutboxOptions, 'http' | 'clock' | 'files'>, entry: OutboxEntry, def: AnyCommand, signal: AbortSignal,
): Promise<{ event: OutboxEvent; result: HttpResult<unknown> | null }> {
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
  const result = await callWithRetry(opts.http, opts.clock, def.call, {
    ...def.request(args),
    ...(file ? { file } : {}),
    ...deliveryOptions(entry, def),
    signal,
  });
  // A 2xx that refuses the command in its body (one item of a bulk call): refused, as a 4xx would be.
  const refused = result.ok && def.refusal ? def.refusal(result.data, args) : null;
  if (refused) return refuse(refused);
  return { event: classifyOutcome(result, def.call, opts.clock.now()), result };
}

/**
 * The store's entries as the outbox last saw them (`entries()`), kept by every write. Reads and
 * writes run one after another: with two deliveries in flight, a listing must not interleave
 * with a delivery's write (it could show an entry just removed as still pending).
 */
function createEntryCache(store: OutboxStore, onChange: OutboxOptions['onChange'], lookup: CommandLookup) {
  let cache: OutboxEntry[] = [];
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
  function remember(entry: OutboxEntry | null, id: string) {
    const rest = cache.filter((e) => e.id !== id);
    cache = entry && entry.state !== 'done' ? [...rest, entry].sort(byAge) : rest;
    onChange?.(cache, countEntries(cache, lookup));
  }
  return {
    current: () => cache,
    list: () =>
      exclusive(async () => {
        cache = (await store.list()).filter((e) => e.state !== 'done').sort(byAge);
        return cache;
      }),
    save: (entry: OutboxEntry) =>
      exclusive(async () => {
        await store.put(entry);
        remember(entry, entry.id);
      }),
    forget: (id: string) =>
      exclusive(async () => {
        await store.remove(id);
        remember(null, id);
      }),
  };
}

/** Carries out a delivery's (or a user action's) effects, one after another. */
async function performEffects(
  effects: readonly DeliveryEffect[],
  ports: { entries: ReturnType<typeof createEntryCache>; optimistic: OptimisticPort; files: LocalFilesPort | undefined },
  unauthorized: () => void,
) {
  for (const e of effects) {
    switch (e.type) {
      case 'persist': await ports.entries.save(e.entry); break;
      case 'remove': await ports.entries.forget(e.id); break;
      case 'upload_state': await ports.files?.setUploadState(e.fileId, e.state); break;
      case 'confirm': await ports.optimistic.confirm(e.entry, e.response); break;
      case 'rollback': await ports.optimistic.rollback(e.entry); break;
      case 'reapply': await ports.optimistic.reapply?.(e.entry); break;
      case 'unauthorized': unauthorized();
    }
  }
}

/** One timer at a time: setting it again replaces it; `fire` runs only for the newest. */
function createTimer(clock: Clock, fire: () => void) {
  let current: AbortController | null = null;
  return {
    set(ms: number) {
      current?.abort();
      const ctrl = new AbortController();
      current = ctrl;
      clock.sleep(ms, ctrl.signal).then(() => {
        if (current !== ctrl) return;
        current = null;
        fire();
      }, () => undefined);
    },
    clear() {
      current?.abort();
      current = null;
    },
  };
}
