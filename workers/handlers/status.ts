import { QUERIED_COLLECTIONS } from '../../schema/collections.ts';
import type { DownloadAgainResult, StatusApi } from '../api.ts';
import { probeServer } from '../../sync/reachability.ts';
import { CHECKPOINT_ID } from '../db.ts';
import type { WorkerContext } from '../worker-context.ts';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * When the mirror last heard from the server: the later of the last time the sync reached `live`
 * here (caught up with the feed) and the checkpoint's last write. What Settings → Offline data
 * shows, and the time offline answers read from the mirror are marked with (banking's bank list).
 */
export interface SyncClock {
  /** ISO time, or null when this device has not synced the open mirror yet (or none is open). */
  lastSyncedAt(): Promise<string | null>;
  /** The mirror was emptied ("Download again"): the last `live` no longer counts. */
  forget(): void;
}

export function syncClock(ctx: WorkerContext): SyncClock {
  // The last time the sync reached `live` here, wall-clock ms.
  let lastLive: number | null = null;
  ctx.hub.subscribe(
    (s) => {
      if (s.phase === 'live') lastLive = ctx.deps.clock.now();
    },
    () => undefined,
  );
  return {
    async lastSyncedAt() {
      const rt = ctx.host.runtime;
      if (!rt) return null;
      const checkpoint = await rt.db.meta.findOne(CHECKPOINT_ID).exec().catch(() => null);
      const stored = checkpoint?.toJSON(true) as { value?: { epoch?: string | null }; _meta?: { lwt?: number } } | undefined;
      // A checkpoint without an epoch was never pulled into: a new or emptied mirror (its layout
      // reconciled, "Download again") writes one at seq 0, which is no sync.
      const written = typeof stored?.value?.epoch === 'string' ? (stored._meta?.lwt ?? null) : null;
      const last = Math.max(lastLive ?? 0, written ?? 0);
      return last > 0 ? new Date(last).toISOString() : null;
    },
    forget() {
      lastLive = null;
    },
  };
}

/**
 * Status: the hub's SyncStatus and change notifications, the page's online state, and what the
 * device holds offline (Settings → Offline data: row counts, last sync, "Download again").
 */
export function statusHandlers(ctx: WorkerContext, clock: SyncClock = syncClock(ctx)): StatusApi {

  const refuse = (reason: Exclude<DownloadAgainResult, { ok: true }>['reason'], message: string, waiting = 0): DownloadAgainResult => ({
    ok: false, reason, waiting, message,
  });

  return {
    status: async () => ctx.hub.status(),
    subscribe: async (onStatus, onDataChanged) => ctx.hub.subscribe(onStatus, onDataChanged),
    async setOnline(online) {
      const wasOnline = ctx.hub.online;
      ctx.hub.setOnline(online);
      ctx.host.engine?.setOnline(online);
      if (!online || wasOnline) return;
      // Back online is a claim: ask the server (the hub hears the answer, or its absence).
      if (ctx.baseUrl) void probeServer(ctx.deps.transport, ctx.baseUrl);
      void ctx.refreshIdentity();
    },

    async offlineData() {
      const rt = ctx.host.runtime;
      if (!rt) return { rows: {}, waiting: 0, last_synced_at: null };
      await rt.ready.catch(() => undefined);
      const rows: Record<string, number> = {};
      for (const c of QUERIED_COLLECTIONS) rows[c] = rt.engines[c].size;
      for (const [kind, list] of Object.entries(rt.refs.snapshot())) rows[kind] = (list as unknown[]).length;
      return { rows, waiting: rt.outboxIndex.entries().length, last_synced_at: await clock.lastSyncedAt() };
    },

    async downloadAgain() {
      const rt = ctx.host.runtime;
      if (!rt || !ctx.stored || ctx.stored.expired) return refuse('signed_out', 'Sign in to download your data again.');
      if (!ctx.hub.online) return refuse('offline', 'You are offline. Connect to the internet to download your data again.');
      const waiting = rt.outboxIndex.entries().length;
      if (waiting > 0) {
        return refuse(
          'waiting',
          `${plural(waiting, 'change', 'changes')} on this device ${waiting === 1 ? 'has' : 'have'} not synced yet. They are kept: once they are sent (or you discard the failed ones), download again.`,
          waiting,
        );
      }
      const engine = ctx.host.engine;
      if (!engine && ctx.deps.sync !== false) {
        return refuse('other_tab', 'Another Ledgerline tab is keeping this device in sync. Download again from that tab, or close it and try again.');
      }
      // Stopped first, so no pull in flight writes a checkpoint over the rewound one. The outbox
      // is not touched (clearMirroredRows keeps it), so a change made meanwhile is kept too.
      await engine?.stop();
      try {
        await rt.mirror.reset();
        clock.forget();
      } finally {
        if (engine && ctx.host.engine === engine && ctx.stored && !ctx.stored.expired) engine.start();
      }
      return { ok: true };
    },
  };
}
