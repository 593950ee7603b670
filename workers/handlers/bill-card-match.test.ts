import { describe, expect, it } from 'vitest';
import { errorBody } from '../../schema/errors.ts';
import { jsonResponse } from '../../sync/testing.ts';
import { signedInWorker } from '../testing/signed-in-worker.ts';
import { PAY_BY_CARD_OFFLINE } from './bill-card-match.ts';

const BILL_ID = '40000000-0000-4000-8000-0000000000c1';
const TXN_ID = '40000000-0000-4000-8000-0000000000c2';
const charge = {
  id: TXN_ID, merchant_name: 'ACME SUPPLY', amount: 120_000, currency: 'USD', occurred_at: '2026-11-05T15:30:00.000Z', state: 'CLEARED',
  card_id: BILL_ID, card_name: 'Office card', card_last_four: '4242', user_id: BILL_ID, cardholder_name: 'Dana Whitfield',
};

const worker = (answer: (method: string, path: string, body: unknown) => Response) =>
  signedInWorker({ calls: '/v1/auth/bill-pay', route: (r) => answer(r.method, r.path, r.body) });

/** Bills paid by card through the worker (issue 30): the calls' paths, what the UI gets, offline. */
describe('pay-by-card calls', () => {
  it('reads the suggestion and the link, and answers a refused close in the server’s words', async () => {
    const { service, sent } = await worker((method, path) => {
      if (path.includes('pay-by-card-matching')) return jsonResponse(200, { data: [], page: { next: null } });
      if (method === 'GET') return jsonResponse(200, { bill_id: BILL_ID, transaction: charge });
      return jsonResponse(422, errorBody('REQUEST_7001', 'This card charge already closes bill INV-1: one charge pays one bill.'));
    });
    expect(await service.payByCardSuggestions(BILL_ID)).toEqual({ ok: true, suggestions: [] });
    expect(await service.billPaidByCard(BILL_ID)).toEqual({ ok: true, charge });
    expect(await service.closeBillByCard(BILL_ID, TXN_ID, 'k-1')).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7001', message: expect.stringContaining('INV-1') } });
    expect(sent).toEqual([
      `GET /v1/auth/bill-pay/pay-by-card-matching?bill_id=${BILL_ID}`,
      `GET /v1/auth/bill-pay/${BILL_ID}/paid-by-card`,
      `POST /v1/auth/bill-pay/${BILL_ID}/paid-by-card {"transaction_id":"${TXN_ID}"}`,
    ]);
  });

  it('refuses offline before sending', async () => {
    const { service, sent } = await worker(() => jsonResponse(200, {}));
    await service.setOnline(false);
    expect(await service.payByCardSuggestions(BILL_ID)).toEqual(PAY_BY_CARD_OFFLINE);
    expect(await service.closeBillByCard(BILL_ID, TXN_ID)).toEqual(PAY_BY_CARD_OFFLINE);
    expect(await service.undoBillPaidByCard(BILL_ID)).toEqual(PAY_BY_CARD_OFFLINE);
    expect(sent).toEqual([]);
  });
});
