import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { BillCardCharge, PayByCardSuggestion } from '../../../workers/api.ts';
import { createAppStore } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import {
  BillCardMatch, chargeFacts, closableByCard, closeConfirmText, PaidByCardLinkView, PaidByCardSuggestionView, type BillCardMatchProps,
} from './bill-card-match.tsx';

/** The bill drawer's "Paid by card?" (issue 30): who sees it, on which bills, its words offline and before closing. */
const ID = '00000000-0000-4000-8000-0000000000d1';
const TXN = '00000000-0000-4000-8000-0000000000d2';
const client = {} as DataClient;
const noop = () => undefined;

const charge: BillCardCharge = {
  id: TXN, merchant_name: 'ACME SUPPLY 0042', amount: 120_000, currency: 'USD', occurred_at: '2026-11-05T15:30:00.000Z', state: 'CLEARED',
  card_id: ID, card_name: 'Office card', card_last_four: '4242', user_id: ID, cardholder_name: 'Dana Whitfield',
};
const suggestion: PayByCardSuggestion = {
  bill_id: ID, transaction_id: TXN, score: 0.95, days: 3,
  reasons: ['Same amount: $1,200.00', 'Charged 3 days after the invoice date', 'Merchant “ACME SUPPLY 0042” is the vendor “Acme Supply Co.”'],
  bill: { invoice_number: 'INV-7', vendor_id: ID, vendor_name: 'Acme Supply Co.', amount: 120_000, currency: 'USD', invoice_date: '2026-11-02', status: 'APPROVED' },
  transaction: charge,
};
const bill: BillCardMatchProps['bill'] = { id: ID, status: 'APPROVED', amount: 120_000, currency: 'USD', invoice_number: 'INV-7', paid_manually: false };

function render(node: ReactNode, role = 'BUSINESS_ADMIN', permissions: string[] = []) {
  const store = createAppStore(true);
  store.set({ session: { user: { id: ID, role, is_manager: false, user_permissions: permissions } } as never });
  return renderToStaticMarkup(<DataProvider client={client} store={store}>{node}</DataProvider>);
}

describe('PaidByCardSuggestionView', () => {
  it('names the charge (merchant, day, card, cardholder, amount) and why it matches, with the action', () => {
    const html = render(<PaidByCardSuggestionView suggestion={suggestion} online onMark={noop} />);
    expect(html).toContain('Paid by card?');
    for (const words of ['ACME SUPPLY 0042', 'Nov 5, 2026', 'Office card ·· 4242', 'Dana Whitfield', '$1,200.00']) expect(html).toContain(words);
    expect(html).toContain('aria-label="Why it matches"');
    expect((html.match(/<li>/g) ?? []).length).toBe(3);
    expect(html).toMatch(/<button[^>]*>Mark paid by card/);
    expect(html).not.toMatch(/<button[^>]*disabled/);
  });

  it('offline: the action is off and says why', () => {
    const html = render(<PaidByCardSuggestionView suggestion={suggestion} online={false} onMark={noop} />);
    expect(html).toMatch(/<button[^>]*disabled[^>]*>Mark paid by card/);
    expect(html).toContain('Closing a bill by card needs a connection.');
  });
});

describe('closeConfirmText', () => {
  it('says what closing does and that no money moves', () => {
    expect(closeConfirmText(charge, 'Acme Supply Co.')).toBe(
      'This closes the bill as paid by the card charge of $1,200.00 at ACME SUPPLY 0042 on Nov 5, 2026 (Office card, card ending 4242). '
      + 'No money moves: the card already paid Acme Supply Co., and Bill pay will not pay this bill again.',
    );
  });

  it('marks a pending charge', () => {
    expect(chargeFacts({ ...charge, state: 'PENDING' })[1]).toEqual(['Charged', 'Nov 5, 2026 (pending)']);
  });
});

describe('PaidByCardLinkView', () => {
  it('shows the charge that closed the bill, and the undo only while it can be undone', () => {
    const paid = render(<PaidByCardLinkView billId={ID} charge={charge} canUndo online onUndo={noop} />);
    expect(paid).toContain('Paid by card');
    expect(paid).toContain('Bill pay sent nothing');
    expect(paid).toMatch(/<button[^>]*>Undo paid by card/);
    expect(render(<PaidByCardLinkView billId={ID} charge={charge} canUndo={false} online onUndo={noop} />)).not.toContain('Undo');
  });
});

describe('BillCardMatch', () => {
  const props = { bill, vendor: 'Acme Supply Co.', client, online: true, version: 1 };
  it('checks card charges for an open bill, to a bill manager (admin, AP clerk)', () => {
    expect(render(<BillCardMatch {...props} />)).toContain('Checking card charges…');
    expect(render(<BillCardMatch {...props} />, 'BUSINESS_USER', ['AP_ACCESS'])).toContain('Checking card charges…');
  });

  it('shows nothing to anyone else, nor on a bill no charge could close', () => {
    expect(render(<BillCardMatch {...props} />, 'BUSINESS_USER')).toBe('');
    expect(render(<BillCardMatch {...props} bill={{ ...bill, status: 'DRAFT' }} />)).toBe('');
    expect(render(<BillCardMatch {...props} bill={{ ...bill, status: 'PAID', paid_manually: false }} />)).toBe('');
    expect(closableByCard('APPROVED') && closableByCard('SCHEDULED') && closableByCard('PAYMENT_FAILED')).toBe(true);
    expect(closableByCard('PENDING_APPROVAL') || closableByCard('PAID') || closableByCard('CANCELED')).toBe(false);
  });

  it('offline: says the check waits for a connection on an open bill', () => {
    expect(render(<BillCardMatch {...props} online={false} />)).toContain('checked when you’re online');
    expect(render(<BillCardMatch {...props} online={false} bill={{ ...bill, status: 'PAID', paid_manually: true }} />)).toBe('');
  });
});
