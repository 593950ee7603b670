import { lazy, Suspense, type ComponentType } from 'react';
import type { CommentSubjectType } from '../../workers/api.ts';
import { COMMENTS_OFFLINE } from '../lib/comment-offline.ts';
import { Skeleton } from './skeleton.tsx';

export interface LazyCommentThreadProps {
  subjectType: CommentSubjectType;
  subjectId: string;
}

/** The thread's chunk; a failed fetch answers the offline note, and the next item opened tries again. */
const load = (): Promise<{ default: ComponentType<LazyCommentThreadProps> }> =>
  import('./comment-thread.tsx').then(
    (m) => ({ default: m.CommentThread }),
    () => {
      Thread = lazy(load);
      return { default: Unavailable };
    },
  );
let Thread = lazy(load);

/**
 * Issue 29: an item's comment thread in its own chunk, fetched when an item is first opened, so
 * the first load (the transactions page is a landing page; main_js guard in
 * tests/e2e/lazy-pages.test.ts) does not carry it. Until it comes, the section's heading and a
 * skeleton; if it cannot be fetched (offline before the service worker cached it), the thread's
 * offline words.
 */
export function LazyCommentThread(props: LazyCommentThreadProps) {
  return (
    <Suspense fallback={<Placeholder busy />}>
      <Thread {...props} />
    </Suspense>
  );
}

function Unavailable() {
  return <Placeholder busy={false} />;
}

function Placeholder({ busy }: { busy: boolean }) {
  return (
    <section className="comment-thread" aria-labelledby="comments-placeholder" aria-busy={busy || undefined}>
      <h3 id="comments-placeholder" className="claim-section-title">Comments</h3>
      {busy ? <Skeleton width="60%" height={14} /> : <p className="notice" role="status">{COMMENTS_OFFLINE}</p>}
    </section>
  );
}
