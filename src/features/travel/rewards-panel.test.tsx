import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { travelRewardSchema, type TravelReward } from '../../../schema/travel-rewards.ts';
import { balanceText, earnedText, RewardsView, type RewardsState } from './rewards-panel.tsx';
import { rewardsBody } from './rewards-form.ts';

/** The rewards panel as the server renderer draws it from its state, and the booked notice's line. */
const reward = (over: Partial<TravelReward> = {}): TravelReward => travelRewardSchema.parse({
  id: '0b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a11', user_id: '40000000-0000-4000-8000-000000000001', trip_id: '40000000-0000-4000-8000-000000000002',
  trip_name: 'Acme kickoff', booking_id: '40000000-0000-4000-8000-000000000003',
  booking: {
    kind: 'HOTEL', status: 'BOOKED', segments: [], price: { amount: 90_000, currency: 'USD' }, confirmation_code: 'ABC234',
    hotel: { hotel_id: 'h1', name: 'Harbor Inn', city: 'JFK', address: '1 Main St', stars: 3, check_in: '2026-12-20', check_out: '2026-12-23', nights: 3, nightly: { amount: 30_000, currency: 'USD' }, check_in_time: '15:00' },
  },
  amount: { amount: 7_500, currency: 'USD' }, cap: { amount: 105_000, currency: 'USD' }, price: { amount: 90_000, currency: 'USD' }, share_percent: 50,
  status: 'EARNED', earned_at: '2026-12-01T12:00:00.000Z', voided_at: null, void_reason: null, ...over,
});
const draw = (view: RewardsState) => renderToStaticMarkup(<RewardsView view={view} currency="USD" onRetry={() => {}} pager={<nav>Pager</nav>} />);
const ready = (over: Partial<Extract<RewardsState, { state: 'ready' }>> = {}): RewardsState => ({
  state: 'ready', enabled: true, share_percent: 50, rewards: [], balances: [], more: false, ...over,
});

describe('RewardsView', () => {
  it('says to connect when offline, nothing while it reads, and a refusal with Try again', () => {
    expect(draw({ state: 'offline' })).toContain('Connect to see rewards.');
    expect(draw({ state: 'loading' })).toBe('');
    expect(draw({ state: 'failed', message: 'There was an error.' })).toContain('Try again');
  });

  it('shows the balance per currency and each reward with its trip, booking and status', () => {
    const voided = reward({ id: '0b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a12', status: 'VOIDED', voided_at: '2026-12-02T12:00:00.000Z', void_reason: 'Booking canceled' });
    const html = draw(ready({ rewards: [reward(), voided], balances: [{ amount: 7_500, currency: 'USD' }, { amount: 1_000, currency: 'EUR' }] }));
    expect(html).toContain('Balance <strong>$75.00 and €10.00</strong>');
    expect(html).toContain('earn 50% of what you save');
    expect(html).toContain('2 rewards');
    expect(html).toContain('Acme kickoff');
    expect(html).toContain('Hotel Harbor Inn · 3 nights');
    expect(html).toContain('$150.00 under the cap · 50%');
    expect(html.match(/>Earned</g)).toHaveLength(1);
    expect(html).toContain('>Voided<');
    expect(html).toContain('Booking canceled');
    expect(html).toContain('<nav>Pager</nav>');
    expect(draw(ready({ rewards: [reward()], more: true }))).toContain('Your rewards, newest first');
    // Another page on its way: the list says so, never that there are none.
    expect(draw(ready({ rewards: [], more: true, loadingPage: true }))).toContain('Loading rewards…');
  });

  it('shows nothing when rewards are off and none were earned; a zero balance otherwise', () => {
    expect(draw(ready({ enabled: false }))).toBe('');
    expect(draw(ready())).toContain('Balance <strong>$0.00</strong>');
    expect(draw(ready({ enabled: false, rewards: [reward()] }))).toContain('Rewards are turned off for new bookings.');
    expect(balanceText([], 'EUR')).toBe('€0.00');
  });
});

describe('earnedText', () => {
  it('words an earned reward of a booking answer, and nothing else', () => {
    expect(earnedText({ id: 'b', reward: reward() })).toBe('You earned $75.00 in travel rewards for booking under the cap.');
    expect(earnedText({ id: 'b', reward: null })).toBeNull();
    expect(earnedText({ id: 'b' })).toBeNull();
    expect(earnedText({ reward: reward({ status: 'VOIDED', voided_at: '2026-12-02T12:00:00.000Z', void_reason: 'x' }) })).toBeNull();
    expect(earnedText({ reward: { amount: 'lots' } })).toBeNull();
  });
});

describe('rewardsBody', () => {
  it.each([
    ['50', 50], ['0', 0], ['100', 100], [' 25 % ', 25],
  ])('takes %j as %d', (text, share) => {
    expect(rewardsBody({ enabled: true, share_percent: text })).toEqual({ ok: true, rewards: { enabled: true, share_percent: share } });
  });
  it.each(['', '101', '-1', '12.5', 'half'])('refuses %j', (text) => {
    expect(rewardsBody({ enabled: true, share_percent: text })).toEqual({ ok: false, errors: { share_percent: 'Enter a whole percentage from 0 to 100.' } });
  });
});
