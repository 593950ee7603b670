import { describe, expect, it } from 'vitest';
import { errorBody } from '../../schema/errors.ts';
import { jsonResponse } from '../../sync/testing.ts';
import { signedInAdmin } from '../test-fixtures.ts';
import { signedInWorker } from '../testing/signed-in-worker.ts';
import { BILL_EXTRAS_OFFLINE } from './bill-extras.ts';

const { user: USER, business: BUSINESS } = signedInAdmin();
const VENDOR_ID = '40000000-0000-4000-8000-0000000000a1';
const TEMPLATE_ID = '40000000-0000-4000-8000-0000000000c1';
const CREDIT_ID = '40000000-0000-4000-8000-0000000000d1';
const BASE = '/v1/auth/bill-pay';

type Answer = (method: string, path: string, search: URLSearchParams, body: unknown) => Response;

/** A signed-in worker whose server answers bill pay calls with `answer`; `sent` records method, path, query and body. */
const worker = (answer: Answer) => signedInWorker({ calls: BASE, route: (r) => answer(r.method, r.path, r.search, r.body) });

const stamp = { business_id: BUSINESS.id, created_by: USER.id, created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:00.000Z', deleted: false };
const credit = (n: number, over: Record<string, unknown> = {}) => ({
  ...stamp, id: `40000000-0000-4000-8000-0000000000d${n}`, vendor_id: VENDOR_ID, currency: 'USD', amount: 5_000, applied: 0, remaining: 5_000,
  credit_note_number: `CN-${n}`, credit_date: '2026-11-01', memo: null, ...over,
});
const template = {
  ...stamp, id: TEMPLATE_ID, name: 'Monthly cleaning', vendor_id: VENDOR_ID, currency: 'USD', line_items: [{ description: 'Cleaning', amount: 40_000 }], memo: null,
};
const recurring = (status: 'ACTIVE' | 'PAUSED') => ({
  ...stamp, id: TEMPLATE_ID, vendor_id: VENDOR_ID, currency: 'USD', line_items: [{ description: 'Rent', amount: 250_000 }], amount: 250_000, memo: null,
  entity_id: null, interval: 'MONTHLY', day_of_month: 1, day_of_week: null, start_date: '2026-12-01', end_date: null, max_occurrences: null,
  invoice_number_pattern: 'RENT-{YYYY}-{MM}', days_until_due: 10, submit_for_approval: false, status, generated_count: 0,
  last_period_start: null, next_period_start: status === 'ACTIVE' ? '2026-12-01' : null, last_error: null,
});

describe('bill extras calls', () => {
  it('reads a list to its end, page after page, at the largest page size', async () => {
    const { service, sent } = await worker((_m, _p, search) =>
      search.get('start') === 'p2'
        ? jsonResponse(200, { data: [credit(2)], page: { next: null } })
        : jsonResponse(200, { data: [credit(1)], page: { next: 'p2' } }));
    const r = await service.vendorCredits(VENDOR_ID);
    expect(r).toMatchObject({ ok: true, credits: [{ credit_note_number: 'CN-1' }, { credit_note_number: 'CN-2' }] });
    expect(sent).toEqual([
      `GET ${BASE}/vendor-credits?page_size=1000&vendor_id=${VENDOR_ID}`,
      `GET ${BASE}/vendor-credits?page_size=1000&start=p2&vendor_id=${VENDOR_ID}`,
    ]);
  });

  it('sends each write to its §7 path and answers the server’s row', async () => {
    const { service, sent } = await worker((method, path, _s, body) => {
      if (path.endsWith('/recurring-bills')) return jsonResponse(201, recurring('ACTIVE'));
      if (path.includes('/recurring-bills/')) return jsonResponse(200, recurring((body as { status?: 'PAUSED' } | null)?.status ?? 'ACTIVE'));
      if (path.includes('bill-template')) return jsonResponse(method === 'DELETE' ? 200 : 201, { ...template, deleted: method === 'DELETE' });
      return jsonResponse(201, credit(1));
    });
    const created = await service.createRecurringBill({
      vendor_id: VENDOR_ID, currency: 'USD', line_items: [{ description: 'Rent', amount: 250_000 }], interval: 'MONTHLY', start_date: '2026-12-01',
    });
    expect(created).toMatchObject({ ok: true, recurring: { id: TEMPLATE_ID, status: 'ACTIVE', next_period_start: '2026-12-01' } });
    expect(await service.updateRecurringBill(TEMPLATE_ID, { status: 'PAUSED' })).toMatchObject({ ok: true, recurring: { status: 'PAUSED', next_period_start: null } });
    expect(await service.deleteBillTemplate(TEMPLATE_ID)).toMatchObject({ ok: true, template: { deleted: true } });
    expect(await service.createVendorCredit({ vendor_id: VENDOR_ID, currency: 'USD', amount: 5_000, credit_note_number: 'CN-1', credit_date: '2026-11-01' }))
      .toMatchObject({ ok: true, credit: { remaining: 5_000 } });
    expect(sent).toEqual([
      `POST ${BASE}/recurring-bills {"vendor_id":"${VENDOR_ID}","currency":"USD","line_items":[{"description":"Rent","amount":250000}],"interval":"MONTHLY","start_date":"2026-12-01"}`,
      `PATCH ${BASE}/recurring-bills/${TEMPLATE_ID} {"status":"PAUSED"}`,
      `DELETE ${BASE}/bill-template/${TEMPLATE_ID}`,
      `POST ${BASE}/vendor-credits {"vendor_id":"${VENDOR_ID}","currency":"USD","amount":5000,"credit_note_number":"CN-1","credit_date":"2026-11-01"}`,
    ]);
  });

  it('answers a refusal with the server’s words', async () => {
    const words = '$20.00 of this credit is applied to bills; remove it from those bills (or cancel them) before deleting the credit.';
    const { service } = await worker(() => jsonResponse(422, errorBody('REQUEST_7001', words)));
    expect(await service.deleteVendorCredit(CREDIT_ID)).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7001', message: words } });
    // A list stops at the first refusal.
    expect(await service.billTemplates()).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7001' } });
  });

  it('refuses offline before sending, the lists too: nothing of these is on the device', async () => {
    const { service, sent } = await worker(() => jsonResponse(200, { data: [], page: { next: null } }));
    await service.setOnline(false);
    expect(await service.recurringBills()).toEqual(BILL_EXTRAS_OFFLINE);
    expect(await service.vendorCredits()).toEqual(BILL_EXTRAS_OFFLINE);
    expect(await service.deleteRecurringBill(TEMPLATE_ID)).toEqual(BILL_EXTRAS_OFFLINE);
    expect(sent).toEqual([]);
  });
});
