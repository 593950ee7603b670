import { useEffect, useState, type ComponentType } from 'react';
import type { EventHistoryProps } from './event-history.tsx';
import { Skeleton } from '../skeleton.tsx';

type History = ComponentType<EventHistoryProps>;

/** The loaded section, shared by every drawer once one fetched it. */
let loaded: History | null = null;

/** What the placeholder says when the chunk cannot be fetched (offline before the service worker cached it). */
const CHUNK_OFFLINE = 'History needs a connection. It loads when you’re back online.';

/**
 * Issue 32: the "History" section of a drawer (`<LazyEventHistory entityType entityId />`, the one
 * element each drawer adds), in its own chunk fetched when an item is first opened, so the first
 * load does not carry it. Loaded by hand, as the comment thread is (lazy-comment-thread.tsx): a
 * chunk that fails must not reach the route's error boundary; the next item opened tries again.
 */
export function LazyEventHistory(props: EventHistoryProps) {
  const [section, setSection] = useState<History | 'failed' | null>(() => loaded);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    import('./event-history.tsx').then(
      (m) => {
        loaded = m.EventHistory;
        if (live) setSection(() => m.EventHistory);
      },
      () => live && setSection('failed'),
    );
    return () => {
      live = false;
    };
  }, []);
  if (section === null || section === 'failed') {
    return (
      <section className="event-history" aria-label="History" aria-busy={section === null || undefined}>
        <h3 className="claim-section-title">History</h3>
        {section === null ? <Skeleton width="60%" height={14} /> : <p className="notice" role="status">{CHUNK_OFFLINE}</p>}
      </section>
    );
  }
  const Loaded = section;
  return <Loaded {...props} />;
}
