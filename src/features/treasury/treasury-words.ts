import type { WalletAccount, WalletAccountKind } from '../../../schema/entities/wallet-account.ts';
import type { TransferStatus, WalletTransfer } from '../../../schema/entities/wallet-transfer.ts';
import { automationAmount, quoteTransfer, type WalletSettingsValues } from '../../../schema/treasury-rules.ts';
import { toMinorUnits } from '../../../schema/money.ts';
import type { PillTone } from '../../components/status-pill.tsx';
import { formatDay, formatMoney } from '../../lib/format.ts';

/**
 * Issue 30, the Treasury pages' words and figures, pure: account kinds, transfer states, the
 * transfer form's choices and checks, the preview computed offline (schema/treasury-rules.ts, the
 * server's own rule), the automation policies in words, the chart's points.
 */

export const KIND_LABELS: Record<WalletAccountKind, string> = { OPERATING: 'Operating', RESERVE: 'Reserve', INVESTMENT: 'Investment' };

export const STATUS_LABELS: Record<TransferStatus, string> = { PENDING: 'Pending', SETTLED: 'Settled', CANCELED: 'Canceled', FAILED: 'Failed' };
export const STATUS_TONES: Record<TransferStatus, PillTone> = { PENDING: 'info', SETTLED: 'ok', CANCELED: 'neutral', FAILED: 'danger' };
export const STATUS_FILTERS = ['all', 'PENDING', 'SETTLED', 'CANCELED', 'FAILED'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** Accounts as listed: primary first, then operating, reserve, investment, then by name. */
const KIND_ORDER: Record<WalletAccountKind, number> = { OPERATING: 0, RESERVE: 1, INVESTMENT: 2 };
export function sortAccounts<T extends Pick<WalletAccount, 'is_primary' | 'kind' | 'name'>>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => Number(b.is_primary) - Number(a.is_primary) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.name.localeCompare(b.name));
}

/** The totals line: one sum per currency, each saying its currency ("$1,200.00 USD"). */
export function totalsText(rows: readonly Pick<WalletAccount, 'balance' | 'currency'>[]): string {
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(r.currency, (sums.get(r.currency) ?? 0) + r.balance);
  return [...sums].map(([c, n]) => `${formatMoney(n, c)} ${c}`).join(' · ');
}

/** Newest first, then filtered by status. */
export function filterTransfers<T extends Pick<WalletTransfer, 'status' | 'created_at'>>(rows: readonly T[], status: StatusFilter): T[] {
  return rows.filter((t) => status === 'all' || t.status === status).sort((a, b) => b.created_at.localeCompare(a.created_at));
}

/** One side of a transfer the form can name. */
export interface TransferChoice {
  id: string;
  label: string;
  side: 'wallet' | 'bank';
  currency: string;
  /** Why it cannot be chosen (an unverified bank account), or null. */
  disabled: string | null;
  /** Wallet accounts: what can be moved now. */
  balance?: number;
}

export interface BankChoiceSource {
  id: string;
  name: string;
  account_number_masked: string;
  currency: string;
  status: 'UNVERIFIED' | 'PENDING_VERIFICATION' | 'VERIFIED' | 'FAILED';
}

const BANK_WHY: Record<BankChoiceSource['status'], string | null> = {
  VERIFIED: null,
  UNVERIFIED: 'not verified yet: verify it under Bank accounts first',
  PENDING_VERIFICATION: 'verification under way: enter the two deposit amounts first',
  FAILED: 'verification failed: link it again',
};

/** The form's choices: the wallet accounts of the mirror, then the linked bank accounts (only VERIFIED ones enabled). */
export function transferChoices(wallets: readonly WalletAccount[], banks: readonly BankChoiceSource[]): TransferChoice[] {
  return [
    ...sortAccounts(wallets).map((w) => ({
      id: w.id, label: `${w.name} (${KIND_LABELS[w.kind]}) · ${formatMoney(w.balance, w.currency)} ${w.currency}`, side: 'wallet' as const,
      currency: w.currency, disabled: null, balance: w.balance,
    })),
    ...banks.map((b) => ({
      id: b.id, label: `${b.name} ${b.account_number_masked} (bank account)`, side: 'bank' as const, currency: b.currency, disabled: BANK_WHY[b.status],
    })),
  ];
}

export interface TransferFormValues {
  from: string;
  to: string;
  amount: string;
  memo: string;
}
export type TransferFormErrors = Partial<Record<keyof TransferFormValues, string>>;

/** A checked form: both sides, the amount in minor units of the source's currency. */
export interface CheckedTransfer {
  from: TransferChoice;
  to: TransferChoice;
  amount: number;
  currency: string;
  memo: string;
}

/**
 * The form's problems in the server's terms (amount > 0 in whole minor units, two different
 * accounts, one currency, at least one side a wallet account, a verified bank account), or the
 * checked transfer. Funds are checked against the preview (fee included).
 */
export function checkTransferForm(v: TransferFormValues, choices: readonly TransferChoice[]): { ok: true; transfer: CheckedTransfer } | { ok: false; errors: TransferFormErrors } {
  const errors: TransferFormErrors = {};
  const from = choices.find((c) => c.id === v.from);
  const to = choices.find((c) => c.id === v.to);
  if (!from) errors.from = 'Choose the account the money leaves.';
  else if (from.disabled) errors.from = `${from.label} is ${from.disabled}.`;
  if (!to) errors.to = 'Choose the account the money goes to.';
  else if (to.disabled) errors.to = `${to.label} is ${to.disabled}.`;
  if (from && to && from.id === to.id) errors.to = 'A transfer needs two different accounts.';
  else if (from && to && from.side === 'bank' && to.side === 'bank') errors.to = 'One side must be a wallet account.';
  else if (from && to && from.currency !== to.currency) errors.to = `This account is kept in ${to.currency}; the money leaves in ${from.currency}.`;
  const currency = from?.currency ?? 'USD';
  const text = v.amount.trim().replace(/^[$€£¥]/, '').replace(/,/g, '');
  const minor = text === '' ? null : toMinorUnits(text, currency);
  if (text === '') errors.amount = 'Enter an amount.';
  else if (minor === null || !Number.isSafeInteger(minor)) errors.amount = `Enter an amount in ${currency}, like 1250.00.`;
  else if (minor <= 0) errors.amount = 'The amount must be more than zero.';
  if (v.memo.trim().length > 200) errors.memo = 'The memo can be 200 characters at most.';
  if (Object.keys(errors).length > 0 || !from || !to || minor === null) return { ok: false, errors };
  return { ok: true, transfer: { from, to, amount: minor, currency, memo: v.memo.trim() } };
}

/** What the preview step shows: the server's figures (online) or the rule's from the mirror (an estimate). */
export interface TransferPreviewView {
  fee: number;
  expected_settlement_date: string;
  /** The source's balance after the hold (null: a bank account pays, its balance is not ours to know). */
  balance_after: number | null;
  estimate: boolean;
}

/**
 * The preview offline: fee and settlement date by `quoteTransfer` with the wallet settings last
 * read (the defaults when none were), the balance after from the mirror's balance.
 */
export function offlinePreview(t: CheckedTransfer, settings: WalletSettingsValues, today: string): TransferPreviewView {
  const quote = quoteTransfer({ from: t.from.side, to: t.to.side, settings, today });
  const balance_after = t.from.side === 'wallet' && t.from.balance !== undefined ? t.from.balance - t.amount - quote.fee : null;
  return { fee: quote.fee, expected_settlement_date: quote.expected_settlement_date, balance_after, estimate: true };
}

/** The source cannot cover amount plus fee (as the server would refuse: TREASURY_7004, with the available amount). */
export function shortfallText(t: CheckedTransfer, p: TransferPreviewView): string | null {
  if (p.balance_after === null || p.balance_after >= 0 || t.from.balance === undefined) return null;
  return `Not enough money in ${t.from.label.split(' (')[0]}: ${formatMoney(t.from.balance, t.currency)} is available, and this transfer needs ${formatMoney(t.amount + p.fee, t.currency)} with its fee.`;
}

/** The confirmation's sentence: amount, both accounts, fee and date. */
export function confirmText(t: CheckedTransfer, p: TransferPreviewView): string {
  const name = (c: TransferChoice) => c.label.split(' (')[0];
  const fee = p.fee === 0 ? 'no fee' : `a ${formatMoney(p.fee, t.currency)} fee`;
  return `Send ${formatMoney(t.amount, t.currency)} ${t.currency} from ${name(t.from)} to ${name(t.to)}, with ${fee}, settling ${formatDay(p.expected_settlement_date)}.`;
}

/** The UTC calendar date of a moment (what the server counts business days from). */
export const utcToday = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

export interface PolicyWordsInput {
  kind: 'SWEEP_ABOVE' | 'TOP_UP_BELOW';
  account_id: string;
  target_account_id: string;
  threshold: { amount: number; currency: string };
  target: { amount: number; currency: string };
  enabled?: boolean;
}

/** A policy in words: "Every day, move anything above $100,000.00 in Operating down to $80,000.00 into Reserve". */
export function policyText(p: PolicyWordsInput, name: (id: string) => string): string {
  const money = (m: { amount: number; currency: string }) => formatMoney(m.amount, m.currency);
  const words = p.kind === 'SWEEP_ABOVE'
    ? `Every day, move anything above ${money(p.threshold)} in ${name(p.account_id)} down to ${money(p.target)} into ${name(p.target_account_id)}`
    : `Every day, when ${name(p.account_id)} falls below ${money(p.threshold)}, top it up to ${money(p.target)} from ${name(p.target_account_id)}`;
  return p.enabled === false ? `${words} (turned off)` : words;
}

/** What a policy would move at a balance now ("Today it would move $5,000.00"), from the shared rule. */
export function policyTodayText(p: PolicyWordsInput, balance: number | undefined): string | null {
  if (balance === undefined) return null;
  const amount = automationAmount(p.kind, balance, p.threshold.amount, p.target.amount);
  return amount > 0 ? `At today’s balance it would move ${formatMoney(amount, p.threshold.currency)}.` : 'At today’s balance there is nothing to move.';
}

/** A policy form's problems (the server's TREASURY_7009 rule named on the field), before sending. */
export function policyErrors(p: PolicyWordsInput): Partial<Record<'account_id' | 'target_account_id' | 'threshold' | 'target', string>> {
  const e: Partial<Record<'account_id' | 'target_account_id' | 'threshold' | 'target', string>> = {};
  if (!p.account_id) e.account_id = 'Choose the account the rule watches.';
  if (!p.target_account_id) e.target_account_id = 'Choose the other account.';
  else if (p.account_id === p.target_account_id) e.target_account_id = 'Choose a different account from the one watched.';
  if (!(p.threshold.amount > 0)) e.threshold = 'Enter a threshold above zero.';
  if (!(p.target.amount >= 0)) e.target = 'Enter a target of zero or more.';
  else if (p.kind === 'SWEEP_ABOVE' && p.target.amount > p.threshold.amount) e.target = 'For a sweep, the target must be at or below the threshold.';
  else if (p.kind === 'TOP_UP_BELOW' && p.target.amount < p.threshold.amount) e.target = 'For a top-up, the target must be at or above the threshold.';
  return e;
}

/** A yield rate in basis points as a percentage ("4.50 %"). */
export const rateText = (bps: number): string => `${(bps / 100).toFixed(2)} %`;

/** An activity row's words: its memo (else its kind); a yield day adds the rate it accrued at, which a later change of the rate leaves as it was. */
export const actionText = (r: { memo: string; kind: string; yield_rate_bps: number | null }): string => {
  const what = r.memo || r.kind;
  return r.yield_rate_bps === null ? what : `${what} · ${rateText(r.yield_rate_bps)} a year`;
};

/** The chart's points: seconds and closing balances in major units, oldest first (uPlot's columns). */
export function chartColumns(history: readonly { day: string; closing: number }[], exponent: number): [number[], number[]] {
  return [history.map((h) => Date.parse(`${h.day}T00:00:00Z`) / 1000), history.map((h) => h.closing / 10 ** exponent)];
}

/** The chart's words for assistive tech and its summary: range, first and last closing, low and high. */
export function historySummary(history: readonly { day: string; closing: number }[], currency: string): string {
  if (history.length === 0) return 'No balance history yet.';
  const first = history[0]!;
  const last = history[history.length - 1]!;
  const closings = history.map((h) => h.closing);
  const low = Math.min(...closings);
  const high = Math.max(...closings);
  return `From ${formatDay(first.day)} to ${formatDay(last.day)}: ${formatMoney(first.closing, currency)} to ${formatMoney(last.closing, currency)} ${currency} (low ${formatMoney(low, currency)}, high ${formatMoney(high, currency)}).`;
}

/** The stale mark: when the figures were read ("read at Nov 29, 2026, 10:04 AM"). */
export function readAtText(online: boolean, lastSyncedAt: string | number | null | undefined, format: (v: string | number) => string): string | null {
  if (online) return null;
  return lastSyncedAt ? `Offline · read at ${format(lastSyncedAt)}` : 'Offline · not synced yet on this device';
}
