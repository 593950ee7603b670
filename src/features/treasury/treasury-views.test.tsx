import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { walletAccountSchema } from '../../../schema/entities/wallet-account.ts';
import { walletTransferSchema } from '../../../schema/entities/wallet-transfer.ts';
import type { TreasuryPolicy } from '../../../workers/api.ts';
import { createAppStore } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { settingsPatch, settingsValues, ActivityTable, InvestmentFigures } from './account-sections.tsx';
import { AccountsView } from './accounts-view.tsx';
import { PolicyCard } from './automations-view.tsx';
import { BalanceChart } from './balance-chart.tsx';
import { TransferDialog, TransferPreviewFacts, transferRequest } from './transfer-dialog.tsx';
import { TransfersView } from './transfers-view.tsx';
import { checkTransferForm, offlinePreview, transferChoices } from './treasury-words.ts';
import { TREASURY_PAGES } from '../../components/treasury-nav.tsx';
import type { TransferRow, WalletRow } from './use-treasury.ts';

/** The Treasury views on the server renderer, with fake mirror rows (as the worker's referenceData answers them). */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2026-11-29T12:00:00.000Z';
const account = (n: number, over: Record<string, unknown> = {}): WalletRow => walletAccountSchema.parse({
  id: id(n), name: 'Operating', kind: 'OPERATING', currency: 'USD', balance: 12_500_000, pending_in: 0, pending_out: 250_000, is_primary: true,
  history: [{ day: '2026-11-27', closing: 12_000_000 }, { day: '2026-11-28', closing: 12_500_000 }],
  created_at: AT, business_id: id(99), change_seq: 3, updated_at: AT, deleted: false, ...over,
});
const transfer = (n: number, over: Record<string, unknown> = {}): TransferRow => ({
  ...walletTransferSchema.parse({
    id: id(n), from_account_id: id(1), from_name: 'Operating', to_account_id: id(2), to_name: 'Reserve', amount: 250_000, fee: 0, currency: 'USD',
    memo: 'Quarter reserve', status: 'PENDING', expected_settlement_date: '2026-11-30', settled_at: null, canceled_at: null, failed_at: null,
    failure_reason: null, created_by: id(7), automation_policy_id: null, created_at: AT, business_id: id(99), change_seq: 5, updated_at: AT, deleted: false,
    ...over,
  }),
  pending: null, failure: null,
  ...(over.pending !== undefined ? { pending: over.pending as TransferRow['pending'] } : {}),
  ...(over.failure !== undefined ? { failure: over.failure as TransferRow['failure'] } : {}),
});

const client = {} as DataClient;
const render = (node: React.ReactNode) => renderToStaticMarkup(<DataProvider client={client} store={createAppStore(true)}>{node}</DataProvider>);
const noop = () => {};

describe('AccountsView', () => {
  it('shows each account’s balance, pending in and out with the currency, the primary badge and the totals', () => {
    const html = render(<AccountsView accounts={[account(2, { name: 'Reserve', kind: 'RESERVE', is_primary: false, balance: 500_000, pending_out: 0, pending_in: 250_000 }), account(1)]}
      downloading={false} selectedId={id(1)} onSelect={noop} />);
    expect(html.indexOf('Operating')).toBeLessThan(html.indexOf('Reserve'));
    expect(html).toContain('$125,000.00');
    expect(html).toContain('Total available');
    expect(html).toContain('$130,000.00 USD');
    expect(html).toContain('Pending out</dt><dd>$2,500.00 USD');
    expect(html).toContain('Pending in</dt><dd>$2,500.00 USD');
    expect(html).toContain('>Primary<');
    expect(html).toContain('aria-pressed="true"');
    expect(html).toContain('History and activity<span class="sr-only"> of Operating</span>');
  });

  it('marks an account a queued transfer holds money of, says loading, downloading and empty', () => {
    expect(render(<AccountsView accounts={[{ ...account(1), pending: 'pending', failure: null }]} downloading={false} selectedId={null} onSelect={noop} />)).toContain('Waiting to sync');
    expect(render(<AccountsView accounts={null} downloading selectedId={null} onSelect={noop} />)).toContain('aria-busy="true"');
    expect(render(<AccountsView accounts={[]} downloading selectedId={null} onSelect={noop} />)).toContain('Downloading your accounts');
    expect(render(<AccountsView accounts={[]} downloading={false} selectedId={null} onSelect={noop} />)).toContain('No wallet accounts yet');
  });
});

describe('BalanceChart', () => {
  it('names the canvas by its summary and carries the same figures as a table', () => {
    const html = render(<BalanceChart name="Operating" currency="USD" history={account(1).history} />);
    expect(html).toContain('role="img" aria-label="Balance of Operating over time. From Nov 27, 2026 to Nov 28, 2026');
    expect(html).toContain('<summary>Show as a table</summary>');
    expect(html).toContain('Closing balance (USD)');
    expect(html).toContain('$125,000.00');
  });
});

describe('TransfersView', () => {
  const view = (rows: TransferRow[], status: 'all' | 'PENDING' | 'SETTLED' = 'all') => render(
    <TransfersView transfers={rows} downloading={false} status={status} onStatus={noop} onCancel={noop} onAgain={noop} onDiscard={noop} onRetry={noop} />);

  it('lists transfers with amount, fee and currency, the state, and Cancel for a PENDING one only', () => {
    const html = view([transfer(1), transfer(2, { status: 'SETTLED', settled_at: AT, memo: '' })]);
    expect(html).toContain('2 transfers');
    expect(html).toContain('Fee $0.00 USD');
    expect(html).toContain('>Pending<');
    expect(html).toContain('Settled Nov 29, 2026');
    expect(html.match(/Cancel transfer/g)).toHaveLength(1);
    expect(html).toContain('Cancel transfer<span class="sr-only"> of $2,500.00 USD from Operating to Reserve</span>');
  });

  it('a refused create keeps the input: the server’s words with “Change and send again” and Discard; a filter with nothing says so', () => {
    const html = view([transfer(3, { change_seq: 0, pending: 'failed', failure: { command_id: id(50), message: 'There is not enough money in this account for that. Available: $120.00 USD.' } })]);
    expect(html).toContain('The server refused this transfer:');
    expect(html).toContain('Available: $120.00 USD.');
    expect(html).toContain('Change and send again');
    expect(html).toContain('Discard');
    expect(html).not.toContain('Cancel transfer');
    expect(view([transfer(1)], 'SETTLED')).toContain('No settled transfers');
    // The figures the server named, read from the refused command's outbox entry by the page.
    const refused = transfer(4, { change_seq: 0, pending: 'failed', failure: { command_id: id(51), message: 'The fee or settlement date changed.' } });
    expect(render(<TransfersView transfers={[refused]} downloading={false} status="all" onStatus={noop} onCancel={noop} onAgain={noop} onDiscard={noop} onRetry={noop}
      refusals={{ [id(51)]: 'The fee or settlement date changed. Fee: $7.00 USD.' }} />)).toContain('Fee: $7.00 USD.');
  });
});

describe('the transfer dialog', () => {
  const accounts = [account(1), account(2, { name: 'Reserve', kind: 'RESERVE', is_primary: false, balance: 500_000 })];

  it('asks from, to (wallet accounts from the mirror), amount in the account’s currency and memo; offline says bank accounts need a connection', () => {
    const html = render(<TransferDialog client={client} online={false} accounts={accounts} onClose={noop} />);
    expect(html).toContain('New transfer');
    expect(html).toContain('<optgroup label="Wallet accounts">');
    expect(html).toContain('Operating (Operating) · $125,000.00 USD');
    expect(html).toContain('Amount (USD)');
    expect(html).toContain('Linked bank accounts can be chosen when you’re online.');
    expect(html).toContain('Preview transfer');
  });

  it('the preview names amount, both accounts, fee, date and the balance after; offline it is marked an estimate', () => {
    const choices = transferChoices(accounts, [{ id: id(10), name: 'Chase', account_number_masked: '••6789', currency: 'USD', status: 'VERIFIED' }]);
    const checked = checkTransferForm({ from: id(1), to: id(10), amount: '2500', memo: '' }, choices);
    if (!checked.ok) throw new Error('form');
    const p = offlinePreview(checked.transfer, { yield_rate_bps: 0, external_transfer_fee: 500, external_settlement_days: 2 }, '2026-11-27');
    const html = render(<TransferPreviewFacts transfer={checked.transfer} preview={p} />);
    expect(html).toContain('Estimate: you’re offline');
    expect(html).toContain('the standard fee schedule (the wallet settings have not been read on this device yet)');
    for (const s of ['Amount</dt><dd>$2,500.00 USD', 'From</dt><dd>Operating', 'To</dt><dd>Chase ••6789', 'Fee</dt><dd>$5.00 USD', 'Expected settlement</dt><dd>Dec 1, 2026', 'Operating after the hold</dt><dd>$122,495.00 USD']) {
      expect(html).toContain(s);
    }
    expect(render(<TransferPreviewFacts transfer={checked.transfer} preview={{ ...p, estimate: false }} />)).not.toContain('Estimate');
    expect(transferRequest(checked.transfer)).toEqual({ walletId: id(1), body: { to_account_id: id(10), amount: { amount: 250_000, currency: 'USD' } } });
  });

  it('a pull from a bank account goes on the receiving wallet account’s path', () => {
    const choices = transferChoices(accounts, [{ id: id(10), name: 'Chase', account_number_masked: '••6789', currency: 'USD', status: 'VERIFIED' }]);
    const checked = checkTransferForm({ from: id(10), to: id(2), amount: '10', memo: 'Top up' }, choices);
    if (!checked.ok) throw new Error('form');
    expect(transferRequest(checked.transfer)).toEqual({
      walletId: id(2), body: { to_account_id: id(2), from_bank_account_id: id(10), amount: { amount: 1_000, currency: 'USD' }, memo: 'Top up' },
    });
  });
});

describe('account sections', () => {
  it('investment figures say rate and accrued amounts with their currency', () => {
    const html = render(<InvestmentFigures account={{
      uuid: id(3), name: 'Investment', kind: 'INVESTMENT', balance: { amount: 5_000_000, currency: 'USD' }, pending_in: { amount: 0, currency: 'USD' },
      pending_out: { amount: 0, currency: 'USD' }, is_primary: false, created_at: AT, yield_rate_bps: 450,
      accrued_this_month: { amount: 1_849, currency: 'USD' }, accrued_total: { amount: 9_999, currency: 'USD' }, last_accrual_date: '2026-11-28',
    }} />);
    expect(html).toContain('4.50 % a year');
    expect(html).toContain('Accrued this month</dt><dd>$18.49 USD');
    expect(html).toContain('Last accrual</dt><dd>Nov 28, 2026');
  });

  it('activity rows with the balance after (a page of them: the Pager moves between pages)', () => {
    const row = { entry_id: id(40), kind: 'TRANSFER', memo: 'To Reserve', amount: { amount: -250_000, currency: 'USD' }, balance_after: { amount: 12_250_000, currency: 'USD' },
      effective_date: '2026-11-29', created_at: AT, source_type: 'wallet_transfer', source_id: id(1), yield_rate_bps: null };
    const accrual = { ...row, entry_id: id(41), kind: 'YIELD_ACCRUAL', memo: 'Yield for 2026-11-28', amount: { amount: 493, currency: 'USD' },
      source_type: 'yield_accrual', yield_rate_bps: 450 };
    const html = render(<ActivityTable rows={[row, accrual]} currency="USD" />);
    expect(html).toContain('To Reserve</th>');
    // The rate that day accrued at, whatever the rate is now.
    expect(html).toContain('Yield for 2026-11-28 · 4.50 % a year</th>');
    expect(html).toContain('-$2,500.00');
    expect(html).toContain('Balance after (USD)');
    expect(render(<ActivityTable rows={[]} currency="USD" />)).toContain('No activity yet.');
    expect(render(<ActivityTable rows={[]} currency="USD" later />)).toContain('No more activity on this page.');
  });

  it('wallet settings: only what changed is sent; out-of-range values are refused on their field', () => {
    const saved = { yield_rate_bps: 450, external_transfer_fee: 500, external_settlement_days: 2 };
    const values = settingsValues(saved, 'USD');
    expect(values).toEqual({ rate: '4.50', fee: '5.00', days: '2' });
    expect(settingsPatch({ ...values, rate: '4.75' }, saved, 'USD')).toEqual({ ok: true, patch: { yield_rate_bps: 475 } });
    expect(settingsPatch(values, saved, 'USD')).toEqual({ ok: true, patch: {} });
    expect(settingsPatch({ rate: '25', fee: '-1', days: '9' }, saved, 'USD')).toMatchObject({ ok: false, errors: { rate: expect.any(String), fee: expect.any(String), days: expect.any(String) } });
  });
});

describe('automations', () => {
  const policy: TreasuryPolicy = {
    id: id(60), kind: 'SWEEP_ABOVE', account_id: id(1), target_account_id: id(2), threshold: { amount: 10_000_000, currency: 'USD' },
    target: { amount: 8_000_000, currency: 'USD' }, enabled: true, created_at: AT, updated_at: AT, unacknowledged_failures: 1,
    runs: [
      { id: id(61), run_day: '2026-11-29', status: 'FAILED', transfer_id: null, amount: null, failure_reason: 'Reserve is closed', acknowledged_at: null, created_at: AT },
      { id: id(62), run_day: '2026-11-28', status: 'MOVED', transfer_id: id(63), amount: { amount: 4_500_000, currency: 'USD' }, failure_reason: null, acknowledged_at: null, created_at: AT },
    ],
  };
  it('a policy card says the rule in words, its runs, the failures to acknowledge', () => {
    const html = render(<ul><PolicyCard policy={policy} name={(x) => (x === id(1) ? 'Operating' : 'Reserve')} busy={false} onEdit={noop} onDelete={noop} onAcknowledge={noop} /></ul>);
    expect(html).toContain('Every day, move anything above $100,000.00 in Operating down to $80,000.00 into Reserve');
    expect(html).toContain('1 failed run');
    expect(html).toContain('Reserve is closed');
    expect(html).toContain('Moved');
    expect(html).toContain('$45,000.00 USD');
    expect(html).toContain('Acknowledge failures');
  });

  it('the sub-navigation is one list of pages', () => {
    expect(TREASURY_PAGES.map((p) => p.to)).toEqual(['/treasury', '/treasury/transfers', '/treasury/automations', '/treasury/bank-accounts', '/treasury/statements', '/treasury/flex']);
  });
});
