import { requestTimeoutMs, type Platform } from '../schema/platform.ts';
import { createSyncEngine, type SessionPort, type SyncEngine } from '../sync/index.ts';
import { syncLockName } from '../sync/background-sync.ts';
import { MirrorRuntime } from './mirror-runtime.ts';
import { deleteReceiptStore, receiptStoreFor } from './receipt-store.ts';
import type { StoredBusinessSession, StoredSession } from './session-store.ts';
import type { StatusHub } from './status-hub.ts';
import type { DataServiceDeps } from './worker-deps.ts';

/** What the host reads of the worker's context (WorkerContext, which owns the host). */
export interface MirrorHostContext {
  readonly deps: DataServiceDeps;
  readonly hub: StatusHub;
  readonly baseUrl: string;
  readonly sessionPort: SessionPort;
  readonly deviceId: string | null;
  readonly stored: StoredSession | null;
  readonly platform: Platform;
}

/**
 * The mirror host: the session's open mirror (one per business and user) and, in the tab that
 * holds the Web Lock, the sync engine running over it. Opening elects a leader; closing stops
 * the engine and closes (or, when nothing is left to send, deletes) the mirror.
 */
export class MirrorHost {
  runtime: MirrorRuntime | null = null;
  engine: SyncEngine | null = null;
  private withdraw: (() => void) | null = null;
  private dbName: string | null = null;

  constructor(private readonly ctx: MirrorHostContext) {}

  /** Only the main app's session has a mirror (issue 31: no other surface opens one). */
  async open(stored: StoredBusinessSession): Promise<void> {
    const { deps, hub } = this.ctx;
    const runtime = await MirrorRuntime.open({
      name: stored.db_name,
      storage: deps.storage,
      multiInstance: deps.multiInstance,
      defer: deps.defer,
      now: () => deps.clock.now(),
      actor: { user_id: stored.session.user.id, business_id: stored.session.business.id },
      onDataChanged: (collections) => hub.dataChanged(collections),
      onOutboxChanged: () => {
        hub.setCounts(runtime.outboxIndex.counts());
        this.engine?.kick();
      },
      onError: (e) => hub.setError(e instanceof Error ? e.message : String(e)),
    });
    this.runtime = runtime;
    this.dbName = stored.db_name;
    hub.attach(runtime);
    if (stored.expired) hub.setPhase('signed_out');
    if (deps.sync === false) return;
    this.withdraw = deps.elector.elect(syncLockName(stored.db_name), (signal) => this.lead(runtime, signal, stored.db_name));
  }

  /** This tab won the lock: run the sync engine until leadership ends or the mirror closes. */
  private lead(runtime: MirrorRuntime, signal: AbortSignal, dbName: string): void {
    if (this.runtime !== runtime || signal.aborted) return;
    const { deps, hub, platform } = this.ctx;
    const engine = createSyncEngine({
      baseUrl: this.ctx.baseUrl,
      transport: deps.transport,
      clock: deps.clock,
      session: this.ctx.sessionPort,
      mirror: runtime.mirror,
      outboxStore: runtime.outboxStore,
      optimistic: runtime.mirror,
      // Upload commands read their bytes from the mirror's receipt store.
      files: receiptStoreFor(dbName),
      onStatus: (s) => hub.setEngineStatus(s),
      leader: true,
      platform,
      timeoutMs: requestTimeoutMs(platform),
      device: () => this.ctx.deviceId,
    });
    this.engine = engine;
    hub.setLeader(true);
    engine.setOnline(hub.online);
    if (!this.ctx.stored?.expired) engine.start();
    signal.addEventListener('abort', () => {
      if (this.engine === engine) this.engine = null;
      hub.setLeader(false);
      void engine.stop();
    }, { once: true });
  }

  async close(removeIfClean: boolean): Promise<void> {
    const runtime = this.runtime;
    const engine = this.engine;
    this.runtime = null;
    this.engine = null;
    this.withdraw?.();
    this.withdraw = null;
    await engine?.stop();
    this.ctx.hub.detach();
    if (!runtime) return;
    if (removeIfClean && runtime.outboxIndex.entries().length === 0) {
      await runtime.remove();
      // Every upload was delivered: the files are on the server.
      if (this.dbName) await deleteReceiptStore(this.dbName).catch(() => undefined);
    } else await runtime.close();
  }
}
