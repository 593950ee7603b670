import type { CardActor } from '../../../schema/card-rules.ts';
import { Button } from '../../components/button.tsx';
import { ClaimRefusal } from '../../components/claim-details.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import type { DataClient } from '../../data-access/types.ts';
import type { CardView } from '../../lib/cards.ts';
import { cardRequestDescription } from '../../lib/card-labels.ts';
import { formatDay } from '../../lib/format.ts';
import { useAppState } from '../../data-access/data-context.tsx';
import { useReferenceAnswer } from '../../lib/reference-data.ts';
import { cardBudget } from './card-origin.tsx';
import { CardTile } from './card-tile.tsx';
import { REQUEST_STATUS_TEXT, REQUEST_TONES } from './card-view.ts';
import { runCardCommand } from './commands.ts';
import { useOwnCards, useOwnRequests, type CardRequestView } from './use-cards.ts';

export interface MyCardsProps {
  client: DataClient;
  version: number;
  actor: CardActor;
  /** The first mirror is still running (what is shown is what has arrived). */
  partial: boolean;
  onOpen(id: string): void;
  onActivate(card: CardView): void;
  onRequest(): void;
}

/** "My cards": the viewer's cards as tiles, then their card requests. */
export function MyCards({ client, version, actor, partial, onOpen, onActivate, onRequest }: MyCardsProps) {
  const cards = useOwnCards(client, actor.id, version);
  const requests = useOwnRequests(client, actor.id, version);
  // Issue 28: a card drawing on a budget shows what is left of it (reference data, offline too).
  const budgets = useReferenceAnswer(client, useAppState((s) => s.referenceVersion))?.spend_allocations ?? [];
  return (
    <div className="my-cards">
      <section aria-labelledby="my-cards-title">
        <h2 id="my-cards-title" className="cards-section-title">
          Your cards
        </h2>
        {partial && (
          <p className="partial-notice" role="note" data-testid="partial-results">
            Your cards are still downloading for offline use: some may not show yet.
          </p>
        )}
        {cards === null ? (
          <div className="card-grid" aria-busy="true">
            <span className="sr-only">Loading your cards…</span>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={260} />
            ))}
          </div>
        ) : cards.length === 0 ? (
          <EmptyState title="You don’t have a card yet" icon="▭" action={<Button variant="primary" onClick={onRequest}>Request a card</Button>}>
            {requests?.some((r) => r.status === 'PENDING')
              ? 'Your request is waiting for review (see below). The card shows here once it is issued.'
              : 'Ask for a virtual card to pay online right away, or a physical one shipped to you. A manager or an admin reviews each request.'}
          </EmptyState>
        ) : (
          <div className="card-grid">
            {cards.map((c) => (
              <CardTile key={c.id} card={c} client={client} version={version} actor={actor} partial={partial} budget={cardBudget(c, budgets)} onOpen={(card) => onOpen(card.id)} onActivate={onActivate} />
            ))}
          </div>
        )}
      </section>
      {requests && requests.length > 0 && (
        <section aria-labelledby="my-requests-title">
          <h2 id="my-requests-title" className="cards-section-title">
            Your requests
          </h2>
          <ul className="card-requests">
            {requests.map((r) => (
              <RequestRow key={r.id} request={r} client={client} onOpen={onOpen} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function RequestRow({ request: r, client, onOpen }: { request: CardRequestView; client: DataClient; onOpen(id: string): void }) {
  const unsent = r.pending === 'pending' || r.pending === 'sending';
  const what = cardRequestDescription(r);
  return (
    <li className="card-request" data-testid="card-request">
      <div className="card-request-main">
        <strong>{what}</strong>
        <span className="muted">
          Asked {formatDay(r.created_at)} · {r.reason}
        </span>
        {r.status === 'REJECTED' && r.rejection_reason && (
          <span className="card-request-reason">
            <strong>Reason:</strong> {r.rejection_reason}
          </span>
        )}
        <ClaimRefusal row={r} client={client} />
      </div>
      <div className="marks">
        {/* A request not yet sent is not under review yet: it only waits to sync. */}
        {!(r.status === 'PENDING' && unsent) && <StatusPill tone={REQUEST_TONES[r.status]}>{REQUEST_STATUS_TEXT[r.status]}</StatusPill>}
        {r.pending && <SyncMark row={r} />}
      </div>
      <div className="card-request-actions">
        {r.status === 'APPROVED' && r.card_id && (
          <Button size="sm" variant="ghost" onClick={() => onOpen(r.card_id!)}>
            View card
          </Button>
        )}
        {r.status === 'PENDING' && (
          <Button size="sm" variant="ghost" onClick={() => void runCardCommand(client, 'cardRequest.cancel', { request_id: r.id }, 'Request withdrawn.')}>
            Withdraw
          </Button>
        )}
      </div>
    </li>
  );
}
