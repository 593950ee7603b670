import { describe, expect, it } from 'vitest';
import { walletAccountSchema, type WalletAccount } from '../../../schema/entities/wallet-account.ts';
import {
  checkTransferForm, confirmText, filterTransfers, historySummary, offlinePreview, policyErrors, policyText, policyTodayText, rateText, readAtText,
  shortfallText, sortAccounts, totalsText, transferChoices, type BankChoiceSource, type CheckedTransfer,
} from './treasury-words.ts';
import { refusalText } from './refusal-text.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2026-11-29T12:00:00.000Z';
const wallet = (n: number, over: Partial<WalletAccount> = {}): WalletAccount => walletAccountSchema.parse({
  id: id(n), name: 'Operating', kind: 'OPERATING', currency: 'USD', balance: 1_000_000, pending_in: 0, pending_out: 0, is_primary: false,
  history: [], created_at: AT, business_id: id(99), change_seq: 1, updated_at: AT, deleted: false, ...over,
});
const OPERATING = wallet(1, { is_primary: true, balance: 12_500_000 });
const RESERVE = wallet(2, { name: 'Reserve', kind: 'RESERVE', balance: 500_000 });
const bank = (n: number, status: BankChoiceSource['status']): BankChoiceSource => ({ id: id(n), name: 'Chase', account_number_masked: '••6789', currency: 'USD', status });
const SETTINGS = { yield_rate_bps: 450, external_transfer_fee: 500, external_settlement_days: 2 };

describe('accounts', () => {
  it('lists the primary first, then by kind; totals say their currency', () => {
    const eur = wallet(3, { name: 'Euro reserve', kind: 'RESERVE', currency: 'EUR', balance: 10_000 });
    expect(sortAccounts([RESERVE, eur, OPERATING]).map((a) => a.name)).toEqual(['Operating', 'Euro reserve', 'Reserve']);
    expect(totalsText([OPERATING, RESERVE, eur])).toBe('$130,000.00 USD · €100.00 EUR');
  });

  it('says the history in words (range, first and last, low and high), and the stale mark offline only', () => {
    const history = [{ day: '2026-11-01', closing: 100_000 }, { day: '2026-11-10', closing: 50_000 }, { day: '2026-11-20', closing: 250_000 }];
    expect(historySummary(history, 'USD')).toBe('From Nov 1, 2026 to Nov 20, 2026: $1,000.00 to $2,500.00 USD (low $500.00, high $2,500.00).');
    expect(historySummary([], 'USD')).toBe('No balance history yet.');
    expect(readAtText(true, AT, String)).toBeNull();
    expect(readAtText(false, AT, () => 'Nov 29, 2026, 12:00 PM')).toBe('Offline · read at Nov 29, 2026, 12:00 PM');
    expect(readAtText(false, null, String)).toBe('Offline · not synced yet on this device');
    expect(rateText(450)).toBe('4.50 %');
  });
});

describe('the transfer form', () => {
  const choices = transferChoices([RESERVE, OPERATING], [bank(10, 'VERIFIED'), bank(11, 'UNVERIFIED')]);

  it('offers the wallet accounts with balances, and the bank accounts with only VERIFIED ones enabled (the others say why)', () => {
    expect(choices.map((c) => [c.label, c.disabled])).toEqual([
      ['Operating (Operating) · $125,000.00 USD', null],
      ['Reserve (Reserve) · $5,000.00 USD', null],
      ['Chase ••6789 (bank account)', null],
      ['Chase ••6789 (bank account)', 'not verified yet: verify it under Bank accounts first'],
    ]);
  });

  it('refuses what the server would: no amount, zero, fractions of a cent, the same account twice, two bank accounts, an unverified one', () => {
    const check = (over: Partial<{ from: string; to: string; amount: string; memo: string }>) =>
      checkTransferForm({ from: id(1), to: id(2), amount: '100', memo: '', ...over }, choices);
    expect(check({ amount: '' })).toEqual({ ok: false, errors: { amount: 'Enter an amount.' } });
    expect(check({ amount: '0' })).toEqual({ ok: false, errors: { amount: 'The amount must be more than zero.' } });
    expect(check({ amount: '1.005' })).toMatchObject({ ok: false, errors: { amount: 'Enter an amount in USD, like 1250.00.' } });
    expect(check({ to: id(1) })).toMatchObject({ ok: false, errors: { to: 'A transfer needs two different accounts.' } });
    expect(check({ from: id(10), to: id(10) })).toMatchObject({ ok: false });
    expect(check({ to: id(11) })).toMatchObject({ ok: false, errors: { to: expect.stringContaining('not verified yet') } });
    expect(check({ amount: '$1,250.50', memo: ' Float ' })).toMatchObject({ ok: true, transfer: { amount: 125_050, currency: 'USD', memo: 'Float' } });
  });

  it('previews offline with the shared rule: between wallet accounts free and the same business day; to a bank the fee and its days', () => {
    const internal = checkTransferForm({ from: id(1), to: id(2), amount: '2500', memo: '' }, choices);
    const external = checkTransferForm({ from: id(1), to: id(10), amount: '2500', memo: '' }, choices);
    if (!internal.ok || !external.ok) throw new Error('form');
    // Friday Nov 27, 2026: settles that day; two business days later is Tuesday Dec 1.
    expect(offlinePreview(internal.transfer, SETTINGS, '2026-11-27')).toEqual({ fee: 0, expected_settlement_date: '2026-11-27', balance_after: 12_250_000, estimate: true });
    const p = offlinePreview(external.transfer, SETTINGS, '2026-11-27');
    expect(p).toEqual({ fee: 500, expected_settlement_date: '2026-12-01', balance_after: 12_249_500, estimate: true });
    expect(confirmText(external.transfer, p)).toBe('Send $2,500.00 USD from Operating to Chase ••6789, with a $5.00 fee, settling Dec 1, 2026.');
    // Saturday: the next business day.
    expect(offlinePreview(internal.transfer, SETTINGS, '2026-11-28').expected_settlement_date).toBe('2026-11-30');
  });

  it('a pull from a bank account has no balance after of ours; a shortfall names what is available and what is needed', () => {
    const pull = checkTransferForm({ from: id(10), to: id(2), amount: '10', memo: '' }, choices);
    if (!pull.ok) throw new Error('form');
    expect(offlinePreview(pull.transfer, SETTINGS, '2026-11-27')).toMatchObject({ fee: 0, balance_after: null });
    const big = checkTransferForm({ from: id(2), to: id(10), amount: '5000', memo: '' }, choices);
    if (!big.ok) throw new Error('form');
    const p = offlinePreview(big.transfer, SETTINGS, '2026-11-27');
    expect(shortfallText(big.transfer as CheckedTransfer, p)).toBe('Not enough money in Reserve: $5,000.00 is available, and this transfer needs $5,005.00 with its fee.');
  });

  it('says a refusal in the server’s words with its figures', () => {
    expect(refusalText({ error_code: 'TREASURY_7004', message: 'There is not enough money in this account for that.', errors: { available: { amount: 12_000, currency: 'USD' } } }, 'USD'))
      .toBe('There is not enough money in this account for that. Available: $120.00 USD.');
    expect(refusalText({ error_code: 'TREASURY_7006', errors: { fee: 700, expected_settlement_date: '2026-12-02' } }, 'USD'))
      .toContain('Fee: $7.00 USD. Expected settlement: Dec 2, 2026.');
    // The server's own TREASURY_7004: its message names the available amount, errors.amount repeats it for the field.
    const server = { error_code: 'TREASURY_7004', message: 'Not enough funds in Operating: 120.00 USD is available.', errors: { amount: '120.00 USD is available' } };
    expect(refusalText(server, 'USD')).toBe('Not enough funds in Operating: 120.00 USD is available.');
    // And its TREASURY_7006: money and a date as strings, none in the message, each said once.
    expect(refusalText({ error_code: 'TREASURY_7006', message: 'The fee or settlement date changed since you previewed this transfer.', errors: { fee: '7.00 USD', expected_settlement_date: '2026-12-02' } }, 'USD'))
      .toBe('The fee or settlement date changed since you previewed this transfer. Fee: 7.00 USD. Expected settlement: Dec 2, 2026.');
  });
});

describe('transfers list', () => {
  it('newest first, filtered by status', () => {
    const rows = [
      { id: 'a', status: 'SETTLED' as const, created_at: '2026-11-01T00:00:00Z' },
      { id: 'b', status: 'PENDING' as const, created_at: '2026-11-03T00:00:00Z' },
      { id: 'c', status: 'PENDING' as const, created_at: '2026-11-02T00:00:00Z' },
    ];
    expect(filterTransfers(rows, 'all').map((r) => r.id)).toEqual(['b', 'c', 'a']);
    expect(filterTransfers(rows, 'PENDING').map((r) => r.id)).toEqual(['b', 'c']);
  });
});

describe('automation policies in words', () => {
  const names = (x: string) => (x === id(1) ? 'Operating' : 'Reserve');
  const sweep = { kind: 'SWEEP_ABOVE' as const, account_id: id(1), target_account_id: id(2), threshold: { amount: 10_000_000, currency: 'USD' }, target: { amount: 8_000_000, currency: 'USD' } };

  it('says what the rule does, and what it would move at today’s balance', () => {
    expect(policyText(sweep, names)).toBe('Every day, move anything above $100,000.00 in Operating down to $80,000.00 into Reserve');
    expect(policyText({ ...sweep, kind: 'TOP_UP_BELOW', threshold: { amount: 500_000, currency: 'USD' }, target: { amount: 1_000_000, currency: 'USD' }, enabled: false }, names))
      .toBe('Every day, when Operating falls below $5,000.00, top it up to $10,000.00 from Reserve (turned off)');
    expect(policyTodayText(sweep, 12_500_000)).toBe('At today’s balance it would move $45,000.00.');
    expect(policyTodayText(sweep, 9_000_000)).toBe('At today’s balance there is nothing to move.');
  });

  it('names the field that does not fit, as TREASURY_7009 would', () => {
    expect(policyErrors(sweep)).toEqual({});
    expect(policyErrors({ ...sweep, target: { amount: 20_000_000, currency: 'USD' } })).toEqual({ target: 'For a sweep, the target must be at or below the threshold.' });
    expect(policyErrors({ ...sweep, kind: 'TOP_UP_BELOW' })).toEqual({ target: 'For a top-up, the target must be at or above the threshold.' });
    expect(policyErrors({ ...sweep, target_account_id: id(1) })).toEqual({ target_account_id: 'Choose a different account from the one watched.' });
    expect(policyErrors({ ...sweep, threshold: { amount: Number.NaN, currency: 'USD' } })).toMatchObject({ threshold: 'Enter a threshold above zero.' });
  });
});
