import { randomUUID } from 'node:crypto';
import { CHAT_EVENTS, type ChatEvent, type ChatProvider } from '../../schema/api/calls-chat.ts';
import type { Queryable } from '../db/db.ts';

/** Notified inside the enqueuing transaction: delivered only if it commits, so it kicks the chat job after commit. */
export const CHAT_CHANNEL = 'ledgerline_chat';

/** A notification just made, as notify() holds it (the event key is not on the wire's doc). */
export type ChatNotice = { owner_id: string; kind: string; title: string; body?: string; path: string; event_key: string };

const isChatEvent = (kind: string): kind is ChatEvent => (CHAT_EVENTS as readonly string[]).includes(kind);

/** The channel's words: the notifications are written to one person ("your approval"), a post to a team. */
function channelTitle(n: ChatNotice, ownerName: string): string {
  if (n.kind === 'approval_waiting') return n.title.replace(/ is waiting for your approval$/, ' is waiting for approval');
  return ownerName ? n.title.replace(/^Your /, `${ownerName}'s `) : n.title;
}

/**
 * One chat post per configured channel for each new notification a channel hears (issue 32),
 * inside the notification's transaction (a rolled-back write posts nothing). A post is per event,
 * not per person: the approvers of one approval share the event key, so the channel hears it once.
 * `linkBase` is the app's /chat-link as the request's mail links are built (absolute in a request).
 */
export async function enqueueChatPosts(tx: Queryable, businessId: string, made: readonly ChatNotice[], linkBase: string): Promise<number> {
  const wanted = made.filter((n) => isChatEvent(n.kind));
  if (wanted.length === 0) return 0;
  const channels = await tx.query<{ provider: ChatProvider; events: ChatEvent[] }>(
    'SELECT provider, events FROM chat_connections WHERE business_id = $1 ORDER BY provider', [businessId],
  );
  if (channels.length === 0) return 0;
  const owners = await tx.query<{ id: string; name: string }>(
    `SELECT id::text, trim(first_name || ' ' || last_name) AS name FROM spend_users WHERE id = ANY($1::uuid[])`,
    [[...new Set(wanted.map((n) => n.owner_id))]],
  );
  const names = new Map(owners.map((o) => [o.id, o.name]));
  let queued = 0;
  for (const n of wanted) {
    // Waiting: a delegate's own line ("You can decide it for…") is not the channel's; rejected: the reason and who decided.
    const body = n.kind === 'rejected' ? n.body ?? '' : '';
    for (const c of channels.filter((ch) => ch.events.includes(n.kind as ChatEvent))) {
      const rows = await tx.query(
        `INSERT INTO chat_posts (id, business_id, provider, event_key, kind, title, body, path, link_base, run_after)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
         ON CONFLICT (business_id, provider, event_key) DO NOTHING RETURNING id`,
        [randomUUID(), businessId, c.provider, n.event_key, n.kind, channelTitle(n, names.get(n.owner_id) ?? ''), body, n.path, linkBase],
      );
      queued += rows.length;
    }
  }
  if (queued > 0) await tx.notify(CHAT_CHANNEL, businessId);
  return queued;
}
