import type { BackfillCursor, Change, MirroredCollection } from '../schema/sync-feed.ts';
import type { CommandName } from '../schema/commands/index.ts';
import type { ErrorV2 } from '../schema/errors.ts';
import type { CallAuth, StepUpScope } from '../schema/api/scopes.ts';

/**
 * The sync engine's ports: everything it touches outside itself is injected here, so tests
 * drive it with a fake clock, a fake store and the real server (or a scripted transport).
 */
export interface Clock {
  now(): number;
  /** Resolves after ms, or rejects with an AbortError when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(t);
        reject(signal.reason);
      }, { once: true });
    }),
};

export type Transport = typeof fetch;

/** Where the id token lives; the engine reads it per request and reports when it is refused. */
export interface SessionPort {
  getToken(): string | null;
  /**
   * Optional: the token for one call, when it is not always the session's (a stepped-up token
   * is sent only on calls that need its step-up scope). Absent: getToken() for every call.
   */
  tokenFor?(auth: CallAuth): string | null;
  /** The server refused the token (401): pause and ask the user to sign in again. */
  onUnauthorized(): void;
}

/** The mirror as the puller sees it. applyChanges writes rows and checkpoint atomically. */
/**
 * Where the pull stands, stored with the rows. `mirrored`: the first mirror is complete (a pull
 * reached the end of the feed since the mirror was last emptied); absent = false (also for
 * checkpoints stored before issue 8: the next pull to the end writes it). `first`: while the first
 * mirror runs, rows received of rows the feed announced at `after=0`, so a resumed first mirror
 * (reload, crash) keeps its progress.
 * `backfill`: a first mirror's walk (newest first, schema/sync-feed.ts) is under way and goes on
 * from this cursor; `seq` stays 0 until the walk ends, then becomes the walk's top (H0) and the
 * forward pull goes on from there. Absent: no walk (or a mirror stored before it).
 */
export interface PullCheckpoint {
  seq: number;
  epoch: string | null;
  mirrored?: boolean;
  first?: { loaded: number; total: number };
  backfill?: BackfillCursor;
}

export interface MirrorStore {
  getCheckpoint(): Promise<PullCheckpoint>;
  /**
   * Resolves once the rows and then the checkpoint are stored. The puller hands over the next
   * batch before the last one resolves: a store applies batches in call order and must never
   * store a checkpoint while an earlier batch of the pull failed (its rows would be skipped).
   */
  applyChanges(changes: Change[], checkpoint: PullCheckpoint & { epoch: string }): Promise<void>;
  /** Visibility changed (role/team): drop everything mirrored and pull from 0. */
  reset(): Promise<void>;
}

/** One mirrored entity, qualified by its collection (ids are unique within a collection). */
export interface EntityRef {
  collection: MirroredCollection;
  id: string;
}

/** Several entities of one collection: what one outbox entry touches. */
export interface EntityRefs {
  collection: MirroredCollection;
  ids: readonly string[];
}

export type OutboxState = 'pending' | 'sending' | 'needs_step_up' | 'conflict' | 'failed' | 'done';

/**
 * One durable command. `id` is the Idempotency-Key. `entity_ids` are rows of the command's
 * collection (`entityRefs(entry)` qualifies them): the collection is part of the command's
 * definition, so the stored shape stays the one every device already has (a new stored field
 * would need a new outbox schema version and a migration, see workers/CONTEXT.md).
 */
export interface OutboxEntry {
  id: string;
  command: CommandName;
  args: unknown;
  entity_ids: string[];
  created_at: number;
  attempts: number;
  state: OutboxState;
  /** When the next attempt may start (backoff after a network failure). */
  not_before: number;
  /** True once a request may have reached the server: a re-send must reuse the same key. */
  maybe_sent: boolean;
  last_error: ErrorV2['error_v2'] | null;
  step_up_scope: StepUpScope | null;
  /**
   * The Idempotency-Key of the next send when it is not `id`: a user's retry after a definite
   * refusal (4xx) gets a fresh key, since the server may have stored the refusal under the old
   * one and would replay it. Absent means `id`. Persist it with the entry.
   */
  idempotency_key?: string;
  /**
   * Issue 24: the `change_seq` of the server row the edit was made against (the mirror's stored
   * row when the command was queued, or a conflict's `current_version` for an edit the conflict
   * drawer re-queues); sent as `If-Match`. Absent (entries stored before, creates, rows created
   * offline): no If-Match, the server applies as before.
   */
  base_seq?: number;
  /**
   * Issue 26: what the server answered a command the service worker delivered with no tab open
   * (state `done`): for a `row` confirm the row, else `{ change_seq }` (null: unreadable). Such an
   * entry stays stored so the next open (offline too) shows the change over the mirror's older
   * row (`OptimisticPort.confirm` with this answer) until the feed passes its seq; then it goes.
   */
  answer?: Record<string, unknown> | null;
}

export interface OutboxStore {
  /** All entries not yet done, oldest first. */
  list(): Promise<OutboxEntry[]>;
  put(entry: OutboxEntry): Promise<void>;
  remove(id: string): Promise<void>;
}

/**
 * Applies and reverts a command's optimistic effect on the mirror. The worker keeps the
 * confirmed row under the optimistic one so a rollback restores exactly what the server had.
 */
export interface OptimisticPort {
  rollback(entry: OutboxEntry): Promise<void>;
  confirm(entry: OutboxEntry, response: unknown): Promise<void>;
  /**
   * Re-applies a command's optimistic effect when the user retries an entry that was rolled
   * back (failed or conflict). Optional: without it a retried edit shows once the server confirms.
   */
  reapply?(entry: OutboxEntry): Promise<void>;
}

/** Where a local file's upload stands (what the UI shows beside its thumbnail). */
export type UploadState =
  | { kind: 'local' }
  | { kind: 'uploading' }
  | { kind: 'uploaded'; server_id: string }
  | { kind: 'failed'; error: ErrorV2['error_v2'] };

/**
 * Files kept on the device for upload commands (a command definition's `file`): the worker's
 * receipt store. The outbox stores nothing of a file itself; it reads the bytes when it sends.
 */
export interface LocalFilesPort {
  /** The bytes and type of a local file, or null when it is no longer on the device. */
  read(id: string): Promise<{ body: Blob | Uint8Array; contentType: string } | null>;
  /** The server's ids of client ids whose upload answered one (absent: none yet). */
  serverIds(ids: readonly string[]): Promise<Map<string, string>>;
  /** An upload changed state: sending, back to waiting, uploaded (the server's id), refused. */
  setUploadState(id: string, state: UploadState): Promise<void>;
}

export type SyncPhase = 'idle' | 'initial' | 'pulling' | 'live' | 'offline' | 'signed_out' | 'error';

export interface SyncStatus {
  phase: SyncPhase;
  online: boolean;
  /** First mirror progress: rows received of rows announced (total from the first page). */
  progress: { loaded: number; total: number } | null;
  /**
   * The first mirror is complete on this device (from the stored checkpoint, then from the
   * engine's pulls). False while it runs, after a visibility reset, and before anything is known.
   */
  mirrored: boolean;
  checkpoint: number;
  pending: number;
  /**
   * The changes the pending entries are, as the person counts them (a bulk edit of 1,485 rows
   * is 1,485; issue 25). Absent in a status stored before it: read `pending` then.
   */
  pendingItems?: number;
  failed: number;
  needsStepUp: number;
  leader: boolean;
  lastError: string | null;
  /**
   * False when the device has a network but the server does not answer (sync/reachability.ts:
   * the last request failed without an answer, or a captive portal answered); `online` is false
   * then too. Absent or true otherwise (no interface is `online: false` alone).
   */
  reachable?: boolean;
}
