import type { CardReissue, CardRenewal } from '../../../schema/card-renewal.ts';

/** A YYYY-MM-DD day as "Mar 1, 2029" (the day as the server computed it, whatever the viewer's zone). */
export const dayText = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** A YYYY-MM expiry as "03/32". */
const expiryShort = (ym: string) => `${ym.slice(5, 7)}/${ym.slice(2, 4)}`;

/** The card drawer's renewal line: when, and what changes. */
export function renewalText(r: CardRenewal): string {
  if (r.state === 'EXPIRED') return `Expired on ${dayText(r.valid_through)}.`;
  if (r.kind === 'VIRTUAL') {
    const when = r.state === 'IN_PROGRESS' ? `Renewed on ${dayText(r.renews_on)}` : `Renews on ${dayText(r.renews_on)}`;
    return `${when}: same number, new expiry ${expiryShort(r.new_expiry)}.`;
  }
  const ships = r.state === 'IN_PROGRESS' ? `A new card shipped on ${dayText(r.renews_on)}` : `A new card ships on ${dayText(r.renews_on)}`;
  return `${ships} and arrives by ${dayText(r.arrives_by!)}, with a new number and expiry ${expiryShort(r.new_expiry)}. Activate it when it comes; this one works until ${dayText(r.valid_through)}.`;
}

/** The card drawer's reissue line: where the replacement is. */
export function reissueText(r: CardReissue): string {
  const four = r.replacement.last_four ? ` ••${r.replacement.last_four}` : '';
  switch (r.state) {
    case 'SHIPPING':
      return `Replacement${four} on its way: arrives by ${dayText(r.arrives_by!)}. Activate it with its last four digits when it comes.`;
    case 'ACTIVE':
      return `Replaced by${four}, active since it was ${r.replacement.is_physical ? 'activated' : 'issued'}.`;
    case 'CLOSED':
      return `Replaced by${four}, which has since been terminated.`;
  }
}
