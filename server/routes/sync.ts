import type { Context } from 'hono';
import { stream } from 'hono/streaming';
import { syncChanges, syncStream } from '../../schema/api/calls.ts';
import { highWater } from '../db/change-seq.ts';
import { readChangesJson } from '../feed/changes.ts';
import type { AppDeps } from '../core/deps.ts';
import { actorOf, okJsonText, type DomainHandlers } from '../http/handler.ts';

const sseEvent = (seq: number) => `event: seq\ndata: ${JSON.stringify({ seq })}\n\n`;

/**
 * SSE: first the business's current high water, then one `seq` event per committed change (from
 * any API process, via the notifier), and a comment line every heartbeat so proxies and clients
 * can tell a quiet stream from a dead one. Clients pull the feed on each event; the event only
 * says "there is something newer than N".
 */
function openStream(c: Context, deps: AppDeps, businessId: string): Response {
  c.header('content-type', 'text/event-stream; charset=utf-8');
  c.header('cache-control', 'no-cache, no-transform');
  c.header('x-accel-buffering', 'no');
  return stream(c, async (s) => {
    let last = -1;
    const pending: number[] = [];
    const push = (seq: number) => {
      if (last < 0) pending.push(seq);
      else if (seq > last) {
        last = seq;
        void s.write(sseEvent(seq)).catch(() => s.abort());
      }
    };
    const done = new Promise<void>((resolve) => s.onAbort(resolve));
    // Subscribe before reading the high water, so a commit in between is not lost.
    const unsubscribe = await deps.notifier.subscribe(businessId, { onSeq: push, onClose: () => s.abort() });
    const heartbeat = setInterval(() => void s.write(': heartbeat\n\n').catch(() => s.abort()), deps.heartbeatMs);
    try {
      const first = await highWater(deps.db, businessId);
      last = Math.max(first, ...pending);
      await s.write(`retry: 3000\n${sseEvent(last)}`);
      await done;
    } finally {
      clearInterval(heartbeat);
      unsubscribe();
    }
  });
}

export const syncHandlers = {
  // The page as JSON text (docs spliced in as PostgreSQL wrote them), prepared ahead when the
  // client walks the feed (deps.feedPages). A GET runs on deps.db, which the prepared read uses too.
  [syncChanges.id]: async (ctx) => {
    const user = actorOf(ctx).user;
    return okJsonText(await ctx.deps.feedPages.read(user, ctx.input.query, (q) => readChangesJson(ctx.deps.db, user, q)));
  },
  [syncStream.id]: async (ctx) => openStream(ctx.c, ctx.deps, actorOf(ctx).businessId),
} satisfies DomainHandlers;
