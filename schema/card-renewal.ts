import { z } from 'zod';
import { cardSchema, type Card } from './entities/card.ts';

/**
 * Issue 32, §7 Cards `GET renewal` and `GET reissue`, pure so the card drawer words them the way the
 * server answers them.
 *
 * Renewal: a card is valid through the last day of its expiry month (YYYY-MM). A virtual card
 * keeps its number and gets the new expiry RENEWAL.virtualDaysBefore days before it ends; a
 * physical card is replaced by a new card (new number, activated by its holder as any physical
 * card) shipped RENEWAL.physicalShipDaysBefore days before, arriving within RENEWAL.shippingDays.
 * The new expiry is RENEWAL.termYears after the old one, the same month.
 */
export const RENEWAL = { termYears: 3, virtualDaysBefore: 30, physicalShipDaysBefore: 30, shippingDays: 7 } as const;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
export const cardRenewalSchema = z.object({
  card_id: z.uuid(),
  kind: z.enum(['VIRTUAL', 'PHYSICAL']),
  /** The expiry month and its last valid day. */
  expires: z.string(),
  valid_through: isoDate,
  new_expiry: z.string(),
  /** Virtual: the day the new expiry takes effect; physical: the day the new card ships. */
  renews_on: isoDate,
  /** Physical only: the day the new card arrives at the latest. */
  arrives_by: isoDate.nullable(),
  number_changes: z.boolean(),
  /** SCHEDULED before renews_on, IN_PROGRESS from renews_on through valid_through. */
  state: z.enum(['SCHEDULED', 'IN_PROGRESS', 'EXPIRED']),
});
export type CardRenewal = z.infer<typeof cardRenewalSchema>;

const day = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);

/** The renewal of a card with an expiry (a REQUESTED or TERMINATED card has none: null). */
export function renewalOf(card: Pick<Card, 'id' | 'is_physical' | 'status' | 'expires'>, now: Date): CardRenewal | null {
  if (!card.expires || card.status === 'TERMINATED' || card.status === 'REQUESTED') return null;
  const [y, m] = card.expires.split('-').map(Number) as [number, number];
  // Day 0 of the next month is the last day of this one (UTC), leap years included.
  const lastDay = new Date(Date.UTC(y, m, 0));
  const physical = card.is_physical;
  const renewsOn = addDays(lastDay, -(physical ? RENEWAL.physicalShipDaysBefore : RENEWAL.virtualDaysBefore));
  const today = day(now);
  const state = today > day(lastDay) ? 'EXPIRED' : today >= day(renewsOn) ? 'IN_PROGRESS' : 'SCHEDULED';
  return {
    card_id: card.id,
    kind: physical ? 'PHYSICAL' : 'VIRTUAL',
    expires: card.expires,
    valid_through: day(lastDay),
    new_expiry: `${y + RENEWAL.termYears}-${String(m).padStart(2, '0')}`,
    renews_on: day(renewsOn),
    arrives_by: physical ? day(addDays(renewsOn, RENEWAL.shippingDays)) : null,
    number_changes: physical,
    state,
  };
}

export const cardReissueSchema = z.object({
  card_id: z.uuid(),
  replacement: cardSchema,
  requested_at: z.iso.datetime({ offset: true }),
  /** ACTIVE: usable (a virtual one at once, a physical one once activated); SHIPPING: physical, on its way; CLOSED: terminated since. */
  state: z.enum(['ACTIVE', 'SHIPPING', 'CLOSED']),
  /** Physical replacements only: the latest arrival day. */
  arrives_by: isoDate.nullable(),
});
export type CardReissue = z.infer<typeof cardReissueSchema>;

/**
 * The state of a reissue: the replacement as it is now. A virtual replacement is ACTIVE as soon as
 * it is issued; a physical one is SHIPPING until its holder activates it (ACTIVE), arriving within
 * RENEWAL.shippingDays of the request; a replacement terminated since is CLOSED.
 */
export function reissueOf(card: Pick<Card, 'id'>, replacement: Card): CardReissue {
  const requested = new Date(replacement.created_at);
  const state = replacement.status === 'TERMINATED' ? 'CLOSED' : replacement.status === 'SHIPPED' || replacement.status === 'REQUESTED' ? 'SHIPPING' : 'ACTIVE';
  return {
    card_id: card.id,
    replacement,
    requested_at: replacement.created_at,
    state,
    arrives_by: replacement.is_physical ? day(addDays(requested, RENEWAL.shippingDays)) : null,
  };
}
