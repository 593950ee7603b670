import { useCallback, useEffect, useState } from 'react';
import type { EntityEvent, EventEntityType } from '../../../schema/event-history.ts';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';

/** What a history holds once read: the events newest first, the cursor of older ones, the currency, this device's id. */
export interface HistoryRows {
  events: EntityEvent[];
  next: string | null;
  currency: string | null;
  device: string | null;
}

/** The section's state: history is read online only (nothing of it is stored on the device). */
export type HistoryState =
  | { state: 'loading' }
  | { state: 'offline' }
  /** The server does not know the entity (made on this device, not synced yet). */
  | { state: 'absent' }
  | { state: 'error'; message: string }
  | ({ state: 'ready'; older: 'idle' | 'loading' | { error: string } } & HistoryRows);

type Answer = { key: string; rows: HistoryRows | null; error: string | null; offline: boolean; absent?: boolean };

/**
 * One entity's history (issue 32): the newest page read when the drawer opens, again when the
 * connection comes back, when the mirror's data changes (`version`: an edit synced, someone
 * else's arrived) and on `reload()`; offline at once without asking. A re-read keeps what is shown
 * until it answers, and keeps the older pages already read (`mergeNewest`). `loadOlder()` appends
 * the next page; its failure stays beside the button, the events read so far kept.
 */
export function useEventHistory(client: DataClient, type: EventEntityType, id: string, online: boolean, version: number) {
  const key = `${type}:${id}`;
  const [turn, setTurn] = useState(0);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [older, setOlder] = useState<{ key: string; state: 'loading' | { error: string } } | null>(null);

  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.entityHistory(type, id).then(
      (r) => {
        if (!live) return;
        setOlder(null);
        setAnswer((a) => (r.ok
          ? { key, rows: mergeNewest(a?.key === key ? a.rows : null, { events: r.history.data, next: r.history.page.next, currency: r.history.currency, device: r.device_id }), error: null, offline: false }
          : { key, rows: null, error: errorText(r.error), offline: !!r.offline, absent: r.error.error_code === 'REQUEST_7004' }));
      },
      (err: unknown) => live && setAnswer({ key, rows: null, error: err instanceof Error ? err.message : String(err), offline: false }),
    );
    return () => {
      live = false;
    };
  }, [client, type, id, key, online, turn, version]);

  const current = answer?.key === key ? answer : null;
  const next = current?.rows?.next ?? null;
  const loadOlder = useCallback(async () => {
    if (!next) return;
    setOlder({ key, state: 'loading' });
    const r = await client.entityHistory(type, id, next);
    if (!r.ok) {
      setOlder({ key, state: { error: r.offline ? 'Older history needs a connection.' : errorText(r.error) } });
      return;
    }
    setOlder(null);
    setAnswer((a) => (a && a.key === key && a.rows && a.rows.next === next
      ? { ...a, rows: { ...a.rows, events: [...a.rows.events, ...r.history.data], next: r.history.page.next } }
      : a));
  }, [client, type, id, key, next]);

  const reload = useCallback(() => setTurn((n) => n + 1), []);
  return { history: historyState(online, current, older?.key === key ? older.state : 'idle'), loadOlder, reload };
}

/**
 * The newest page read again over what is shown: the older pages already read stay when the new
 * page reaches back to what was shown (it holds the first event shown); else the new page alone.
 */
export function mergeNewest(shown: HistoryRows | null, fresh: HistoryRows): HistoryRows {
  if (!shown || fresh.next === null || shown.events.length <= fresh.events.length) return fresh;
  const ids = new Set(fresh.events.map((e) => e.id));
  if (!ids.has(shown.events[0]!.id)) return fresh;
  return { ...fresh, events: [...fresh.events, ...shown.events.filter((e) => !ids.has(e.id))], next: shown.next };
}

/** The state shown, from the connection, the last answer for this entity (null while none) and the older page's read. */
export function historyState(online: boolean, answer: Omit<Answer, 'key'> | null, older: 'idle' | 'loading' | { error: string }): HistoryState {
  if (!online || answer?.offline) return { state: 'offline' };
  if (!answer) return { state: 'loading' };
  if (answer.absent) return { state: 'absent' };
  if (answer.rows) return { state: 'ready', older, ...answer.rows };
  return { state: 'error', message: answer.error ?? '' };
}
