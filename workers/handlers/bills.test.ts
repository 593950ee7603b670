import { describe, expect, it } from 'vitest';
import { errorBody } from '../../schema/errors.ts';
import { jsonResponse } from '../../sync/testing.ts';
import { signedInWorker } from '../testing/signed-in-worker.ts';
import { BILL_OFFLINE } from './bills.ts';

const BILL_ID = '40000000-0000-4000-8000-0000000000b1';

/** A signed-in worker whose server answers bill calls from `bills`; `sent` records their paths and bodies. */
const worker = (bills: (method: string, path: string, body: unknown) => Response) =>
  signedInWorker({ calls: '/v1/auth/bill-pay', route: (r) => bills(r.method, r.path, r.body) });

describe('bill calls', () => {
  it('sends a bulk action to its §7 path and answers the server’s per-bill results', async () => {
    const results = [{ id: BILL_ID, ok: false, error_v2: { error_code: 'REQUEST_7001', message: 'This bill is paid (status PAID) and cannot be marked as paid.' } }];
    const { service, sent } = await worker(() => jsonResponse(200, { results }));
    expect(await service.billBulkAction({ action: 'mark-bills-as-paid', bill_ids: [BILL_ID] })).toEqual({ ok: true, results });
    expect(await service.billBulkAction({ action: 'due-date', bill_ids: [BILL_ID], due_date: '2026-12-31' })).toEqual({ ok: true, results });
    expect(await service.billBulkAction({ action: 'pay-now', bill_ids: [BILL_ID] })).toEqual({ ok: true, results });
    expect(sent).toEqual([
      `POST /v1/auth/bill-pay/bulk-actions/mark-bills-as-paid {"bill_ids":["${BILL_ID}"]}`,
      `PATCH /v1/auth/bill-pay/bulk-actions/due-date {"bill_ids":["${BILL_ID}"],"due_date":"2026-12-31"}`,
      `POST /v1/auth/bill-pay/bulk-actions/pay-now {"bill_ids":["${BILL_ID}"]}`,
    ]);
  });

  it('answers a refused call with the server’s error', async () => {
    const { service } = await worker(() => jsonResponse(422, errorBody('REQUEST_7001')));
    expect(await service.reverseBillPayment(BILL_ID)).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7001' } });
  });

  it('refuses offline before sending: payments and bulk actions have no outbox command', async () => {
    const { service, sent } = await worker(() => jsonResponse(200, { results: [] }));
    await service.setOnline(false);
    expect(await service.billBulkAction({ action: 'pay-now', bill_ids: [BILL_ID] })).toEqual(BILL_OFFLINE);
    expect(await service.markBillPaid(BILL_ID)).toEqual(BILL_OFFLINE);
    expect(await service.billPayments(BILL_ID)).toEqual(BILL_OFFLINE);
    expect(sent).toEqual([]);
  });
});
