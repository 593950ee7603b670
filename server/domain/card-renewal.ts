import { reissueOf, renewalOf, type CardRenewal, type CardReissue } from '../../schema/card-renewal.ts';
import { cardSchema } from '../../schema/entities/card.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { findCard } from './cards.ts';
import { visibilityOf } from './visibility.ts';

/**
 * Issue 32, §7 Cards `GET renewal` and `GET reissue` (schema/card-renewal.ts computes both from the
 * card rows): visibility as card reads, so a card the caller may not see, or another business's, is 404.
 */
async function visibleCard(db: Queryable, user: ActingUser, id: string) {
  const doc = await findCard(db, user.business_id, await visibilityOf(db, user), id);
  if (!doc) throw new ApiError('REQUEST_7004', 'No such card.');
  return cardSchema.parse(doc);
}

export async function cardRenewal(db: Queryable, user: ActingUser, id: string, now: Date): Promise<CardRenewal> {
  const renewal = renewalOf(await visibleCard(db, user, id), now);
  if (!renewal) throw new ApiError('REQUEST_7004', 'This card has no expiry to renew: it is not issued yet, or it is terminated.');
  return renewal;
}

export async function cardReissue(db: Queryable, user: ActingUser, id: string): Promise<CardReissue> {
  const card = await visibleCard(db, user, id);
  // The replacement is the same holder's card: whoever sees the old one sees it.
  const next = card.replaced_by_id ? await findCard(db, user.business_id, { all: true }, card.replaced_by_id) : null;
  if (!next) throw new ApiError('REQUEST_7004', 'This card has not been reissued.');
  return reissueOf(card, cardSchema.parse(next));
}
