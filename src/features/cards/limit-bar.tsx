import { formatMoney } from '../../lib/format.ts';
import type { CardView } from '../../lib/cards.ts';
import type { DataClient } from '../../data-access/types.ts';
import { limitBar, limitText } from './card-view.ts';
import { useIntervalSpend } from './use-cards.ts';

export interface LimitBarProps {
  client: DataClient;
  card: CardView;
  version: number;
  /** The first mirror is still downloading: the spend counts only what has arrived. */
  partial: boolean;
}

/**
 * The limit and what is left of it this interval, as a sentence and a bar ("$1,240.00 left of
 * $5,000.00 this month"), from the worker's totals over the card's spend; the per-purchase cap
 * under it when there is one.
 */
export function LimitBar({ client, card, version, partial }: LimitBarProps) {
  const spent = useIntervalSpend(client, card, version);
  const bar = spent === null ? null : limitBar(card.limit, spent);
  const cap = card.limit.per_transaction;
  return (
    <div className="limit" data-testid="limit-bar">
      <div className="limit-text">
        <span>{bar ? bar.text : `${limitText(card.limit)} limit`}</span>
        {bar && <span className="muted">{bar.detail}</span>}
      </div>
      <div
        className={`limit-track limit-${bar?.tone ?? 'ok'}`}
        role="meter"
        aria-label="Limit used"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={bar?.percent ?? 0}
        aria-valuetext={bar ? bar.text : 'Counting this period’s spend…'}
        aria-busy={bar === null || undefined}
      >
        <span className="limit-fill" style={{ width: `${bar?.percent ?? 0}%` }} />
      </div>
      {(cap !== null || partial) && (
        <p className="limit-notes muted">
          {cap !== null && <span>Up to {formatMoney(cap, card.limit.currency)} per purchase</span>}
          {partial && <span>Spend counted from the data downloaded so far; older transactions are still downloading.</span>}
        </p>
      )}
    </div>
  );
}
