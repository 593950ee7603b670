import { createHash } from 'node:crypto';
import type { ReimbursementRate } from '../../schema/entities/reimbursement-rate.ts';

/**
 * The demo business's reimbursement rates (issue 9 §3): a few per-diem locations above the 68 USD
 * default. A location's rate is paid in its currency (London in pounds); mileage keeps the IRS
 * rates (no override), so the demo's mileage line reads the IRS figure.
 */
const DEMO_PER_DIEM_LOCATIONS = [
  { name: 'New York', rate: 7900, currency: 'USD' },
  { name: 'San Francisco', rate: 7900, currency: 'USD' },
  { name: 'London', rate: 7500, currency: 'GBP' },
] as const;

/** A stable id per business and name (re-seeding gives the same ids). */
function stableUuid(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The rows, stamped with the seqs after `afterSeq`. */
export function demoRates(businessId: string, afterSeq: number, at: string): ReimbursementRate[] {
  return DEMO_PER_DIEM_LOCATIONS.map((l, i) => ({
    id: stableUuid(`${businessId}:per-diem:${l.name}`), kind: 'PER_DIEM', name: l.name, year: null, rate: l.rate, currency: l.currency,
    business_id: businessId, change_seq: afterSeq + i + 1, updated_at: at, deleted: false,
  }));
}
