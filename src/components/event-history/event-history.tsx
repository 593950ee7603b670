import { useId } from 'react';
import type { EventEntityType } from '../../../schema/event-history.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { relativeTime } from '../../lib/comment-words.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { Button } from '../button.tsx';
import { Skeleton } from '../skeleton.tsx';
import { eventLine, HISTORY_ABSENT, HISTORY_OFFLINE } from './history-words.ts';
import { useEventHistory, type HistoryState } from './use-event-history.ts';
import './event-history.css';
import { useNow } from '../../lib/use-now.ts';

export interface EventHistoryProps {
  entityType: EventEntityType;
  entityId: string;
}


/**
 * Issue 32: an entity's "History" section (transaction, claim, bill, card, vendor, person): every
 * change newest first — who, what from → to, when, from which device — read online when the drawer
 * opens, older pages on "Show older". Offline it says history needs a connection.
 */
export function EventHistory({ entityType, entityId }: EventHistoryProps) {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const version = useAppState((s) => s.dataVersion);
  const { history, loadOlder, reload } = useEventHistory(client, entityType, entityId, online, version);
  const now = useNow();
  return <EventHistoryView type={entityType} history={history} now={now} onOlder={() => void loadOlder()} onRetry={reload} />;
}

export interface EventHistoryViewProps {
  type: EventEntityType;
  history: HistoryState;
  now: number;
  onOlder(): void;
  onRetry(): void;
}

/** The history as its state says: skeleton while it loads, the events, "Show older", offline and error notes. */
export function EventHistoryView({ type, history, now, onOlder, onRetry }: EventHistoryViewProps) {
  const headingId = useId();
  return (
    <section className="event-history" aria-labelledby={headingId} aria-busy={history.state === 'loading' || undefined}>
      <h3 id={headingId} className="claim-section-title">History</h3>
      {history.state === 'loading' && <HistorySkeleton />}
      {history.state === 'offline' && <p className="notice event-history-note" role="status">{HISTORY_OFFLINE}</p>}
      {history.state === 'absent' && <p className="muted event-history-empty">{HISTORY_ABSENT}</p>}
      {history.state === 'error' && (
        <div className="notice notice-error event-history-note" role="alert">
          <span>The history could not be read: {history.message}</span>
          <Button size="sm" onClick={onRetry}>Try again</Button>
        </div>
      )}
      {history.state === 'ready' && history.events.length === 0 && (
        <p className="muted event-history-empty">No changes yet. Edits to this item, by anyone or any integration, will show here.</p>
      )}
      {history.state === 'ready' && history.events.length > 0 && (
        <ol className="event-list">
          {history.events.map((e) => {
            const line = eventLine(e, type, history.currency, history.device);
            const exact = formatLocalDateTime(e.at);
            return (
              <li key={e.id} className={line.automated ? 'event event-automated' : 'event'}>
                <span className="event-dot" aria-hidden="true" />
                <div className="event-main">
                  <p className="event-what">
                    <span className="event-who">{line.who}</span> {line.what}
                    {line.from !== null && (
                      <span className="event-change">
                        <span className="sr-only"> from </span>
                        <span className="event-from">{line.from}</span>
                        <span className="event-arrow" aria-hidden="true">→</span>
                        <span className="sr-only"> to </span>
                        <span className="event-to">{line.to}</span>
                      </span>
                    )}
                  </p>
                  <p className="event-meta">
                    <time className="event-time" dateTime={e.at} title={exact} data-exact={exact} tabIndex={0} aria-label={`${relativeTime(e.at, now)}, ${exact}`}>
                      {relativeTime(e.at, now)}
                    </time>
                    {line.device && <span className="event-device"> · from {line.device}</span>}
                  </p>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {history.state === 'ready' && history.next && (
        <div className="event-older">
          <Button size="sm" variant="secondary" onClick={onOlder} loading={history.older === 'loading'}>
            {history.older === 'loading' ? 'Loading older…' : 'Show older'}
          </Button>
          {typeof history.older === 'object' && <span className="event-older-error" role="alert">{history.older.error}</span>}
        </div>
      )}
    </section>
  );
}

function HistorySkeleton() {
  return (
    <div className="event-skeleton">
      <span className="sr-only">Loading history…</span>
      {[0, 1, 2].map((i) => (
        <div key={i} className="event-skeleton-row">
          <Skeleton width="70%" height={14} />
          <Skeleton width="35%" height={12} />
        </div>
      ))}
    </div>
  );
}
