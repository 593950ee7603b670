import { Component, lazy, Suspense, type ReactNode } from 'react';
import type { CommentSubjectType } from '../../workers/api.ts';
import { useAppState } from '../data-access/data-context.tsx';
import { COMMENTS_OFFLINE } from '../lib/comment-words.ts';
import { Button } from './button.tsx';
import { Skeleton } from './skeleton.tsx';

const load = () => import('./comment-thread.tsx').then((m) => ({ default: m.CommentThread }));
/** A failed chunk fetch stays failed in React.lazy: a retry makes a new one. */
let Thread = lazy(load);

export interface LazyCommentThreadProps {
  subjectType: CommentSubjectType;
  subjectId: string;
}

/**
 * Issue 29: an item's comment thread in its own chunk, fetched when an item is first opened, so
 * the first load (the transactions page is a landing page) does not carry it. Until it comes, the
 * section's heading and a skeleton; if it cannot be fetched (offline before the service worker
 * cached it), the thread's own offline words and, online, a retry.
 */
export function LazyCommentThread({ subjectType, subjectId }: LazyCommentThreadProps) {
  const online = useAppState((s) => s.online);
  return (
    <ChunkBoundary online={online}>
      <Suspense fallback={<ThreadPlaceholder />}>
        <Thread subjectType={subjectType} subjectId={subjectId} />
      </Suspense>
    </ChunkBoundary>
  );
}

function ThreadPlaceholder({ children }: { children?: ReactNode }) {
  return (
    <section className="comment-thread" aria-labelledby="comments-placeholder-heading">
      <h3 id="comments-placeholder-heading" className="claim-section-title">Comments</h3>
      {children ?? (
        <div aria-busy="true">
          <span className="sr-only">Loading comments…</span>
          <Skeleton width="60%" height={14} />
        </div>
      )}
    </section>
  );
}

class ChunkBoundary extends Component<{ online: boolean; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidUpdate(prev: { online: boolean }) {
    // Back online: try the chunk again.
    if (this.state.failed && this.props.online && !prev.online) this.retry();
  }
  retry = () => {
    Thread = lazy(load);
    this.setState({ failed: false });
  };
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <ThreadPlaceholder>
        {this.props.online ? (
          <div className="notice notice-error" role="alert">
            <span>The comments could not be loaded.</span>
            <Button size="sm" onClick={this.retry}>Try again</Button>
          </div>
        ) : (
          <p className="notice" role="status">{COMMENTS_OFFLINE}</p>
        )}
      </ThreadPlaceholder>
    );
  }
}
