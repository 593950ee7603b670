import type { Money, Trip, TripStatus } from '../../../schema/entities/trip.ts';
import { effectiveTripStatus } from '../../../schema/travel-rules.ts';
import type { PillTone } from '../../components/status-pill.tsx';
import type { SyncMarkRow } from '../../components/sync-mark.tsx';
import { formatMoney } from '../../lib/format.ts';
import { TRIP_STATUS_LABELS, TRIP_STATUS_TONES, tripDates } from '../../lib/trip-labels.ts';

/** A trip as the worker shows it: the row with the commands still in the outbox on top, and its marks. */
export type TripView = Trip & SyncMarkRow;

/** "$1,240.00 + €25.00": one amount per currency, never added across currencies. */
export function moneyList(amounts: readonly Money[]): string {
  return amounts.map((m) => formatMoney(m.amount, m.currency)).join(' + ');
}

/** The trip's totals as the server last summed them (the list's column); its `total` when it has none per currency. */
export const tripTotals = (t: Pick<Trip, 'total' | 'totals'>): Money[] => (t.totals.length > 0 ? t.totals : [t.total]);

export interface TripLine {
  status: TripStatus;
  statusLabel: string;
  tone: PillTone;
  dates: string;
  /** "Lisbon (LIS)". */
  where: string;
  total: string;
  /** "of $2,000.00 budget", or null without a budget. */
  budget: string | null;
}

/** One trip in the list's words; the status follows the dates (`effectiveTripStatus`, the viewer's today). Pure. */
export function tripLine(t: Pick<Trip, 'status' | 'start_date' | 'end_date' | 'destination' | 'destination_name' | 'total' | 'totals' | 'budget'>, today: string): TripLine {
  const status = effectiveTripStatus(t, today);
  return {
    status,
    statusLabel: TRIP_STATUS_LABELS[status],
    tone: TRIP_STATUS_TONES[status],
    dates: tripDates(t.start_date, t.end_date),
    where: t.destination_name && t.destination_name !== t.destination ? `${t.destination_name} (${t.destination})` : t.destination,
    total: moneyList(tripTotals(t)),
    budget: t.budget ? `of ${formatMoney(t.budget.amount, t.budget.currency)} budget` : null,
  };
}
