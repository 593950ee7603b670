import { describe, expect, it } from 'vitest';
import type { CardReissue, CardRenewal } from '../../../schema/card-renewal.ts';
import type { Card } from '../../../schema/entities/card.ts';
import { dayText, reissueText, renewalText } from './card-renewal-text.ts';

const renewal = (over: Partial<CardRenewal>): CardRenewal => ({
  card_id: 'c', kind: 'VIRTUAL', expires: '2026-12', valid_through: '2026-12-31', new_expiry: '2029-12', renews_on: '2026-12-01',
  arrives_by: null, number_changes: false, state: 'SCHEDULED', ...over,
});

describe('card renewal words', () => {
  it('days read in UTC whatever the zone, across the year edge', () => {
    expect(dayText('2026-12-31')).toBe('Dec 31, 2026');
    expect(dayText('2027-01-01')).toBe('Jan 1, 2027');
  });

  it('virtual: same number and the new expiry; physical: when the new card ships and arrives', () => {
    expect(renewalText(renewal({}))).toBe('Renews on Dec 1, 2026: same number, new expiry 12/29.');
    expect(renewalText(renewal({ state: 'IN_PROGRESS' }))).toBe('Renewed on Dec 1, 2026: same number, new expiry 12/29.');
    expect(renewalText(renewal({ kind: 'PHYSICAL', arrives_by: '2026-12-08', number_changes: true }))).toBe(
      'A new card ships on Dec 1, 2026 and arrives by Dec 8, 2026, with a new number and expiry 12/29. Activate it when it comes; this one works until Dec 31, 2026.',
    );
    expect(renewalText(renewal({ state: 'EXPIRED' }))).toBe('Expired on Dec 31, 2026.');
  });

  it('reissue: on its way, active, or closed', () => {
    const reissue = (state: CardReissue['state'], replacement: Partial<Card>): CardReissue =>
      ({ card_id: 'c', state, requested_at: '2026-12-29T10:00:00.000Z', arrives_by: '2027-01-05', replacement: { last_four: '4242', is_physical: true, ...replacement } as Card });
    expect(reissueText(reissue('SHIPPING', {}))).toBe('Replacement ••4242 on its way: arrives by Jan 5, 2027. Activate it with its last four digits when it comes.');
    expect(reissueText(reissue('ACTIVE', { is_physical: false }))).toBe('Replaced by ••4242, active since it was issued.');
    expect(reissueText(reissue('CLOSED', {}))).toBe('Replaced by ••4242, which has since been terminated.');
  });
});
