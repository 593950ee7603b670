import { describe, expect, it } from 'vitest';
import { generateDemo } from './generate.ts';
import { generateBills } from './bills.ts';
import { vendorIdentity } from './vendors.ts';

/**
 * The generated bills' shape that the demo and the benchmark rely on, for any day: a small demo
 * still has a "Ready to pay" queue and bills awaiting approval (statuses by quota within each
 * due-date band), and nothing is dated after now.
 */
describe('generateBills', () => {
  it.each(['2026-01-01', '2026-06-15', '2026-11-26', '2027-02-28'])('gives 100 bills on %s every open state, before now', (day) => {
    const now = new Date(`${day}T00:00:00.000Z`);
    const data = generateDemo({ transactions: 50, now });
    const { bills, lines } = generateBills(data, vendorIdentity(data), { count: 100, now, seed: 7 });
    expect(bills).toHaveLength(100);
    const count = (s: string) => bills.filter((b) => b.status === s).length;
    for (const status of ['DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'SCHEDULED', 'PAID', 'RECONCILED']) expect(count(status), status).toBeGreaterThan(0);
    for (const b of bills) {
      expect(b.updated_at <= now.toISOString(), b.id).toBe(true);
      expect(b.amount).toBe(lines.filter((l) => l.bill_id === b.id).reduce((s, l) => s + l.amount, 0));
    }
  });

  it('is the same for the same day and seed', () => {
    const now = new Date('2026-11-26T00:00:00.000Z');
    const data = generateDemo({ transactions: 50, now });
    const a = generateBills(data, vendorIdentity(data), { count: 200, now, seed: 3 });
    const b = generateBills(data, vendorIdentity(data), { count: 200, now, seed: 3 });
    expect(b.bills).toEqual(a.bills);
  });
});
