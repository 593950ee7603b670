import { useEffect, useRef, useState } from 'react';
import { useAppState, useDataClient } from '../data-access/data-context.tsx';
import type { OutboxEntry } from '../data-access/types.ts';
import { syncIndicatorText, syncTone, waitingText } from './sync-text.ts';
import { toastError } from '../lib/toast-store.ts';

/**
 * The sync indicator (role status, text fixed by issue 2) and, beside it, the refused changes
 * with their server messages and Retry / Discard.
 */
export function SyncIndicator() {
  const status = useAppState((s) => s.status);
  const online = useAppState((s) => s.online);
  const text = syncIndicatorText(status, online);
  const tone = syncTone(status, online);
  const attention = (status?.failed ?? 0) + (status?.needsStepUp ?? 0);
  useToastOnNewFailure(status?.failed ?? 0);

  return (
    <div className="sync">
      <span className={`sync-dot sync-${tone}`} aria-hidden="true" />
      <span role="status" className="sync-text">
        {text}
      </span>
      {/* Offline, the indicator must say just "Offline"; the waiting edits are counted beside it. */}
      {text === 'Offline' && (status?.pending ?? 0) > 0 && (
        <span className="sync-waiting">{waitingText(status?.pending ?? 0)}</span>
      )}
      {attention > 0 && <FailedChanges count={attention} />}
    </div>
  );
}

/** A newly refused change announces the server's message once, as a destructive toast. */
function useToastOnNewFailure(failed: number) {
  const client = useDataClient();
  const previous = useRef(failed);
  useEffect(() => {
    const before = previous.current;
    previous.current = failed;
    if (failed <= before) return;
    void client.outbox().then((entries) => {
      const newest = entries
        .filter((e) => e.state === 'failed' || e.state === 'conflict')
        .sort((a, b) => b.created_at - a.created_at)[0];
      toastError(newest?.last_error?.message ?? 'A change was refused by the server.');
    });
  }, [failed, client]);
}

function FailedChanges({ count }: { count: number }) {
  const client = useDataClient();
  const dataVersion = useAppState((s) => s.dataVersion);
  const statusVersion = useAppState((s) => s.status);
  const [open, setOpen] = useState(false);
  const [entries, setEntries] = useState<OutboxEntry[]>([]);

  useEffect(() => {
    if (!open) return;
    let live = true;
    void client.outbox().then((all) => {
      if (live) setEntries(all.filter((e) => e.state === 'failed' || e.state === 'conflict' || e.state === 'needs_step_up'));
    });
    return () => {
      live = false;
    };
  }, [open, client, dataVersion, statusVersion]);

  return (
    <div className="popover-anchor">
      <button
        type="button"
        className="btn btn-danger-soft btn-sm"
        aria-expanded={open}
        aria-controls="failed-changes"
        onClick={() => setOpen((o) => !o)}
      >
        {count} failed
      </button>
      {open && (
        <div id="failed-changes" className="popover" role="region" aria-label="Failed changes">
          <h2 className="popover-title">Changes the server refused</h2>
          {entries.length === 0 && <p className="muted">Nothing to review.</p>}
          <ul className="failed-list">
            {entries.map((e) => (
              <li key={e.id}>
                <div className="failed-what">
                  {describeCommand(e)}
                  <span className="muted"> · {new Date(e.created_at).toLocaleString()}</span>
                </div>
                <div className="failed-reason">
                  {e.state === 'needs_step_up'
                    ? 'Additional verification is needed for this action.'
                    : (e.last_error?.message ?? 'Refused by the server.')}
                </div>
                <div className="row-actions">
                  <button type="button" className="btn btn-sm" onClick={() => void client.retryCommand(e.id)}>
                    Retry
                  </button>
                  <button type="button" className="btn btn-sm btn-ghost" onClick={() => void client.discardCommand(e.id)}>
                    Discard
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function describeCommand(e: OutboxEntry): string {
  const n = e.entity_ids.length;
  const what = n === 1 ? '1 transaction' : `${n.toLocaleString()} transactions`;
  return e.command === 'transaction.bulkCode' || e.command === 'transaction.code' ? `Coding of ${what}` : `${e.command} (${what})`;
}
