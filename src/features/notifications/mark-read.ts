import { MAX_MARK_READ_IDS } from '../../../schema/api/calls-notifications.ts';
import type { DataClient } from '../../data-access/types.ts';
import { matchingIds } from '../../lib/list/collection-reads.ts';
import { errorText } from '../../lib/error-text.ts';
import { chunkIds } from './notification-words.ts';

/** What marking read came to: how many were queued, or the first refusal's words. */
export type MarkReadOutcome = { ok: true; queued: number } | { ok: false; queued: number; message: string };

/**
 * Marks notifications read through the outbox (`notification.markRead`), in chunks the command
 * accepts (MAX_MARK_READ_IDS): each is applied to the mirror at once (the bell's count drops,
 * offline too) and sent when online. Stops at the first refusal and says so.
 */
export async function markRead(client: DataClient, ids: readonly string[]): Promise<MarkReadOutcome> {
  let queued = 0;
  for (const chunk of chunkIds(ids, MAX_MARK_READ_IDS)) {
    const result = await client.run('notification.markRead', { ids: chunk });
    if (!result.ok) return { ok: false, queued, message: errorText(result.error) };
    queued += chunk.length;
  }
  return { ok: true, queued };
}

/** Every unread notification the mirror holds ("Mark all read" sends them all, not only those on screen). */
export function unreadIds(client: DataClient): Promise<string[]> {
  return matchingIds(client, 'notifications', { unread: true }, 'created_desc');
}
