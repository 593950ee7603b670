import { useMemo, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ListSkeleton } from '../../components/skeleton.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import { formatCount } from '../../lib/format.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { usePageData } from '../../lib/use-page-data.ts';
import { useMissingItems } from './use-missing-items.tsx';
import { WizardItem } from './wizard-item.tsx';
import { back, EMPTY_WIZARD, next, restart, skip, viewOf, withLive } from './wizard-state.ts';

/**
 * Issue 29: /missing-items — the person's card charges and claims that miss what the expense
 * policy asks (a receipt, a memo, coding), one at a time: add the receipt (the camera on a
 * phone), the memo, the coding, then Next; Skip leaves it for later. Everything is read from the
 * mirror and every fix is an outbox command, so the walk works offline and each fix syncs once.
 */
export function MissingItemsPage() {
  const { client, dataVersion } = usePageData();
  const answer = useMissingItems();
  const mirrored = useAppState((s) => s.status?.mirrored ?? true);
  const online = useAppState((s) => s.online);
  const reference = useReferenceData(client, useAppState((s) => s.referenceVersion));
  const [walk, setWalk] = useState(EMPTY_WIZARD);
  const live = useMemo(() => answer?.items ?? [], [answer]);
  // Each new answer joins the walk as it renders (React's "adjust state on a prop change").
  const [joined, setJoined] = useState<typeof answer>(null);
  if (answer && answer !== joined) {
    setJoined(answer);
    setWalk((s) => withLive(s, answer.items));
  }
  const view = viewOf(walk, live);

  return (
    <div className="page-narrow missing-items" data-remaining={answer ? view.remaining : undefined}>
      <div className="page-header">
        <h1>Missing items</h1>
        <span className="spacer" />
        {view.total > 0 && !view.done && (
          <span className="missing-progress-text" aria-live="polite">
            {view.position} of {view.total}
          </span>
        )}
      </div>
      {!online && (
        <p className="notice" role="status">
          You’re offline. What you add is kept on this device and syncs once you’re back online.
        </p>
      )}
      {view.total > 0 && (
        <progress className="missing-progress" max={view.total} value={view.done ? view.total : view.position - 1} aria-label={`${view.fixed} of ${view.total} fixed`} />
      )}
      {answer === null ? (
        <ListSkeleton what="missing items" />
      ) : view.total === 0 ? (
        <EmptyState title={mirrored ? 'Nothing missing' : 'Downloading your data for offline use'}>
          {mirrored
            ? 'Every card charge and claim of yours has what your company’s expense policy asks for.'
            : 'Your charges and claims are checked once they are on this device.'}
        </EmptyState>
      ) : view.done || !view.current ? (
        <EmptyState
          title={view.remaining === 0 ? 'All done' : `${formatCount(view.remaining)} ${view.remaining === 1 ? 'item still misses' : 'items still miss'} something`}
          action={view.remaining > 0
            ? <Button variant="primary" onClick={() => setWalk(restart(live))}>Go through them again</Button>
            : <Link to="/transactions" className="btn btn-secondary">Back to transactions</Link>}
        >
          {view.fixed === 0 ? 'Nothing was fixed this time.' : `You fixed ${formatCount(view.fixed)} of ${formatCount(view.total)}.`}
          {!online && view.fixed > 0 && ' The changes sync when you are back online.'}
        </EmptyState>
      ) : (
        <WizardItem
          key={view.current.key}
          client={client}
          item={view.current.item}
          fixed={view.current.fixed}
          dataVersion={dataVersion}
          reference={reference}
          canGoBack={walk.at > 0}
          isLast={view.position === view.total}
          onBack={() => setWalk(back)}
          onSkip={() => setWalk(skip)}
          onNext={() => setWalk(next)}
        />
      )}
      {answer !== null && (
        // Issue 29: a workflow's "require a receipt" mark lives on the server only (not on this device's copy), so say where it is checked.
        <p className="muted missing-items-footnote">
          This list checks your company’s expense policy on this device. A receipt an automation asks for below the policy’s amount is checked by
          the server and shows in your reminder emails.
        </p>
      )}
    </div>
  );
}
