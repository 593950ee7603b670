import { useId, useState } from 'react';
import type { CardActor } from '../../../schema/card-rules.ts';
import { Button } from '../../components/button.tsx';
import { ClaimRefusal } from '../../components/claim-details.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import type { DataClient } from '../../data-access/types.ts';
import type { CardView } from '../../lib/cards.ts';
import { cardName } from '../../lib/card-labels.ts';
import { cardOffers, chipText, expiryText, STATUS_TONES } from './card-view.ts';
import { runCardCommand } from './commands.ts';
import { LimitBar } from './limit-bar.tsx';
import { useStopsWaiting } from './use-cards.ts';
import { CardFace } from './card-face.tsx';
import type { SpendAllocation } from '../../../schema/entities/spend-allocation.ts';
import { budgetLeftText } from '../../lib/spend-request-labels.ts';

export interface CardTileProps {
  card: CardView;
  client: DataClient;
  version: number;
  actor: CardActor;
  partial: boolean;
  onOpen(card: CardView): void;
  onActivate(card: CardView): void;
  /** Issue 28: the budget the card draws on, whose remainder shows under the card's own. */
  budget?: SpendAllocation | null;
}

/**
 * One of the viewer's cards (an <article> named "Travel ••1234"): the card, its status chip (with "· waiting to sync" while a change
 * is in the outbox), what is left of its limit, and the one-click actions: Lock / Unlock (works
 * offline), Activate for a shipped physical card, the star, and Details for the rest.
 */
export function CardTile({ card, client, version, actor, partial, onOpen, onActivate, budget }: CardTileProps) {
  const titleId = useId();
  const numberId = useId();
  const [busy, setBusy] = useState(false);
  const offers = cardOffers(card, actor);
  const name = cardName(card);
  const expiry = expiryText(card.expires);
  const stopWaiting = useStopsWaiting(client, version).has(card.id);

  async function run(name: 'card.lock' | 'card.unlock') {
    setBusy(true);
    try {
      await runCardCommand(client, name, { card_id: card.id });
    } finally {
      setBusy(false);
    }
  }

  const star = offers.includes('favorite') || offers.includes('unfavorite');
  return (
    <article className={`card-tile${card.status === 'TERMINATED' ? ' card-tile-ended' : ''}`} aria-labelledby={`${titleId} ${numberId}`} data-testid="card-tile" data-card-id={card.id}>
      <CardFace card={card} titleId={titleId} numberId={numberId} />
      {star && (
        <button
          type="button"
          className="card-star"
          aria-pressed={card.is_favorite}
          onClick={() => void runCardCommand(client, card.is_favorite ? 'card.unfavorite' : 'card.favorite', { card_ids: [card.id] })}
        >
          <span aria-hidden="true">{card.is_favorite ? '★' : '☆'}</span>
          <span className="sr-only">Star {name}</span>
        </button>
      )}
      <div className="card-tile-body">
        <div className="marks">
          <span data-testid="card-status">
            <StatusPill tone={STATUS_TONES[card.status]}>{chipText(card, stopWaiting)}</StatusPill>
          </span>
          {(card.pending === 'failed' || card.pending === 'conflict' || card.pending === 'needs_step_up') && <SyncMark row={card} />}
          {expiry && <span className="muted card-expiry">{expiry}</span>}
        </div>
        {card.status !== 'TERMINATED' && <LimitBar client={client} card={card} version={version} partial={partial} />}
        {card.status !== 'TERMINATED' && budget && <p className="muted card-budget" data-testid="card-budget">{budget.name}: {budgetLeftText(budget)}</p>}
        {card.status === 'TERMINATED' && <p className="muted">{card.replaced_by_id ? 'Replaced by a new card.' : 'This card no longer works.'}</p>}
        <ClaimRefusal row={card} client={client} />
        <div className="card-tile-actions">
          {offers.includes('lock') && (
            <Button size="sm" loading={busy} onClick={() => void run('card.lock')}>
              Lock card
            </Button>
          )}
          {offers.includes('unlock') && (
            <Button size="sm" variant="primary" loading={busy} onClick={() => void run('card.unlock')}>
              Unlock card
            </Button>
          )}
          {offers.includes('activate') && (
            <Button size="sm" variant="primary" onClick={() => onActivate(card)}>
              Activate card
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={() => onOpen(card)}>
            Details<span className="sr-only"> of {name}</span>
          </Button>
        </div>
      </div>
    </article>
  );
}
