import { useEffect, useState } from 'react';
import type { CardReissue, CardRenewal } from '../../../schema/card-renewal.ts';
import type { DataClient } from '../../data-access/types.ts';
import { useAppState } from '../../data-access/data-context.tsx';
import type { CardView } from '../../lib/cards.ts';
import { reissueText, renewalText } from './card-renewal-text.ts';

type Lines = { renewal: CardRenewal | null; reissue: CardReissue | null };

/**
 * Issue 32, the card drawer's "Renews on …" and "Replacement on its way …" lines (GET renewal,
 * GET reissue): asked of the server when online, for a card with an expiry or one reissued;
 * nothing shows offline or while they load (the rest of the drawer is the mirror's).
 */
export function CardLifecycle({ card, client }: { card: CardView; client: DataClient }) {
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const [answer, setAnswer] = useState<{ key: string; lines: Lines } | null>(null);
  const wantsRenewal = !!card.expires && card.status !== 'TERMINATED' && card.status !== 'REQUESTED';
  const wantsReissue = !!card.replaced_by_id;

  // What was asked: an answer for another card (or the same card before a status change) is not shown.
  const key = `${card.id}|${card.expires ?? ''}|${card.status}|${card.replaced_by_id ?? ''}`;
  useEffect(() => {
    if (!online || (!wantsRenewal && !wantsReissue)) return;
    let live = true;
    void Promise.all([
      wantsRenewal ? client.cardRenewal(card.id) : Promise.resolve(null),
      wantsReissue ? client.cardReissue(card.id) : Promise.resolve(null),
    ]).then(([renewal, reissue]) => {
      if (!live) return;
      setAnswer({ key, lines: { renewal: renewal?.ok ? renewal.renewal : null, reissue: reissue?.ok ? reissue.reissue : null } });
    });
    return () => {
      live = false;
    };
  }, [client, card.id, key, online, wantsRenewal, wantsReissue]);

  const lines = online && answer?.key === key ? answer.lines : null;
  if (!lines || (!lines.renewal && !lines.reissue)) return null;
  return (
    <div className="card-lifecycle" data-testid="card-lifecycle">
      {lines.reissue && <p>{reissueText(lines.reissue)}</p>}
      {lines.renewal && <p>{renewalText(lines.renewal)}</p>}
    </div>
  );
}
