import { expectedSettlementDate } from './business-days.ts';

/**
 * Issue 30: what a transfer costs and when it settles, one rule for the server (which recomputes
 * it on every create and refuses TREASURY_7006 when it differs from the client's `expected_fee`)
 * and the app (the preview shown offline before the outbox sends it). Pure.
 *  - Between two wallet accounts: free, settles the same bank business day (the next one when
 *    today is a weekend or holiday).
 *  - To a linked bank account: the business's `external_transfer_fee`, settles after
 *    `external_settlement_days` bank business days.
 *  - From a linked bank account into the wallet (a pull): free, the same days as outgoing.
 */
export interface WalletSettingsValues {
  yield_rate_bps: number;
  external_transfer_fee: number;
  external_settlement_days: number;
}
export const DEFAULT_WALLET_SETTINGS: WalletSettingsValues = { yield_rate_bps: 0, external_transfer_fee: 0, external_settlement_days: 1 };

export type TransferSide = 'wallet' | 'bank';
export interface TransferQuote {
  fee: number;
  expected_settlement_date: string;
}

/** `today`: the UTC calendar date the transfer is made (YYYY-MM-DD). */
export function quoteTransfer(q: { from: TransferSide; to: TransferSide; settings: WalletSettingsValues; today: string }): TransferQuote {
  if (q.from === 'wallet' && q.to === 'wallet') return { fee: 0, expected_settlement_date: expectedSettlementDate(q.today, 0) };
  return {
    fee: q.to === 'bank' ? q.settings.external_transfer_fee : 0,
    expected_settlement_date: expectedSettlementDate(q.today, q.settings.external_settlement_days),
  };
}

/**
 * One day's yield on `balance` minor units at `rateBps` a year (actual/365), rounded down to
 * whole minor units: the daily job posts it once per account and day.
 */
export const dailyYield = (balance: number, rateBps: number): number =>
  balance <= 0 || rateBps <= 0 ? 0 : Math.floor((balance * rateBps) / 10_000 / 365);

/**
 * What an automation policy moves today (calls-treasury.ts): SWEEP_ABOVE the excess over
 * `threshold` down to `target` (out of the account); TOP_UP_BELOW the shortfall below `threshold`
 * up to `target` (into the account); 0 when nothing is due.
 */
export function automationAmount(kind: 'SWEEP_ABOVE' | 'TOP_UP_BELOW', balance: number, threshold: number, target: number): number {
  if (kind === 'SWEEP_ABOVE') return balance > threshold ? balance - target : 0;
  return balance < threshold ? target - balance : 0;
}
