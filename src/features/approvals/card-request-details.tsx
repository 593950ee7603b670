import { Facts, syncFact, type Fact } from '../../components/facts.tsx';
import { useEffect, useState } from 'react';
import type { CardStatus } from '../../../schema/entities/card.ts';
import type { CardRequestStatus } from '../../../schema/entities/card-request.ts';
import type { DataApi } from '../../../workers/api.ts';
import type { PillTone } from '../../components/status-pill.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { formatCount, formatLocalDateTime, formatMoney } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { cardKindLabel, INTERVAL_WORDS } from '../../lib/card-labels.ts';
import type { CardRequestRow } from './approval-rows.ts';

const REQUEST_LABELS: Record<CardRequestStatus, string> = {
  PENDING: 'Requested',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  CANCELED: 'Withdrawn',
};
const REQUEST_TONES: Record<CardRequestStatus, PillTone> = { PENDING: 'info', APPROVED: 'ok', REJECTED: 'danger', CANCELED: 'neutral' };

/** Cards that still count as the person's: every status but TERMINATED. */
const LIVE_CARD_STATUSES: CardStatus[] = ['REQUESTED', 'SHIPPED', 'ACTIVE', 'LOCKED', 'SUSPENDED'];

/**
 * How many cards the requester already has, from the mirrored cards (null until read). A reviewer
 * sees the cards of the people they review (the cards' `owner` visibility), so the count is theirs.
 */
function useCardCount(client: DataClient, userId: string, version: number): number | null {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    void (client.query as DataApi['query'])('cards', { filter: { user_ids: [userId], statuses: LIVE_CARD_STATUSES }, sort: 'name_asc', offset: 0, limit: 1 })
      .then((page) => {
        if (live) setCount(page.total);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [client, userId, version]);
  return count;
}

/** A card request as its reviewer reads it: the limit asked for, the card's kind, why, who and when. */
export function CardRequestDetails({ request, client, reference, version }: {
  request: CardRequestRow; client: DataClient; reference: ReferenceView; version: number;
}) {
  const cards = useCardCount(client, request.user_id, version);
  const rows: Fact[] = [
    ['Requested by', reference.names.user(request.user_id) || '—'],
    ['Card', cardKindLabel(request.is_physical)],
    ['Limit', `${formatMoney(request.amount, request.currency)} ${INTERVAL_WORDS[request.interval]}`],
    ['Reason', request.reason],
    ['Requested', <time key="t" dateTime={request.created_at}>{formatLocalDateTime(request.created_at)}</time>],
    ['Cards they have', cards === null ? '…' : cards === 0 ? 'None yet' : formatCount(cards)],
    syncFact(request),
  ];
  return (
    <>
      <div className="drawer-amount">
        {formatMoney(request.amount, request.currency)} <span className="muted">{INTERVAL_WORDS[request.interval]}</span>
      </div>
      <div className="marks">
        <StatusPill tone={REQUEST_TONES[request.status]}>{REQUEST_LABELS[request.status]}</StatusPill>
        <SyncMark row={request} />
      </div>
      <Facts rows={rows} />
    </>
  );
}
