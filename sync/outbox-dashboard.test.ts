import { describe, expect, it } from 'vitest';
import { createOutboxEntry, nextEligible } from './outbox-machine.ts';

const REPORT = '33333333-3333-4333-8333-333333333333';
const BOARD = '44444444-4444-4444-8444-444444444444';
const NOW = 1_000_000;

/**
 * A report saved to a new dashboard offline is two entries on two rows. Back online, a first
 * send of the report that fails (it goes into backoff) must hold the dashboard that shows it:
 * sent first, the server would refuse a board naming a report it does not have.
 */
describe('a dashboard waits for the reports it shows', () => {
  const report = createOutboxEntry({ id: 'r', command: 'savedReport.save', args: { id: REPORT, name: 'Merchants', query: { collection: 'transactions', time_grain: 'month', dimension: 'merchant', measure: 'sum' }, chart: 'bar' }, now: NOW - 20 });
  const board = createOutboxEntry({ id: 'd', command: 'dashboard.save', args: { id: BOARD, name: 'Board meeting', items: [{ report_id: REPORT, size: 'full' }] }, now: NOW - 10 });

  it('is not sent while the report is in backoff', () => {
    const inBackoff = { ...report, attempts: 1, not_before: NOW + 5_000 };
    expect(nextEligible([inBackoff, board], NOW)).toBeNull();
    expect(nextEligible([inBackoff, board], NOW + 5_000)?.id).toBe('r');
  });

  it('goes once the report has been sent', () => {
    expect(nextEligible([{ ...report, state: 'done' }, board], NOW)?.id).toBe('d');
  });
});
