import type {
  Clock, LocalFilesPort, MirrorStore, OptimisticPort, OutboxEntry, OutboxStore, SessionPort, SyncStatus, Transport,
} from './ports.ts';
import { createHttpClient, type HttpClient, type Platform } from './http.ts';
import { createOutbox } from './outbox.ts';
import { createPuller, terminal, type LiveEnd, type Puller, type PullerEvent } from './puller.ts';
import type { EarlyFirstPage } from './first-page.ts';
import { initialEngineState, reduceEngine, type EngineEvent } from './phase.ts';

export interface SyncEngineOptions {
  baseUrl: string;
  transport: Transport;
  clock: Clock;
  session: SessionPort;
  mirror: MirrorStore;
  outboxStore: OutboxStore;
  optimistic: OptimisticPort;
  /** The device's files, for upload commands (the worker's receipt store). */
  files?: LocalFilesPort;
  onStatus?: (status: SyncStatus) => void;
  /** Called with every outbox change (unfinished entries, oldest first), e.g. to mark rows. */
  onOutboxChange?: (entries: OutboxEntry[]) => void;
  /** Per request; §9 default for the platform (none on web). */
  timeoutMs?: number | null;
  platform?: Platform;
  batchSize?: number;
  /** The leader tab runs the engine; a follower passes false and never starts it. */
  leader?: boolean;
  /** This device's id (issue 24): sent as X-Ledgerline-Device with every write. */
  device?: () => string | null | undefined;
  /** Issue 33: a fresh mirror's first page asked before the engine existed (sync/first-page.ts). */
  firstPage?: EarlyFirstPage;
}

export interface SyncEngine {
  /** Starts pulling, following the stream and sending the outbox (again after a new sign-in). */
  start(): void;
  /** Stops everything; resolves when the stream is closed and no request is in flight. */
  stop(): Promise<void>;
  setOnline(online: boolean): void;
  /** Sends what is sendable and pulls now (after a local write, or when the tab regains focus). */
  kick(): void;
  status(): SyncStatus;
  enqueue(entry: OutboxEntry): Promise<void>;
  retry(id: string, amend?: (args: unknown) => unknown): Promise<boolean>;
  discard(id: string): Promise<boolean>;
  /** Resolves once the outbox has nothing sendable right now. */
  whenOutboxIdle(): Promise<void>;
  /** The engine's HTTP client, for sign-in and online calls under the same headers and gate. */
  http: HttpClient;
}

/**
 * Composes the HTTP client, puller and outbox under one phase machine. Every 401 (from a pull,
 * the stream or a command) lands in one place: pause everything, tell the session once, wait
 * for start() after the user signs in again.
 */
export function createSyncEngine(opts: SyncEngineOptions): SyncEngine {
  let state = initialEngineState;
  let progress: SyncStatus['progress'] = null;
  /** First mirror complete: from the stored checkpoint until a pull says otherwise. */
  let mirrored: boolean | null = null;

  const session = engineSession(opts.session, () => unauthorized());
  const http = engineHttp(opts, session);
  const puller = createPuller({
    http, clock: opts.clock, store: opts.mirror, onEvent: onPullerEvent,
    ...(opts.batchSize ? { batchSize: opts.batchSize } : {}),
    ...(opts.firstPage ? { firstPage: opts.firstPage } : {}),
  });
  const outbox = createOutbox({
    store: opts.outboxStore, http, optimistic: opts.optimistic, clock: opts.clock, session,
    ...(opts.files ? { files: opts.files } : {}),
    onChange: (entries) => {
      opts.onOutboxChange?.(entries);
      emit();
    },
    onError: (e) => dispatch({ type: 'fault', message: messageOf(e) }),
  });
  outbox.pause('not_started'); // nothing is sent before start()
  const live = liveLoop(puller, (end) => {
    if (end.reason === 'unauthorized') unauthorized();
    else if (end.reason === 'forbidden') dispatch({ type: 'forbidden', message: end.failure.error.message });
  }, (e) => dispatch({ type: 'pull_failed', message: messageOf(e) }));
  // Known before any pull (an offline start, a follower's status): what the checkpoint says.
  void opts.mirror.getCheckpoint().then(
    (cp) => {
      if (mirrored !== null) return;
      mirrored = cp.mirrored === true;
      emit();
    },
    () => undefined,
  );

  function status(): SyncStatus {
    const c = outbox.counts();
    return {
      phase: state.phase, online: state.online, progress, mirrored: mirrored ?? false, checkpoint: puller.checkpoint(),
      pending: c.pending, pendingItems: c.pendingItems, failed: c.failed, needsStepUp: c.needsStepUp,
      leader: opts.leader ?? true, lastError: state.lastError,
    };
  }

  function emit() {
    opts.onStatus?.(status());
  }

  function dispatch(e: EngineEvent) {
    state = reduceEngine(state, e);
    emit();
  }

  function onPullerEvent(e: PullerEvent) {
    const o = readPullerEvent(e);
    if ('progress' in o) progress = o.progress ?? null;
    if (o.mirrored !== undefined) mirrored = o.mirrored;
    if (o.unauthorized) unauthorized();
    else if (o.event) dispatch(o.event);
    else if ('progress' in o) emit();
  }

  function unauthorized() {
    if (state.phase === 'signed_out') return;
    dispatch({ type: 'unauthorized' });
    void live.stop();
    outbox.pause('unauthorized');
    opts.session.onUnauthorized();
  }

  return {
    start() {
      if (state.phase === 'idle' || state.phase === 'signed_out') dispatch({ type: 'start' });
      if (!state.online) return;
      if (!live.running()) live.start();
      outbox.resume();
    },
    async stop() {
      dispatch({ type: 'stop' });
      outbox.pause('stopped');
      await live.stop();
      await outbox.whenIdle();
    },
    setOnline(online) {
      if (online === state.online) return;
      dispatch({ type: online ? 'online' : 'offline' });
      if (!online) {
        void live.stop();
        outbox.pause('offline');
      } else if (state.phase === 'pulling') {
        live.start();
        outbox.resume();
      }
    },
    kick() {
      outbox.kick();
      const signal = live.signal();
      if (signal) void puller.pull(signal);
    },
    status,
    enqueue: (entry) => outbox.enqueue(entry),
    retry: (id, amend) => outbox.retry(id, amend),
    discard: (id) => outbox.discard(id),
    whenOutboxIdle: () => outbox.whenIdle(),
    http,
  };
}

/**
 * The live loop, one run at a time: a new start aborts the running one, and a run's end (or a
 * bug's rejection) counts only while it is still the current run — an older, replaced run's end is
 * ignored. When a run ends, none is running, so that start() can begin again (e.g. with a token
 * that has the scope).
 */
function liveLoop(puller: Puller, onEnd: (end: LiveEnd) => void, onBug: (e: unknown) => void) {
  let current: { ctrl: AbortController; run: Promise<void> } | null = null;
  const ended = (ctrl: AbortController) => {
    if (current?.ctrl !== ctrl) return false;
    current = null;
    return true;
  };
  const stop = (): Promise<void> => {
    const run = current;
    current = null;
    run?.ctrl.abort();
    return run?.run ?? Promise.resolve();
  };
  return {
    running: () => current !== null,
    signal: () => current?.ctrl.signal,
    stop,
    start() {
      void stop();
      const ctrl = new AbortController();
      const run = puller.live(ctrl.signal).then(
        (end) => void (ended(ctrl) && onEnd(end)),
        // Only a bug gets here (failures are data): report it and let start() try again.
        (e: unknown) => void (ended(ctrl) && onBug(e)),
      );
      current = { ctrl, run };
    },
  };
}

/** The session the engine's parts see: the outer one's tokens, and every 401 to `onUnauthorized`. */
function engineSession(outer: SessionPort, onUnauthorized: () => void): SessionPort {
  return {
    getToken: () => outer.getToken(),
    // A stepped-up token (when the session offers one) goes out on the commands that need it.
    ...(outer.tokenFor ? { tokenFor: (auth: Parameters<NonNullable<SessionPort['tokenFor']>>[0]) => outer.tokenFor?.(auth) ?? null } : {}),
    onUnauthorized,
  };
}

function engineHttp(opts: SyncEngineOptions, session: SessionPort): HttpClient {
  return createHttpClient({
    baseUrl: opts.baseUrl, transport: opts.transport, clock: opts.clock, session,
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.platform ? { platform: opts.platform } : {}),
    ...(opts.device ? { device: opts.device } : {}),
  });
}

interface PullerOutcome {
  /** The first mirror's progress, when the event changes it (null: done). */
  progress?: SyncStatus['progress'];
  mirrored?: boolean;
  event?: EngineEvent;
  unauthorized?: true;
}

/**
 * What a puller event means for the engine: the first mirror's progress and flag, and the phase
 * event. A 401 on any pull (also one started by kick()) signs out; an aborted pull means nothing.
 */
function readPullerEvent(e: PullerEvent): PullerOutcome {
  switch (e.type) {
    case 'pull_started':
      return e.initial
        ? { progress: { loaded: 0, total: 0 }, mirrored: false, event: { type: 'pull_started', initial: true } }
        : { mirrored: true, event: { type: 'pull_started', initial: false } };
    case 'progress':
      return { progress: { loaded: e.loaded, total: e.total } };
    case 'pull_succeeded':
      return { progress: null, mirrored: true, event: { type: 'pull_succeeded' } };
    case 'pull_failed':
      if (e.failure.kind === 'aborted') return {};
      return terminal(e.failure)?.reason === 'unauthorized'
        ? { unauthorized: true }
        : { event: { type: 'pull_failed', message: e.failure.error.message } };
    default:
      return {};
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
