import { describe, expect, it } from 'vitest';
import { automationAmount, dailyYield, DEFAULT_WALLET_SETTINGS, quoteTransfer } from './treasury-rules.ts';

describe('treasury rules', () => {
  const settings = { ...DEFAULT_WALLET_SETTINGS, external_transfer_fee: 150, external_settlement_days: 2 };
  it('quotes internal transfers free on the same business day, external ones with the fee and bank days', () => {
    expect(quoteTransfer({ from: 'wallet', to: 'wallet', settings, today: '2026-11-25' })).toEqual({ fee: 0, expected_settlement_date: '2026-11-25' });
    // Saturday → Monday.
    expect(quoteTransfer({ from: 'wallet', to: 'wallet', settings, today: '2026-11-28' })).toEqual({ fee: 0, expected_settlement_date: '2026-11-30' });
    // Wednesday before Thanksgiving + 2 bank days → Monday.
    expect(quoteTransfer({ from: 'wallet', to: 'bank', settings, today: '2026-11-25' })).toEqual({ fee: 150, expected_settlement_date: '2026-11-30' });
    expect(quoteTransfer({ from: 'bank', to: 'wallet', settings, today: '2026-11-25' }).fee).toBe(0);
  });
  it('accrues yield rounded down, never on nothing', () => {
    expect(dailyYield(36_500_000, 400)).toBe(4_000);
    expect(dailyYield(100, 400)).toBe(0);
    expect(dailyYield(-5, 400)).toBe(0);
  });
  it('moves the excess or the shortfall only when due', () => {
    expect(automationAmount('SWEEP_ABOVE', 150_000, 100_000, 80_000)).toBe(70_000);
    expect(automationAmount('SWEEP_ABOVE', 90_000, 100_000, 80_000)).toBe(0);
    expect(automationAmount('TOP_UP_BELOW', 10_000, 20_000, 50_000)).toBe(40_000);
    expect(automationAmount('TOP_UP_BELOW', 30_000, 20_000, 50_000)).toBe(0);
  });
});
