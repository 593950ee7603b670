import { useId, useMemo, useState, type ReactNode } from 'react';
import type { Comment, CommentSubjectType } from '../../workers/api.ts';
import { fullName } from '../../schema/entities/spend-user.ts';
import { useAppState, useDataClient } from '../data-access/data-context.tsx';
import { bodySegments, type Mentionable } from '../lib/comment-mentions.ts';
import { COMMENTS_OFFLINE, COMPOSER_OFFLINE, commentsHeading, initials, isSystemComment, relativeTime, sendRefusalText } from '../lib/comment-words.ts';
import { errorText } from '../lib/error-text.ts';
import { formatLocalDateTime } from '../lib/format.ts';
import { useReferenceAnswer } from '../lib/reference-data.ts';
import { useCommentThread, type ThreadFailure, type ThreadState } from '../lib/use-comment-thread.ts';
import { Button } from './button.tsx';
import { CommentComposer } from './comment-composer.tsx';
import { Skeleton } from './skeleton.tsx';
import './comment-thread.css';
import { useNow } from '../lib/use-now.ts';

export interface CommentThreadProps {
  subjectType: CommentSubjectType;
  subjectId: string;
}


/**
 * Issue 29, an item's comment thread (transaction, claim, bill, spend request): a "Comments"
 * section read online when the item opens (threads are not mirrored), with the composer under it.
 * Offline it says so, shows what it read earlier in this session, and the composer waits.
 */
export function CommentThread({ subjectType, subjectId }: CommentThreadProps) {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const viewerId = useAppState((s) => s.session?.user.id ?? null);
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const reference = useReferenceAnswer(client, referenceVersion);
  const subject = useMemo(() => ({ type: subjectType, id: subjectId }), [subjectType, subjectId]);
  const { thread, send, remove, reload } = useCommentThread(client, subject, online, viewerId);
  const now = useNow();
  const people = useMemo<Mentionable[]>(
    () => (reference?.users ?? [])
      .filter((u) => u.status === 'ACTIVE' && u.id !== viewerId)
      .map((u) => ({ id: u.id, name: fullName(u), email: u.email })),
    [reference, viewerId],
  );
  const composer = (
    <CommentComposer
      key={subjectId}
      people={people}
      disabledReason={online ? null : COMPOSER_OFFLINE}
      onSend={async (body, mentioned, id) => {
        const refused = await send({ id, body, mention_ids: mentioned.map((m) => m.id) });
        return refused && sendRefusalText(refused, mentioned);
      }}
    />
  );
  return <CommentThreadView thread={thread} now={now} composer={composer} onDelete={remove} onRetry={reload} />;
}

export interface CommentThreadViewProps {
  thread: ThreadState;
  now: number;
  composer: ReactNode;
  onDelete(id: string): Promise<ThreadFailure | null>;
  onRetry(): void;
}

/** The thread as its state says: skeleton while it loads, the comments oldest first, offline and error notes. */
export function CommentThreadView({ thread, now, composer, onDelete, onRetry }: CommentThreadViewProps) {
  const headingId = useId();
  const rows = thread.state === 'ready' ? thread : thread.state === 'loading' ? null : thread.kept;
  return (
    <section className="comment-thread" aria-labelledby={headingId} aria-busy={thread.state === 'loading' || undefined}>
      <h3 id={headingId} className="claim-section-title">{commentsHeading(rows?.comments.length ?? null, rows?.total ?? null)}</h3>
      {thread.state === 'loading' && <ThreadSkeleton />}
      {thread.state === 'offline' && (
        <p className="notice comment-note" role="status">
          {COMMENTS_OFFLINE}
          {thread.kept && ' These are the comments as they were when you last had a connection.'}
        </p>
      )}
      {thread.state === 'error' && (
        <div className="notice notice-error comment-note" role="alert">
          <span>The comments could not be read: {thread.message}</span>
          <Button size="sm" onClick={onRetry}>Try again</Button>
        </div>
      )}
      {thread.state === 'ready' && thread.comments.length === 0 && <p className="muted comment-empty">No comments yet. Ask a question or leave a note for the people on this item.</p>}
      {rows && rows.comments.length > 0 && (
        <ol className="comment-list">
          {rows.comments.map((c) => (
            <CommentItem key={c.id} comment={c} now={now} canDelete={c.can_delete && thread.state === 'ready'} onDelete={onDelete} />
          ))}
        </ol>
      )}
      {composer}
    </section>
  );
}

/** The loading state: the shape of two comments, "Loading comments…" for assistive tech. */
export function ThreadSkeleton() {
  return (
    <div className="comment-skeleton">
      <span className="sr-only">Loading comments…</span>
      {[0, 1].map((i) => (
        <div key={i} className="comment-skeleton-row">
          <Skeleton className="comment-avatar-skeleton" width={28} height={28} />
          <div className="comment-skeleton-lines">
            <Skeleton width="40%" height={12} />
            <Skeleton width="85%" height={14} />
          </div>
        </div>
      ))}
    </div>
  );
}

function CommentItem({ comment, now, canDelete, onDelete }: { comment: Comment; now: number; canDelete: boolean; onDelete(id: string): Promise<ThreadFailure | null> }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const system = isSystemComment(comment);
  const full = formatLocalDateTime(comment.created_at);
  async function confirm() {
    setBusy(true);
    const refused = await onDelete(comment.id);
    setBusy(false);
    if (refused) setError(errorText(refused));
    else setConfirming(false);
  }
  return (
    <li className={system ? 'comment comment-system' : 'comment'}>
      <span className="comment-avatar" aria-hidden="true">{system ? '⚙' : initials(comment.author_name)}</span>
      <div className="comment-main">
        <div className="comment-head">
          <span className="comment-author">{comment.author_name}</span>
          <time className="comment-time" dateTime={comment.created_at} title={full}>{relativeTime(comment.created_at, now)}</time>
          {canDelete && !confirming && (
            <Button variant="ghost" size="sm" className="comment-delete" onClick={() => setConfirming(true)}>
              Delete<span className="sr-only"> comment by {comment.author_name}, {full}</span>
            </Button>
          )}
        </div>
        <p className="comment-body">
          {bodySegments(comment.body, comment.mentions).map((s, i) => (s.mention ? <mark key={i} className="comment-mention">{s.text}</mark> : s.text))}
        </p>
        {confirming && (
          <div className="comment-confirm" role="group" aria-label="Delete this comment?">
            <span>Delete this comment? Everyone on this item stops seeing it.</span>
            <Button size="sm" variant="danger" loading={busy} onClick={() => void confirm()}>Delete comment</Button>
            <Button size="sm" variant="ghost" autoFocus disabled={busy} onClick={() => (setConfirming(false), setError(null))}>Keep</Button>
          </div>
        )}
        {error && <p className="form-error" role="alert">{error}</p>}
      </div>
    </li>
  );
}
