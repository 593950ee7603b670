import { useCallback, useEffect, useState } from 'react';
import type { Comment, CommentInput, CommentSubjectType } from '../../workers/api.ts';
import type { DataClient } from '../data-access/types.ts';
import { errorText } from './error-text.ts';

/** What a thread holds once read: the comments, oldest first, and how many the thread has. */
export interface ThreadRows {
  comments: Comment[];
  total: number;
}

/**
 * A thread as the item's view shows it. Threads are not mirrored, so `offline` and `error` carry
 * what was read earlier in this session (`kept`), shown as such, never as current.
 */
export type ThreadState =
  | { state: 'loading' }
  | { state: 'offline'; kept: ThreadRows | null }
  | { state: 'error'; message: string; kept: ThreadRows | null }
  | ({ state: 'ready' } & ThreadRows);

/** A send's or delete's refusal: the server's error_v2 (or offline), for the caller to word. */
export type ThreadFailure = { error_code: string; message: string; errors?: Record<string, string> };

/**
 * Threads read in this page session, by viewer and item: what an item shows offline after it was
 * open online (a reload forgets them: nothing of a thread is stored on the device).
 */
const kept = new Map<string, ThreadRows>();

export interface CommentSubject {
  type: CommentSubjectType;
  id: string;
}

/**
 * One item's thread (issue 29): read from the server when the item opens, again when the
 * connection comes back and on `reload()`; offline at once without asking. Sending and deleting
 * are direct calls; their answers update the thread in place (no re-read), and a refusal is
 * returned for the composer or the comment to show.
 */
export function useCommentThread(client: DataClient, subject: CommentSubject, online: boolean, viewerId: string | null) {
  const key = `${viewerId ?? ''}:${subject.type}:${subject.id}`;
  const [turn, setTurn] = useState(0);
  const [answer, setAnswer] = useState<{ key: string; rows: ThreadRows | null; error: string | null; offline: boolean } | null>(null);

  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.comments(subject.type, subject.id).then(
      (r) => {
        if (!live) return;
        if (r.ok) kept.set(key, { comments: r.comments, total: r.total });
        setAnswer({ key, rows: r.ok ? { comments: r.comments, total: r.total } : null, error: r.ok ? null : errorText(r.error), offline: !r.ok && !!r.offline });
      },
      (err: unknown) => live && setAnswer({ key, rows: null, error: err instanceof Error ? err.message : String(err), offline: false }),
    );
    return () => {
      live = false;
    };
  }, [client, subject.type, subject.id, key, online, turn]);

  /** An answer of ours (a send, a delete) applied to what is shown and kept. */
  const change = useCallback((edit: (rows: ThreadRows) => ThreadRows) => {
    setAnswer((a) => {
      if (!a || a.key !== key || !a.rows) return a;
      const rows = edit(a.rows);
      kept.set(key, rows);
      return { ...a, rows };
    });
  }, [key]);

  const send = useCallback(async (input: Omit<CommentInput, 'subject_type' | 'subject_id'>): Promise<ThreadFailure | null> => {
    const r = await client.createComment({ ...input, subject_type: subject.type, subject_id: subject.id });
    if (!r.ok) return r.error;
    change((rows) => (rows.comments.some((c) => c.id === r.comment.id)
      ? rows
      : { comments: [...rows.comments, r.comment], total: rows.total + 1 }));
    return null;
  }, [client, subject.type, subject.id, change]);

  const remove = useCallback(async (id: string): Promise<ThreadFailure | null> => {
    const r = await client.deleteComment(id);
    if (!r.ok) return r.error;
    change((rows) => ({ comments: rows.comments.filter((c) => c.id !== id), total: Math.max(0, rows.total - 1) }));
    return null;
  }, [client, change]);

  const reload = useCallback(() => setTurn((n) => n + 1), []);
  return { thread: threadState(online, answer?.key === key ? answer : null, kept.get(key) ?? null), send, remove, reload };
}

/** The thread shown, from the connection, the last answer for this item (null while none) and what this session kept of it. */
export function threadState(online: boolean, answer: { rows: ThreadRows | null; error: string | null; offline: boolean } | null, rows: ThreadRows | null): ThreadState {
  if (!online || answer?.offline) return { state: 'offline', kept: rows };
  if (!answer) return { state: 'loading' };
  if (answer.rows) return { state: 'ready', ...answer.rows };
  return { state: 'error', message: answer.error ?? '', kept: rows };
}
