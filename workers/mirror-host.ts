import type { CommandActor } from '../schema/commands/define-command.ts';
import { requestTimeoutMs, type Platform } from '../schema/platform.ts';
import {
  askFirstPage, createSyncEngine, startsWalk, type EarlyFirstPage, type HttpClient, type SessionPort, type SyncEngine,
} from '../sync/index.ts';
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
  /** Issue 33: a sign-in's mirror opened while its identity is asked (`prepare`), not yet the session's. */
  private prepared: Prepared | null = null;
  /** Issue 33: that mirror's first feed page, asked before the engine exists (sync/first-page.ts). */
  private early: { name: string; page: EarlyFirstPage } | null = null;

  constructor(private readonly ctx: MirrorHostContext) {}

  /**
   * Issue 33, a first sign-in's first row: as soon as the token names the business and user, open
   * their mirror and, when it is fresh, ask its first feed page, beside the identity request
   * instead of after it (the engine takes that page: sync/first-page.ts). A mirror this device
   * does not hold is known fresh before it opens (`mirrorOnDisk`); one it holds asks only once
   * its checkpoint says fresh. Nothing is written: the session is stored, and the engine started,
   * by `open` as before. Only while no mirror is open (a switch or a resume goes the usual way).
   */
  prepare(name: string, actor: CommandActor, http: HttpClient): void {
    if (this.runtime || this.prepared?.name === name) return;
    this.unprepare();
    const asks = this.ctx.deps.sync !== false;
    const prepared: Prepared = { name, runtime: null, dropped: false, created: false };
    const ask = () => {
      if (asks && !prepared.dropped && !this.early) this.early = { name, page: askFirstPage(http) };
    };
    prepared.runtime = (async () => {
      prepared.created = (await mirrorOnDisk(name, this.ctx.deps.storage)) === false;
      if (prepared.created) ask();
      const rt = await this.openRuntime(name, actor);
      if (asks && !prepared.dropped && !this.early && startsWalk(await rt.mirror.getCheckpoint())) ask();
      return rt;
    })();
    prepared.runtime.catch(() => undefined); // `open` opens it again and reports the failure
    this.prepared = prepared;
  }

  /** The sign-in `prepare` began did not complete: close its mirror (removed when opening created it) and drop its early page. */
  unprepare(): void {
    const prepared = this.prepared;
    this.prepared = null;
    this.dropEarly();
    closePrepared(prepared);
  }

  /** Only the main app's session has a mirror (issue 31: no other surface opens one). */
  async open(stored: StoredBusinessSession): Promise<void> {
    const { deps, hub } = this.ctx;
    const prepared = this.prepared;
    this.prepared = null;
    let runtime: MirrorRuntime | null = null;
    if (prepared?.name === stored.db_name) runtime = await prepared.runtime?.catch(() => null) ?? null;
    else closePrepared(prepared);
    if (this.early?.name !== stored.db_name) this.dropEarly();
    runtime ??= await this.openRuntime(stored.db_name, { user_id: stored.session.user.id, business_id: stored.session.business.id });
    this.runtime = runtime;
    this.dbName = stored.db_name;
    hub.attach(runtime);
    // A prepared mirror's outbox may have loaded before it was the session's (its counts were not told).
    hub.setCounts(runtime.outboxIndex.counts());
    if (stored.expired) hub.setPhase('signed_out');
    if (deps.sync === false) return;
    this.withdraw = deps.elector.elect(syncLockName(stored.db_name), (signal) => this.lead(runtime, signal, stored.db_name));
  }

  private async openRuntime(name: string, actor: CommandActor): Promise<MirrorRuntime> {
    const { deps, hub } = this.ctx;
    let opened: MirrorRuntime | null = null;
    opened = await MirrorRuntime.open({
      name,
      storage: deps.storage,
      multiInstance: deps.multiInstance,
      defer: deps.defer,
      now: () => deps.clock.now(),
      actor,
      onDataChanged: (collections) => hub.dataChanged(collections),
      onOutboxChanged: () => {
        // A prepared mirror, not yet the session's, tells the hub nothing (`open` sets its counts).
        if (!opened || this.runtime !== opened) return;
        hub.setCounts(opened.outboxIndex.counts());
        this.engine?.kick();
      },
      onError: (e) => hub.setError(e instanceof Error ? e.message : String(e)),
    });
    return opened;
  }

  private dropEarly(): void {
    this.early?.page.drop();
    this.early = null;
  }

  /** The early first page, for the engine of mirror `name` only (taken once: the puller's first ask decides). */
  private takeEarly(name: string): EarlyFirstPage | null {
    const early = this.early;
    this.early = null;
    if (early?.name === name && early.page.pending) return early.page;
    early?.page.drop();
    return null;
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
      ...withEarly(this.takeEarly(dbName)),
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
    if (runtime) this.dropEarly();
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

interface Prepared {
  name: string;
  runtime: Promise<MirrorRuntime> | null;
  /** Set when the sign-in went another way: its early page must not be asked any more. */
  dropped: boolean;
  /** This device held no such mirror: opening created it (a sign-in that fails leaves nothing behind). */
  created: boolean;
}

function closePrepared(prepared: Prepared | null): void {
  if (!prepared) return;
  prepared.dropped = true;
  void prepared.runtime?.then((rt) => (prepared.created ? rt.remove() : rt.close()), () => undefined);
}

const withEarly = (page: EarlyFirstPage | null): { firstPage?: EarlyFirstPage } => (page ? { firstPage: page } : {});

/**
 * Whether this device holds mirror `name`, from IndexedDB's list of databases (RxDB's Dexie
 * storage names each store `rxdb-dexie-<database>--<version>--<collection>`). Null where it cannot
 * tell (another storage than the default, or no `indexedDB.databases()`): the caller then waits for
 * the mirror's checkpoint. `idb` is for tests.
 */
export async function mirrorOnDisk(
  name: string, storage: unknown, idb: Pick<IDBFactory, 'databases'> | undefined = globalThis.indexedDB,
): Promise<boolean | null> {
  if (storage !== undefined || typeof idb?.databases !== 'function') return null;
  try {
    const names = await idb.databases();
    return names.some((d) => d.name?.startsWith(`rxdb-dexie-${name}--`) === true);
  } catch {
    return null;
  }
}
