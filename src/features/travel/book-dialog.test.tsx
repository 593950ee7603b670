import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { hotelOfferSchema } from '../../../schema/api/calls-travel.ts';
import { createAppStore } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { BookDialog } from './offer-list.tsx';

/**
 * The booking confirmation is the shared ConfirmDialog (components/confirm-dialog.tsx, as the
 * approvals' reject dialog): the names the e2e tests press stay "Cancel" and "Book for …" /
 * "Request approval". Server renderer: no DOM, no worker calls.
 */
const offer = (inPolicy: boolean) => hotelOfferSchema.parse({
  offer_id: '00000000-0000-4000-8000-000000000001', kind: 'HOTEL', price: { amount: 42_000, currency: 'USD' }, in_policy: inPolicy,
  policy_reasons: inPolicy ? [] : ['$210.00 a night: the cap in Lisbon is $180.00'], blocked: false, expires_at: '2026-03-01T10:30:00Z',
  hotel: {
    hotel_id: 'h1', name: 'Hotel Avenida', city: 'LIS', address: 'Av. da Liberdade 1', stars: 4, check_in: '2026-03-10', check_out: '2026-03-12', nights: 2,
    nightly: { amount: 21_000, currency: 'USD' }, check_in_time: '15:00',
  },
});
const render = (inPolicy: boolean) => renderToStaticMarkup(
  <DataProvider client={{} as DataClient} store={createAppStore(true)}>
    <BookDialog client={{} as DataClient} tripId="00000000-0000-4000-8000-000000000002" offer={offer(inPolicy)} onClose={() => {}} onBooked={() => {}} />
  </DataProvider>,
);
const buttons = (html: string) => [...html.matchAll(/<button[^>]*>(.*?)<\/button>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));

describe('BookDialog', () => {
  it('names the price, the card and the policy, then Cancel and "Book for" the price', () => {
    const html = render(true);
    expect(html).toContain('Book and pay?');
    expect(html).toContain('Charged to the trip’s virtual card now');
    expect(buttons(html)).toEqual(['Cancel', 'Book for $420.00']);
  });

  it('asks for approval out of policy, with the reasons', () => {
    const html = render(false);
    expect(html).toContain('Request this booking?');
    expect(html).toContain('the cap in Lisbon is $180.00');
    expect(buttons(html)).toEqual(['Cancel', 'Request approval']);
  });
});
