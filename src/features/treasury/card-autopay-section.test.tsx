import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { walletAccountSchema } from '../../../schema/entities/wallet-account.ts';
import type { TreasuryCardAutopay } from '../../../workers/api.ts';
import { createAppStore } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { AutopayDialog, CardAutopayFacts, CardAutopaySection, autopayConfirmWords, thresholdAmount } from './card-autopay-section.tsx';
import type { WalletRow } from './use-treasury.ts';

/** Issue 30, /treasury "Card autopay" on the server renderer: the facts, the form, the confirmation's words, the offline state. */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2026-11-29T12:00:00.000Z';
const account = (n: number, over: Record<string, unknown> = {}): WalletRow => walletAccountSchema.parse({
  id: id(n), name: 'Operating', kind: 'OPERATING', currency: 'USD', balance: 12_500_000, pending_in: 0, pending_out: 0, is_primary: true,
  history: [], created_at: AT, business_id: id(99), change_seq: 3, updated_at: AT, deleted: false, ...over,
});
const usd = (amount: number) => ({ amount, currency: 'USD' });
const client = {} as DataClient;
const render = (node: React.ReactNode) => renderToStaticMarkup(<DataProvider client={client} store={createAppStore(true)}>{node}</DataProvider>);
const noop = () => {};

describe('CardAutopayFacts', () => {
  it('shows the unpaid balance with its currency and what it is, and the rule or the default', () => {
    const none: TreasuryCardAutopay = { autopay_threshold: null, unpaid_card_balance: usd(123_456) };
    const html = render(<CardAutopayFacts autopay={none} from="Operating" />);
    expect(html).toContain('Unpaid card balance</dt><dd>$1,234.56 USD');
    expect(html).toContain('Cleared charges not yet paid');
    expect(html).toContain('Paid 3 days after charges clear');
    const set = render(<CardAutopayFacts autopay={{ ...none, autopay_threshold: usd(500_000) }} from="Operating" />);
    expect(set).toContain('When unpaid card spend reaches $5,000.00 USD, it is paid from Operating at once.');
    expect(set).not.toContain('Paid 3 days after');
  });
});

describe('the confirmation and the amount', () => {
  it('names the rule, and says when the unpaid balance is paid now', () => {
    expect(autopayConfirmWords(usd(500_000), 'Operating', usd(100_000))).toEqual({
      rule: 'When unpaid card spend reaches $5,000.00 USD, it is paid from Operating at once.',
      note: 'Until then, card spend is paid 3 days after charges clear.', confirmLabel: 'Save threshold', paysNow: false,
    });
    const now = autopayConfirmWords(usd(50_000), 'Operating', usd(100_000));
    expect(now.note).toBe('The unpaid $1,000.00 USD already reaches it: it is paid from Operating now.');
    expect(now.confirmLabel).toBe('Save and pay $1,000.00 USD');
    expect(autopayConfirmWords({ amount: 50_000, currency: 'EUR' }, 'Operating EUR', usd(100_000)).paysNow).toBe(false);
  });

  it.each([
    ['5000', 500_000], ['$5,000.50', 500_050], [' 0.01 ', 1],
  ] as const)('reads %s as %i minor units', (text, amount) => expect(thresholdAmount(text, 'USD')).toEqual({ ok: true, amount }));
  it.each(['', '0', '-5', 'abc', '1.234'])('refuses %j naming the currency', (text) => {
    const r = thresholdAmount(text, 'USD');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('in USD');
  });
});

describe('CardAutopaySection and its dialog', () => {
  it('offline with nothing read says so; Edit and Remove need a connection', () => {
    const html = render(<CardAutopaySection client={client} online={false} accounts={[account(1)]} />);
    expect(html).toContain('Card autopay');
    expect(html).toContain('card autopay loads when you’re back online');
    expect(html).not.toContain('aria-busy');
  });

  it('online before the read shows a loading state', () => {
    expect(render(<CardAutopaySection client={client} online accounts={[account(1)]} />)).toContain('Loading card autopay…');
  });

  it('the form asks the amount in the threshold’s currency, a currency picker only with several operating accounts, and shows what is unpaid', () => {
    const autopay: TreasuryCardAutopay = { autopay_threshold: usd(500_000), unpaid_card_balance: usd(100_000) };
    const one = render(<AutopayDialog client={client} autopay={autopay} accounts={[account(1)]} onClose={noop} onSaved={noop} />);
    expect(one).toContain('Edit card autopay');
    expect(one).toContain('Threshold (USD)');
    expect(one).toContain('value="5000.00"');
    expect(one).toContain('Unpaid now: $1,000.00 USD.');
    expect(one).not.toContain('<select');
    const two = render(<AutopayDialog client={client} autopay={{ ...autopay, autopay_threshold: null }}
      accounts={[account(1), account(2, { name: 'Operating EUR', currency: 'EUR' })]} onClose={noop} onSaved={noop} />);
    expect(two).toContain('Set a card autopay threshold');
    expect(two).toContain('<option value="EUR">EUR</option>');
  });
});
