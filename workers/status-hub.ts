import type { Subscription } from 'rxjs';
import type { Clock, SyncPhase, SyncStatus } from '../sync/ports.ts';
import type { OutboxCounts } from '../sync/outbox-machine.ts';
import type { ServerReach } from '../sync/reachability.ts';
import type { MirrorRuntime } from './mirror-runtime.ts';
import { CHECKPOINT_ID } from './db.ts';

/**
 * What the UI is told, and when. Sync status comes from this tab's engine when it leads, or
 * from the leader's last status stored in the shared `meta` collection when it follows; the
 * outbox counts always come from the shared outbox, so every tab shows the same "N pending".
 * Notifications are coalesced: at most one status and one data-changed call per 50 ms.
 */
const NOTIFY_MS = 50;
const SHARE_MS = 500;
const SHARED_STATUS = 'sync_status';

type StatusListener = (s: SyncStatus) => void;
type DataListener = (collections: string[]) => void;

export class StatusHub {
  private statusListeners = new Set<StatusListener>();
  private dataListeners = new Set<DataListener>();
  private changed = new Set<string>();
  private statusDirty = false;
  private flushScheduled = false;
  private shareScheduled = false;
  private signedOut = false;
  private leader = false;
  private engineStatus: SyncStatus | null = null;
  private leaderStatus: SyncStatus | null = null;
  private lastError: string | null = null;
  private counts: OutboxCounts = { pending: 0, pendingItems: 0, failed: 0, needsStepUp: 0 };
  /** The stored checkpoint's first-mirror state (any tab, before or without an engine). */
  private stored: { mirrored: boolean; first: { loaded: number; total: number } | null } = { mirrored: false, first: null };
  private runtime: MirrorRuntime | null = null;
  private sub: Subscription | null = null;
  /**
   * What the requests say of the server while the interface is up (sync/reachability.ts):
   * `untested` at start (navigator.onLine is taken at its word until a request answers or not),
   * `probing` after the interface came back (offline until something answers), then the evidence.
   */
  private reach: 'untested' | 'probing' | ServerReach = 'untested';

  constructor(
    private readonly clock: Clock,
    public online: boolean,
  ) {}

  status(): SyncStatus {
    const base = this.leader ? this.engineStatus : this.leaderStatus;
    const counts = this.runtime?.outboxIndex.counts() ?? this.counts;
    let phase: SyncPhase = base?.phase ?? 'idle';
    const online = this.online && (this.reach === 'answered' || this.reach === 'untested');
    if (!online) phase = 'offline';
    if (this.signedOut) phase = 'signed_out';
    // First mirror complete: the engine's (or leader's) word, or the stored checkpoint's (an
    // offline start, a follower before the leader shared anything). Both follow a reset.
    const mirrored = (base?.mirrored ?? false) || this.stored.mirrored;
    return {
      phase,
      online,
      ...(this.online && this.reach === 'silent' ? { reachable: false } : {}),
      progress: base?.progress ?? (mirrored ? null : this.stored.first),
      mirrored,
      checkpoint: base?.checkpoint ?? 0,
      ...counts,
      leader: this.leader,
      lastError: this.lastError ?? base?.lastError ?? null,
    };
  }

  subscribe(onStatus: StatusListener, onData: DataListener): () => void {
    this.statusListeners.add(onStatus);
    this.dataListeners.add(onData);
    onStatus(this.status());
    return () => {
      this.statusListeners.delete(onStatus);
      this.dataListeners.delete(onData);
    };
  }

  attach(runtime: MirrorRuntime): void {
    this.detach();
    this.runtime = runtime;
    this.signedOut = false;
    this.lastError = null;
    this.sub = runtime.db.meta.eventBulks$.subscribe((bulk) => {
      for (const ev of bulk.events) {
        if (ev.documentId === SHARED_STATUS && ev.operation !== 'DELETE') {
          this.leaderStatus = (ev.documentData as { value: SyncStatus }).value;
        }
        if (ev.documentId === CHECKPOINT_ID && ev.operation !== 'DELETE') {
          this.stored = storedMirror((ev.documentData as { value: unknown }).value);
          this.touchStatus();
        }
      }
      if (!this.leader) this.touchStatus();
    });
    void runtime.db.meta.findOne(SHARED_STATUS).exec().then((doc) => {
      if (doc && !this.leaderStatus) this.leaderStatus = doc.toJSON().value as SyncStatus;
    });
    void runtime.db.meta.findOne(CHECKPOINT_ID).exec().then((doc) => {
      if (doc && this.runtime === runtime) {
        this.stored = storedMirror(doc.toJSON().value);
        this.touchStatus();
      }
    }, () => undefined);
    this.touchStatus();
  }

  detach(): void {
    this.sub?.unsubscribe();
    this.sub = null;
    if (this.runtime) this.counts = this.runtime.outboxIndex.counts();
    this.runtime = null;
    this.stored = { mirrored: false, first: null };
    this.engineStatus = null;
    this.leaderStatus = null;
    this.leader = false;
    this.touchStatus();
  }

  setPhase(phase: SyncPhase): void {
    this.signedOut = phase === 'signed_out';
    if (!this.signedOut) this.lastError = null;
    this.touchStatus();
  }

  /** The interface's state (the page's online/offline events): back up, it is offline until something answers. */
  setOnline(online: boolean): void {
    if (online && !this.online) this.reach = 'probing';
    if (!online) this.reach = 'untested';
    this.online = online;
    this.touchStatus();
  }

  /** A request's evidence (reportingTransport): the server answered, or it did not. */
  setReachable(reach: ServerReach): void {
    if (!this.online || reach === this.reach) return;
    this.reach = reach;
    this.touchStatus();
  }

  setLeader(leader: boolean): void {
    this.leader = leader;
    this.touchStatus();
  }

  setError(message: string): void {
    this.lastError = message;
    this.touchStatus();
  }

  setCounts(counts: OutboxCounts): void {
    this.counts = counts;
    this.touchStatus();
  }

  setEngineStatus(s: SyncStatus): void {
    this.engineStatus = s;
    this.touchStatus();
    this.shareStatus();
  }

  dataChanged(collections: readonly string[]): void {
    for (const c of collections) this.changed.add(c);
    this.statusDirty = true; // outbox counts may have moved
    this.scheduleFlush();
  }

  private touchStatus(): void {
    this.statusDirty = true;
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    void this.clock.sleep(NOTIFY_MS).then(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.statusDirty) {
      this.statusDirty = false;
      const s = this.status();
      for (const l of this.statusListeners) safely(() => l(s));
    }
    if (this.changed.size > 0) {
      const collections = [...this.changed];
      this.changed.clear();
      for (const l of this.dataListeners) safely(() => l(collections));
    }
  }

  /** The leader stores its status (throttled) so follower tabs can show it too. */
  private shareStatus(): void {
    if (this.shareScheduled || !this.leader) return;
    this.shareScheduled = true;
    void this.clock.sleep(SHARE_MS).then(async () => {
      this.shareScheduled = false;
      const runtime = this.runtime;
      if (!runtime || !this.leader || !this.engineStatus) return;
      await runtime.db.meta.upsert({ id: SHARED_STATUS, value: this.engineStatus }).catch(() => undefined);
    });
  }
}

/** The first-mirror fields of the stored checkpoint (mirror-store.ts writes them). */
function storedMirror(value: unknown): { mirrored: boolean; first: { loaded: number; total: number } | null } {
  const v = value as { mirrored?: unknown; first?: { loaded?: unknown; total?: unknown } } | undefined;
  const first = typeof v?.first?.loaded === 'number' && typeof v.first.total === 'number' ? { loaded: v.first.loaded, total: v.first.total } : null;
  return { mirrored: v?.mirrored === true, first };
}

/** A listener that throws (e.g. a closed Comlink proxy) must not stop the others. */
function safely(fn: () => unknown): void {
  try {
    // Through Comlink a listener call returns a promise, which rejects once the page is gone.
    const result = fn();
    if (result instanceof Promise) result.catch(() => undefined);
  } catch {
    // the UI side went away; it unsubscribes on unload
  }
}
