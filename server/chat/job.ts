import type { Db } from '../db/db.ts';
import { deliverDueChat, type ChatDeliveryOptions } from './delivery.ts';
import { CHAT_CHANNEL } from './outbox.ts';
import { startKickedJob, type KickedJob } from '../core/periodic-job.ts';

export type ChatJob = KickedJob;

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
  return startKickedJob(db, CHAT_CHANNEL, () => deliverDueChat(db, deliver), { everyMs: opts.everyMs ?? 30_000, onError });
}
