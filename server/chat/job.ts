import type { Db } from '../db/db.ts';
import { deliverDueChat, type ChatDeliveryOptions } from './delivery.ts';
import { CHAT_CHANNEL } from './outbox.ts';

export type ChatJob = { runNow: () => Promise<void>; stop: () => Promise<void> };

/**
 * The chat job of one process (`npm start` starts it): kicked by every committed enqueue (LISTEN
 * on CHAT_CHANNEL) and swept every `everyMs` (30 s) for retries and rows a crashed process left.
 * A kick during a run runs again once it ends, so a post committed while the last claim came back
 * empty is not left to the sweep.
 */
export async function startChatJob(db: Db, opts: Omit<ChatDeliveryOptions, 'now'> & {
  now?: () => number; everyMs?: number; onError?: (err: unknown) => void;
}): Promise<ChatJob> {
  const deliver: ChatDeliveryOptions = { ...opts, now: opts.now ?? Date.now };
  const onError = opts.onError ?? ((err: unknown) => console.error('[ledgerline] chat job', err));
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const runNow = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await deliverDueChat(db, deliver).then(() => undefined, onError);
      } while (again && !stopped);
    })().finally(() => { running = null; });
    return running;
  };
  const unlisten = await db.listen(CHAT_CHANNEL, () => { if (!stopped) void runNow(); });
  const timer = setInterval(() => void runNow(), opts.everyMs ?? 30_000);
  timer.unref();
  void runNow();
  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await unlisten().catch(() => undefined);
      await running;
    },
  };
}
