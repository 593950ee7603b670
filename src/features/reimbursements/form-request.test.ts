import { describe, expect, it } from 'vitest';
import { receiptClaimRequest, tripPerDiemRequest, type InboxReading } from './form-request.ts';

const TODAY = '2026-03-09';
const LOCAL = 'c1a2b3c4-0000-4000-8000-000000000001';
const SERVER = 'c1a2b3c4-0000-4000-8000-000000000002';
const inbox: InboxReading[] = [
  { id: 'c1a2b3c4-0000-4000-8000-00000000000f', local_id: null, extracted: { source: 'ocr', merchant: 'Other Cafe' } },
  { id: SERVER, local_id: LOCAL, extracted: { source: 'ocr', amount: { minor: 2318, currency: 'USD' }, date: '2026-03-07', merchant: 'Uber' } },
];

describe('receiptClaimRequest', () => {
  it('opens the out-of-pocket form with the receipt and its reading, found by server id', () => {
    const request = receiptClaimRequest(inbox, SERVER, 'EUR', TODAY);
    expect(request.type).toBe('OUT_OF_POCKET');
    expect(request.receiptIds).toEqual([SERVER]);
    expect(request.prefill).toMatchObject({ amount: '23.18', currency: 'USD', transaction_date: '2026-03-07', merchant: 'Uber' });
  });

  it('finds the receipt by its client id too', () => {
    expect(receiptClaimRequest(inbox, LOCAL, 'USD', TODAY).prefill).toMatchObject({ merchant: 'Uber', amount: '23.18' });
  });

  it('starts from the business currency and today where the reading says nothing', () => {
    const request = receiptClaimRequest(inbox, inbox[0]!.id, 'EUR', TODAY);
    expect(request.prefill).toMatchObject({ merchant: 'Other Cafe', amount: '', currency: 'EUR', transaction_date: TODAY });
  });

  it('without a reading (unread, or the inbox could not be read) only attaches the receipt', () => {
    expect(receiptClaimRequest([], SERVER, 'USD', TODAY)).toEqual({ type: 'OUT_OF_POCKET', receiptIds: [SERVER] });
    expect(receiptClaimRequest([{ id: SERVER, local_id: null, extracted: null }], SERVER, 'USD', TODAY)).toEqual({ type: 'OUT_OF_POCKET', receiptIds: [SERVER] });
  });

  it('without a receipt opens an empty out-of-pocket form', () => {
    expect(receiptClaimRequest(inbox, undefined, 'USD', TODAY)).toEqual({ type: 'OUT_OF_POCKET' });
  });
});

describe('tripPerDiemRequest', () => {
  it('opens the per-diem form with the trip’s place and days, to be linked to the trip', () => {
    expect(tripPerDiemRequest({ location: 'Lisbon', start: '2026-03-10', end: '2026-03-12', trip: '00000000-0000-4000-8000-000000000001' })).toEqual({
      type: 'PER_DIEM', prefill: { location: 'Lisbon', start_date: '2026-03-10', end_date: '2026-03-12' }, tripId: '00000000-0000-4000-8000-000000000001',
    });
    expect(tripPerDiemRequest({})).toEqual({ type: 'PER_DIEM', prefill: {} });
  });
});
