import { Facts, syncFact, type Fact } from '../../components/facts.tsx';
import { cardOriginFacts, useCardRequest } from './card-origin.tsx';
import { useEffect, useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import type { CardActor } from '../../../schema/card-rules.ts';
import { Button } from '../../components/button.tsx';
import { ClaimRefusal } from '../../components/claim-details.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { Drawer } from '../../components/drawer.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { CardStatePill } from '../../components/transaction-state-pill.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { useCard, type CardView } from '../../lib/cards.ts';
import { cardName, lastFourText } from '../../lib/card-labels.ts';
import { formatCount, formatDay, formatMoney, formatShortDay } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { ActivateDialog, LimitDialog, ReissueDialog, TerminateDialog } from './card-dialogs.tsx';
import { CardFace } from './card-face.tsx';
import { cardOffers, chipText, expiryText, INTERVAL_LABELS, STATUS_TONES, type CardOffer } from './card-view.ts';
import { runCardCommand } from './commands.ts';
import { LimitBar } from './limit-bar.tsx';
import { CardLifecycle } from './card-renewal.tsx';
import { useCardTransactions, useOwnCards, useStopsWaiting } from './use-cards.ts';
import { LazyEventHistory } from '../../components/event-history/lazy-event-history.tsx';

export interface CardDrawerProps {
  id: string;
  client: DataClient;
  version: number;
  actor: CardActor;
  reference: ReferenceView;
  partial: boolean;
  /** Opens another card here (the one it replaced, or its successor). */
  onOpenCard(id: string): void;
  onClose(): void;
  returnFocus(): HTMLElement | null | undefined;
}

type Dialog = 'activate' | 'reissue' | 'terminate' | 'limit' | null;

/**
 * One card: the card, its status (and the server's refusal with Retry/Discard), its limit bar,
 * everything about it, the actions the rules allow the viewer (`cardOffers`), the cards it
 * replaced or was replaced by, and its latest transactions with a link to all of them.
 */
export function CardDrawer({ id, client, version, actor, reference, partial, onOpenCard, onClose, returnFocus }: CardDrawerProps) {
  const card = useCard(client, id, version);
  const stops = useStopsWaiting(client, version);
  const heading = useRef<HTMLHeadingElement>(null);
  const [dialog, setDialog] = useState<Dialog>(null);

  useEffect(() => {
    heading.current?.focus();
  }, [id]);

  const holder = card ? reference.names.user(card.user_id) : '';
  const title = card ? cardName(card) : card === null ? 'Card not found' : 'Card';
  return (
    // Non-modal like the other drawers: the table beside it stays live (j/k move the open card).
    <Drawer title={title} titleRef={heading} closeLabel="Close card details" modal={false} onClose={onClose} returnFocus={returnFocus}>
      {card === undefined && (
        <div className="drawer-body card-detail" aria-busy="true">
          <span className="sr-only">Loading the card…</span>
          <Skeleton height={132} />
          <Skeleton height={20} width="40%" />
          <Skeleton height={48} />
        </div>
      )}
      {card === null && (
        <div className="drawer-body">
          <p className="muted">This card is not on this device. It may belong to someone whose cards you don’t manage.</p>
        </div>
      )}
      {card && (
        <div className="drawer-body card-detail">
          <CardFace card={card} holder={holder} />
          <div className="marks">
            <span data-testid="card-status">
              <StatusPill tone={STATUS_TONES[card.status]}>{chipText(card, stops.has(card.id))}</StatusPill>
            </span>
            {(card.pending === 'failed' || card.pending === 'conflict' || card.pending === 'needs_step_up') && <SyncMark row={card} />}
          </div>
          <ClaimRefusal row={card} client={client} />
          {card.status !== 'TERMINATED' && <LimitBar client={client} card={card} version={version} partial={partial} />}
          <CardLifecycle card={card} client={client} />
          <CardActions card={card} client={client} actor={actor} version={version} onDialog={setDialog} />
          <CardFacts card={card} holder={holder} reference={reference} client={client} version={version} onOpenCard={onOpenCard} />
          <LatestTransactions client={client} card={card} version={version} />
          <LazyEventHistory entityType="card" entityId={card.id} />
        </div>
      )}
      {card && dialog === 'activate' && <ActivateDialog card={card} client={client} onClose={() => setDialog(null)} />}
      {card && dialog === 'reissue' && <ReissueDialog card={card} client={client} onClose={() => setDialog(null)} />}
      {card && dialog === 'terminate' && <TerminateDialog card={card} client={client} holder={holder} onClose={() => setDialog(null)} />}
      {card && dialog === 'limit' && <LimitDialog card={card} client={client} onClose={() => setDialog(null)} />}
    </Drawer>
  );
}

const OFFER_LABELS: Record<CardOffer, string> = {
  lock: 'Lock card', unlock: 'Unlock card', activate: 'Activate card…', reissue: 'Report lost or stolen…', suspend: 'Suspend', unsuspend: 'Lift suspension',
  terminate: 'Terminate…', edit: 'Edit limit…', primary: 'Make primary', favorite: 'Star', unfavorite: 'Unstar',
};

function CardActions({ card, client, actor, version, onDialog }: { card: CardView; client: DataClient; actor: CardActor; version: number; onDialog(d: Dialog): void }) {
  const offers = cardOffers(card, actor);
  const own = useOwnCards(client, actor.id, version);
  const [busy, setBusy] = useState<CardOffer | null>(null);
  if (offers.length === 0) return null;

  async function act(offer: CardOffer) {
    const id = card.id;
    setBusy(offer);
    try {
      switch (offer) {
        case 'lock':
          return void (await runCardCommand(client, 'card.lock', { card_id: id }));
        case 'unlock':
          return void (await runCardCommand(client, 'card.unlock', { card_id: id }));
        case 'suspend':
          return void (await runCardCommand(client, 'card.suspend', { card_id: id }, 'Card suspended. It syncs in the background.'));
        case 'unsuspend':
          return void (await runCardCommand(client, 'card.unsuspend', { card_id: id }, 'Suspension lifted. It syncs in the background.'));
        case 'favorite':
          return void (await runCardCommand(client, 'card.favorite', { card_ids: [id] }));
        case 'unfavorite':
          return void (await runCardCommand(client, 'card.unfavorite', { card_ids: [id] }));
        case 'primary': {
          // The previous primary stops being it in the same command (read from the mirror).
          const previous = (own ?? []).filter((c) => c.is_primary && c.id !== id).map((c) => c.id);
          return void (await runCardCommand(client, 'card.setPrimary', { card_id: id, previous_ids: previous }, 'Primary card changed.'));
        }
        case 'activate':
        case 'reissue':
        case 'terminate':
        case 'edit':
          return onDialog(offer === 'edit' ? 'limit' : offer);
      }
    } finally {
      setBusy(null);
    }
  }

  const danger = (o: CardOffer) => o === 'terminate';
  const primary = (o: CardOffer) => o === 'unlock' || o === 'activate' || o === 'unsuspend';
  return (
    <div className="card-actions" role="group" aria-label="Card actions">
      {offers.map((o) => (
        <Button
          key={o}
          size="sm"
          variant={danger(o) ? 'danger' : primary(o) ? 'primary' : o === 'favorite' || o === 'unfavorite' ? 'ghost' : 'secondary'}
          loading={busy === o}
          disabled={busy !== null && busy !== o}
          onClick={() => void act(o)}
        >
          {OFFER_LABELS[o]}
        </Button>
      ))}
    </div>
  );
}

function CardFacts(props: { card: CardView; holder: string; reference: ReferenceView; client: DataClient; version: number; onOpenCard(id: string): void }) {
  const { card, holder, reference, client, version, onOpenCard } = props;
  const { names } = reference;
  const request = useCardRequest(client, card, version);
  const rows: Fact[] = [
    ['Cardholder', holder || '—'],
    ['Number', lastFourText(card) ?? 'Assigned when issued'],
    ['Type', card.is_physical ? 'Physical' : 'Virtual'],
    ['Limit', `${formatMoney(card.limit.amount, card.limit.currency)} · ${INTERVAL_LABELS[card.limit.interval]}`],
    ['Per purchase', card.limit.per_transaction === null ? 'No cap' : `Up to ${formatMoney(card.limit.per_transaction, card.limit.currency)}`],
    ['Categories', card.allowed_categories.length > 0 ? card.allowed_categories.join(', ') : 'Any category'],
    ['Department', names.department(card.department_id) || '—'],
    ['Location', names.location(card.location_id) || '—'],
    ['Expires', expiryText(card.expires)?.replace(/^Expires /, '') ?? 'Set when issued'],
    ['Primary', card.is_primary ? 'Yes' : 'No'],
    ['Created', formatDay(card.created_at)],
    ...cardOriginFacts(card, request, reference),
    syncFact(card),
  ];
  if (card.replaces_id) rows.push(['Replaces', <LinkedCard key="r" id={card.replaces_id} client={client} version={version} onOpen={onOpenCard} />]);
  if (card.replaced_by_id) rows.push(['Replaced by', <LinkedCard key="b" id={card.replaced_by_id} client={client} version={version} onOpen={onOpenCard} />]);
  return (
    <Facts rows={rows} />
  );
}

/** "••1234" of a replaced or replacing card, opening it; a successor may not have arrived yet. */
function LinkedCard({ id, client, version, onOpen }: { id: string; client: DataClient; version: number; onOpen(id: string): void }) {
  const linked = useCard(client, id, version);
  if (linked === undefined) return <>…</>;
  if (linked === null) return <span className="muted">A new card, shown once the server issues it</span>;
  return (
    <button type="button" className="btn-link" onClick={() => onOpen(id)}>
      {cardName(linked)}
    </button>
  );
}

/** The card's latest transactions, newest first, and a way to all of them in Transactions. */
function LatestTransactions({ client, card, version }: { client: DataClient; card: CardView; version: number }) {
  const latest = useCardTransactions(client, card.id, version);
  return (
    <section className="card-transactions" aria-labelledby={`${card.id}-txns`}>
      <h3 id={`${card.id}-txns`} className="claim-section-title">Latest transactions</h3>
      {latest === null ? (
        <p className="muted" aria-busy="true">Loading transactions…</p>
      ) : latest.total === 0 ? (
        <p className="muted">No transactions on this card yet.</p>
      ) : (
        <>
          <ul className="card-txn-list">
            {latest.rows.map((t) => (
              <li key={t.id} className="card-txn">
                <span className="card-txn-merchant">{t.merchant_name}</span>
                <span className="card-txn-amount">{formatMoney(t.amount, t.currency)}</span>
                <time className="muted" dateTime={t.occurred_at}>{formatShortDay(t.occurred_at)}</time>
                <span className="card-txn-state">{t.state !== 'CLEARED' && <CardStatePill state={t.state} />}</span>
              </li>
            ))}
          </ul>
          <p className="card-txn-more">
            {latest.total > latest.rows.length && <span className="muted">Latest {formatCount(latest.rows.length)} of {formatCount(latest.total)}. </span>}
            <Link to="/transactions" search={{ card_ids: [card.id] }}>
              View all in Transactions
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
