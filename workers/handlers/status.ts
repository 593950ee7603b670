import type { StatusApi } from '../api.ts';
import type { WorkerContext } from '../worker-context.ts';

/** Status: the hub's SyncStatus and change notifications, and the page's online state. */
export function statusHandlers(ctx: WorkerContext): StatusApi {
  return {
    status: async () => ctx.hub.status(),
    subscribe: async (onStatus, onDataChanged) => ctx.hub.subscribe(onStatus, onDataChanged),
    async setOnline(online) {
      const wasOnline = ctx.hub.online;
      ctx.hub.setOnline(online);
      ctx.host.engine?.setOnline(online);
      if (online && !wasOnline) void ctx.refreshIdentity();
    },
  };
}
