import { useEffect, useState, type ComponentType } from 'react';
import type { CommentSubjectType } from '../../workers/api.ts';
import { COMMENTS_OFFLINE } from '../lib/comment-offline.ts';
import { Skeleton } from './skeleton.tsx';

export interface LazyCommentThreadProps {
  subjectType: CommentSubjectType;
  subjectId: string;
}

type Thread = ComponentType<LazyCommentThreadProps>;

/** The loaded thread, shared by every drawer once one fetched it. */
let loaded: Thread | null = null;

/**
 * Issue 29: an item's comment thread in its own chunk, fetched when an item is first opened, so
 * the first load (the transactions page is a landing page; main_js guard in
 * tests/e2e/lazy-pages.test.ts) does not carry it. Until it comes, the section's heading and a
 * skeleton; if it cannot be fetched (offline before the service worker cached it: the chunk or its
 * CSS), the thread's offline words, and the next item opened tries again. Loaded by hand, not with
 * React.lazy: a failed chunk (Vite's "Unable to preload CSS") must never reach the route's error
 * boundary, which took the whole transactions page down offline.
 */
export function LazyCommentThread(props: LazyCommentThreadProps) {
  // An initialiser, not the value: useState would call a component passed as the value as one.
  const [thread, setThread] = useState<Thread | 'failed' | null>(() => loaded);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    import('./comment-thread.tsx').then(
      (m) => {
        loaded = m.CommentThread;
        if (live) setThread(() => m.CommentThread);
      },
      () => live && setThread('failed'),
    );
    return () => {
      live = false;
    };
  }, []);
  if (thread === null) return <Placeholder busy />;
  if (thread === 'failed') return <Placeholder busy={false} />;
  const Loaded = thread;
  return <Loaded {...props} />;
}

function Placeholder({ busy }: { busy: boolean }) {
  return (
    <section className="comment-thread" aria-labelledby="comments-placeholder" aria-busy={busy || undefined}>
      <h3 id="comments-placeholder" className="claim-section-title">Comments</h3>
      {busy ? <Skeleton width="60%" height={14} /> : <p className="notice" role="status">{COMMENTS_OFFLINE}</p>}
    </section>
  );
}
