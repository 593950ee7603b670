import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { FlexOffer } from '../../../workers/api.ts';
import { createAppStore } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { BillFlex, FlexOfferDialog, offersFlex } from './bill-flex.tsx';

/** The bill drawer's "Pay with flex": who and which bills see it, offline words, the terms offered. */
const ID = '00000000-0000-4000-8000-0000000000c1';
const client = {} as DataClient;
const noop = () => undefined;
const bill = { id: ID, status: 'APPROVED', currency: 'USD', amount: 120_000 };

function render(node: ReactNode, role = 'BUSINESS_ADMIN', permissions: string[] = [], online = true) {
  const store = createAppStore(online);
  store.set({ session: { user: { id: ID, role, is_manager: false, user_permissions: permissions } } as never });
  return renderToStaticMarkup(<DataProvider client={client} store={store}>{node}</DataProvider>);
}

describe('BillFlex', () => {
  it('offers flex on an approved USD bill to an admin and an AP clerk', () => {
    expect(render(<BillFlex bill={bill} vendor="Globex" client={client} online />)).toContain('Pay with flex');
    expect(render(<BillFlex bill={bill} vendor="Globex" client={client} online />, 'BUSINESS_USER', ['AP_ACCESS'])).toContain('Pay with flex');
  });

  it('shows nothing to others, nor on a bill not approved, paid, or in another currency', () => {
    expect(render(<BillFlex bill={bill} vendor="Globex" client={client} online />, 'BUSINESS_USER')).toBe('');
    expect(offersFlex({ ...bill, status: 'PAID' })).toBe(false);
    expect(offersFlex({ ...bill, status: 'PENDING_APPROVAL' })).toBe(false);
    expect(offersFlex({ ...bill, currency: 'EUR' })).toBe(false);
  });

  it('offline: the button is off and says why', () => {
    const html = render(<BillFlex bill={bill} vendor="Globex" client={client} online={false} />);
    expect(html).toMatch(/<button[^>]*disabled[^>]*>Pay with flex/);
    expect(html).toContain('Flex needs a connection');
  });
});

describe('FlexOfferDialog', () => {
  const money = (amount: number) => ({ amount, currency: 'USD' });
  const offer: FlexOffer = {
    id: ID, bill_id: ID, amount: money(120_000), expires_at: '2026-11-30T00:00:00.000Z', status: 'OPEN',
    terms: [
      { term_days: 30, fee: money(1_200), installments: [{ due_date: '2026-12-29', amount: money(121_200) }] },
      { term_days: 60, fee: money(2_400), installments: [{ due_date: '2026-12-29', amount: money(61_200) }, { due_date: '2027-01-28', amount: money(61_200) }] },
      { term_days: 90, fee: money(3_600), installments: [{ due_date: '2026-12-29', amount: money(41_200) }, { due_date: '2027-01-28', amount: money(41_200) }, { due_date: '2027-02-27', amount: money(41_200) }] },
    ],
  };
  it('offers the three terms with their fee and installments as radio choices', () => {
    const html = render(<FlexOfferDialog offer={offer} vendor="Globex" client={client} onClose={noop} onAccepted={noop} />);
    expect(html).toContain('Repay over');
    expect((html.match(/type="radio"/g) ?? []).length).toBe(3);
    // Each choice names its days once (the label), then its fee and installments.
    expect(html).toContain('<strong>30 days</strong><span class="muted">fee $12.00 · 1 installment of $1,212.00</span>');
    expect(html).toContain('<strong>90 days</strong><span class="muted">fee $36.00 · 3 installments of $412.00</span>');
    expect(html).not.toContain('30 days · ');
    expect(html).toContain('Globex · $1,200.00');
  });
});
