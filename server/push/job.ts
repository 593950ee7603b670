import type { Db } from '../db/db.ts';
import { startKickedJob, type KickedJob } from '../core/periodic-job.ts';
import { deliverDuePushes, type PushDeliveryOptions } from './delivery.ts';
import { PUSH_CHANNEL } from './outbox.ts';

/** The push job of one process (`npm start` starts it): kicked by every committed enqueue, swept every 30 s for retries. */
export async function startPushJob(db: Db, opts: Omit<PushDeliveryOptions, 'now'> & {
  now?: () => number; everyMs?: number; onError?: (err: unknown) => void;
}): Promise<KickedJob> {
  const deliver: PushDeliveryOptions = { ...opts, now: opts.now ?? Date.now };
  const onError = opts.onError ?? ((err: unknown) => console.error('[ledgerline] push job', err));
  return startKickedJob(db, PUSH_CHANNEL, () => deliverDuePushes(db, deliver), { everyMs: opts.everyMs ?? 30_000, onError });
}
