import webpush from 'web-push';
import { completeLeased, doublingBackoff, drainDue, failLeased, type DrainTally, type LeasedQueue } from '../core/leased-queue.ts';
import { OutboundRefused, outboundFetch, type OutboundOptions } from '../core/outbound-fetch.ts';
import type { Queryable } from '../db/db.ts';
import { loadVapidKeys } from './vapid.ts';

/**
 * Delivers push_deliveries (issue 32) to the push services through the one outbound door
 * (server/core/outbound-fetch.ts: public https addresses only, checked at every push). web-push
 * builds each request — the payload encrypted for the subscription (RFC 8291 aes128gcm) and the
 * VAPID JWT signed with the server's key (RFC 8292) — and the door sends it. A push service's
 * 404/410 means the subscription is gone: it is deleted and its pushes dropped. 429/5xx retry.
 * `Topic` is the notification's id, so a push sent twice (a lease lost mid-send) replaces itself
 * at the push service instead of showing twice.
 */
export const PUSH_QUEUE: LeasedQueue = { table: 'push_deliveries', leaseMs: 60_000, maxAttempts: 6, backoffMs: doublingBackoff(30_000, 3_600_000) };

export type PushDeliveryOptions = {
  net: Pick<OutboundOptions, 'allowLoopbackHttp' | 'dnsServer'>;
  /** The VAPID `sub` claim: an https: or mailto: URL the push service may contact (LEDGERLINE_PUSH_SUBJECT). */
  subject: string;
  now: () => number;
  log?: (line: string) => void;
};

type Row = { id: string; attempts: number; token: string; notification_id: string; title: string; body: string; path: string };
type Sub = { endpoint: string; p256dh: string; auth: string };

/** What the service worker receives (sw: `push` event): the words and the path to open. */
export type PushPayload = { title: string; body: string; path: string; tag: string };

async function pushOne(sub: Sub, row: Row, opts: PushDeliveryOptions, db: Queryable): Promise<{ ok: true } | { ok: false; gone: boolean; retry: boolean; error: string }> {
  const vapid = await loadVapidKeys(db);
  const payload: PushPayload = { title: row.title, body: row.body, path: row.path, tag: row.notification_id };
  const req = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, JSON.stringify(payload), {
    vapidDetails: { subject: opts.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    TTL: 24 * 3600, contentEncoding: 'aes128gcm', urgency: 'normal', topic: row.notification_id.replace(/-/g, ''),
  });
  let res: Response;
  try {
    res = await outboundFetch(req.endpoint, {
      method: req.method, headers: req.headers as Record<string, string>, body: new Uint8Array(req.body as Buffer), redirect: 'error',
    }, { allowLoopbackHttp: opts.net.allowLoopbackHttp, dnsServer: opts.net.dnsServer });
  } catch (err) {
    if (!(err instanceof OutboundRefused)) throw err;
    return { ok: false, gone: false, retry: true, error: 'The push service could not be reached (it must be a public https address that answers within 5 seconds).' };
  }
  if (res.ok) return { ok: true };
  const said = (await res.text().catch(() => '')).replace(/\s+/g, ' ').trim().slice(0, 200);
  const error = `The push service answered ${res.status}${said ? ` (${said})` : ''}.`;
  if (res.status === 404 || res.status === 410) return { ok: false, gone: true, retry: false, error };
  return { ok: false, gone: false, retry: res.status === 429 || res.status >= 500, error };
}

async function deliverOne(db: Queryable, row: Row, opts: PushDeliveryOptions): Promise<'sent' | 'queued' | 'failed' | 'dropped' | null> {
  const now = new Date(opts.now());
  const [sub] = await db.query<Sub>('SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE token = $1', [row.token]);
  if (!sub) return (await completeLeased(db, PUSH_QUEUE, row, now, 'dropped')) ? 'dropped' : null;
  const outcome = await pushOne(sub, row, opts, db);
  if (outcome.ok) {
    await db.query('UPDATE push_subscriptions SET last_error = NULL WHERE token = $1', [row.token]);
    return (await completeLeased(db, PUSH_QUEUE, row, now, 'sent')) ? 'sent' : null;
  }
  if (outcome.gone) {
    await db.query('DELETE FROM push_subscriptions WHERE token = $1', [row.token]);
    return (await completeLeased(db, PUSH_QUEUE, row, now, 'dropped')) ? 'dropped' : null;
  }
  await db.query('UPDATE push_subscriptions SET last_error = $2 WHERE token = $1', [row.token, outcome.error]);
  return failLeased(db, PUSH_QUEUE, row, now, outcome.error, { final: !outcome.retry });
}

export type PushTally = DrainTally;

/** Claims and sends due pushes until none is left. */
export async function deliverDuePushes(db: Queryable, opts: PushDeliveryOptions): Promise<PushTally> {
  return drainDue<Row>(db, PUSH_QUEUE, opts.now, (row) => deliverOne(db, row, opts), (row) =>
    (opts.log ?? console.error)(`[ledgerline] push ${row.id} failed for good after ${row.attempts} attempts`));
}
