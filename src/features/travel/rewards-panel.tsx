import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../../schema/constants.ts';
import type { Money } from '../../../schema/entities/trip.ts';
import { travelRewardSchema, type TravelReward } from '../../../schema/travel-rewards.ts';
import { Button } from '../../components/button.tsx';
import { Pager } from '../../components/pager.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { formatMoney, formatShortDay, joinList } from '../../lib/format.ts';
import { bookingSummary } from '../../lib/trip-labels.ts';
import { usePagedQuery } from '../../lib/use-paged-query.ts';

/** What the panel shows: offline, loading, refused, or the rewards read so far (and whether rewards are on). */
export type RewardsState =
  | { state: 'offline' }
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; enabled: boolean; share_percent: number; rewards: TravelReward[]; balances: Money[]; more: boolean; loadingPage?: boolean };

/** "$42.50 and €10.00"; "$0.00" in the business currency when nothing is earned. */
export function balanceText(balances: readonly Money[], currency: string): string {
  if (balances.length === 0) return formatMoney(0, currency);
  return joinList(balances.map((b) => formatMoney(b.amount, b.currency)));
}

/**
 * The booked notice's line when the booking earned a reward (none: null). The booking request's
 * answer carries `reward` beside the booking (calls-travel.ts `bookingAnswerSchema`); read it as
 * the wire value it is.
 */
export function earnedText(booking: object): string | null {
  const parsed = 'reward' in booking ? travelRewardSchema.safeParse(booking.reward) : null;
  const reward = parsed?.success ? parsed.data : null;
  if (!reward || reward.status !== 'EARNED') return null;
  return `You earned ${formatMoney(reward.amount.amount, reward.amount.currency)} in travel rewards for booking under the cap.`;
}

function RewardItem({ reward }: { reward: TravelReward }) {
  const voided = reward.status === 'VOIDED';
  return (
    <li className="reward-item">
      <div className="reward-what">
        <span className="reward-trip">{reward.trip_name}</span>
        <span className="muted reward-booking">{bookingSummary(reward.booking)}</span>
        <span className="muted reward-cap">
          {formatMoney(reward.cap.amount - reward.price.amount, reward.cap.currency)} under the cap · {reward.share_percent}% · {formatShortDay(reward.earned_at)}
        </span>
      </div>
      <div className="reward-amount">
        <span className={voided ? 'reward-voided' : undefined}>{formatMoney(reward.amount.amount, reward.amount.currency)}</span>
        <StatusPill tone={voided ? 'neutral' : 'ok'} title={reward.void_reason ?? undefined}>
          {voided ? 'Voided' : 'Earned'}
        </StatusPill>
        {voided && reward.void_reason && <span className="muted reward-reason">{reward.void_reason}</span>}
      </div>
    </li>
  );
}

export interface RewardsViewProps {
  view: RewardsState;
  currency: string;
  onRetry(): void;
  /** Under the list when there is more than one page (`Pager`). */
  pager?: ReactNode;
}

/**
 * The panel as drawn from its state (pure: the server renderer tests it). Nothing while the first
 * read is on its way, nor when rewards are off and nothing was earned (most businesses: no flash
 * of a panel above the trips that then goes).
 */
export function RewardsView({ view, currency, onRetry, pager }: RewardsViewProps) {
  const titleId = useId();
  if (view.state === 'loading' || (view.state === 'ready' && !view.enabled && view.rewards.length === 0)) return null;
  return (
    <section className="travel-rewards" aria-labelledby={titleId}>
      <h2 id={titleId}>Rewards</h2>
      {view.state === 'offline' && <p className="muted">Connect to see rewards.</p>}
      {view.state === 'failed' && (
        <p className="notice notice-error" role="alert">
          {view.message}{' '}
          <Button size="sm" onClick={onRetry}>
            Try again
          </Button>
        </p>
      )}
      {view.state === 'ready' && (
        <>
          <p className="reward-balance">
            Balance <strong>{balanceText(view.balances, currency)}</strong>
            {view.enabled ? (
              <span className="muted"> · Book in policy below the cap to earn {view.share_percent}% of what you save.</span>
            ) : (
              <span className="muted"> · Rewards are turned off for new bookings.</span>
            )}
          </p>
          {(view.rewards.length > 0 || view.more) && (
            <details className="reward-details">
              <summary>{view.more ? 'Your rewards, newest first' : `${view.rewards.length} ${view.rewards.length === 1 ? 'reward' : 'rewards'}`}</summary>
              {view.loadingPage ? (
                <p className="muted" role="status">Loading rewards…</p>
              ) : (
                <ul className="reward-list">
                  {view.rewards.map((r) => (
                    <RewardItem key={r.id} reward={r} />
                  ))}
                </ul>
              )}
              {pager}
            </details>
          )}
        </>
      )}
    </section>
  );
}

/**
 * Issue 27: the traveller's travel rewards on /travel — balance per currency, the list with trip,
 * booking and status. Read online only (rewards are not mirrored): offline it says so and reads
 * when the connection returns.
 */
export function RewardsPanel({ currency }: { currency: string }) {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const [settings, setSettings] = useState<{ enabled: boolean; share_percent: number } | { message: string } | null>(null);
  const [balances, setBalances] = useState<Money[] | null>(null);
  const [turn, setTurn] = useState(0);

  // The settings when online (again when the connection returns); offline the panel says so.
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.travelSettings().then((r) => live && setSettings(r.ok ? r.settings.rewards : { message: errorText(r.error) }));
    return () => {
      live = false;
    };
  }, [client, online, turn]);
  // The rewards a page at a time (`usePagedQuery`); each page answers the balances too.
  const paged = usePagedQuery<TravelReward>({
    search: {},
    pageSize: DEFAULT_PAGE_SIZE,
    online,
    load: async ({ start }) => {
      const r = await client.travelRewards(start);
      if (!r.ok) return r;
      setBalances(r.balances);
      return { ok: true, rows: r.rewards, next: r.next };
    },
  });
  const { list, reload } = paged;
  const retry = useCallback(() => {
    setSettings(null);
    setTurn((n) => n + 1);
    reload();
  }, [reload]);

  let view: RewardsState;
  if (!online) view = { state: 'offline' };
  else if (settings && 'message' in settings) view = { state: 'failed', message: settings.message };
  else if (list.state === 'error') view = { state: 'failed', message: list.message };
  else if (!settings || !balances) view = { state: 'loading' };
  else {
    const rows = list.state === 'ready' ? list.rows : [];
    view = { state: 'ready', ...settings, rewards: rows, balances, more: paged.hasNext || paged.hasPrev, loadingPage: list.state !== 'ready' };
  }
  return <RewardsView view={view} currency={currency} onRetry={retry} pager={<Pager paged={paged} what="Rewards" disabled={!online} />} />;
}
