import { useEffect, useState } from 'react';
import type { DataApi, RowView } from '../../workers/api.ts';
import type { DataClient } from '../data-access/types.ts';

/**
 * A card as other features name it (issue 10). Cards are a queried collection, not reference
 * data, so a transaction's card line reads the card through the worker's generic `get`; this is
 * here (not in features/cards) because features do not import each other.
 */
export type CardView = RowView<'cards'>;

/** The worker's generic read of one card (Comlink's `Remote` widens the collection parameter). */
export const readCard = (client: DataClient, id: string): Promise<CardView | null> =>
  (client.get as DataApi['get'])('cards', id);

/**
 * One card from the mirror, re-read when the data changes: undefined while reading, null when this
 * device does not hold it (another person's card the viewer may not see, or not yet synced).
 */
export function useCard(client: DataClient, id: string | null | undefined, version: number): CardView | null | undefined {
  const [card, setCard] = useState<{ id: string; row: CardView | null } | null>(null);
  useEffect(() => {
    if (!id) return;
    let live = true;
    readCard(client, id).then(
      (row) => live && setCard({ id, row }),
      () => live && setCard({ id, row: null }),
    );
    return () => {
      live = false;
    };
  }, [client, id, version]);
  if (!id) return null;
  return card?.id === id ? card.row : undefined;
}
