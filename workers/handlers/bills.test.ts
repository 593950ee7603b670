import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { errorBody } from '../../schema/errors.ts';
import { createFakeClock, fakeToken, jsonResponse } from '../../sync/testing.ts';
import type { Transport } from '../../sync/ports.ts';
import { createDataService, type DataService } from '../data-service.ts';
import { soleLeader } from '../leader.ts';
import { SessionStore } from '../session-store.ts';
import { signedInAdmin } from '../test-fixtures.ts';
import { BILL_OFFLINE } from './bills.ts';

const { user: USER, business: BUSINESS, identity: IDENTITY } = signedInAdmin();
const BILL_ID = '40000000-0000-4000-8000-0000000000b1';

const services: DataService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.dispose();
});

/** A signed-in worker whose server answers bill calls from `bills`; `sent` records their paths and bodies. */
async function worker(bills: (method: string, path: string, body: unknown) => Response) {
  const sent: string[] = [];
  const transport: Transport = async (input, init) => {
    const url = new URL(String(input));
    if (url.pathname === '/v1/public/sign-in') return jsonResponse(200, { id_token: fakeToken(['default']), mfa_required: false });
    if (url.pathname === '/v1/auth/identity') return jsonResponse(200, { identity: IDENTITY, user: USER, business: BUSINESS });
    if (url.pathname.startsWith('/v1/auth/bill-pay')) {
      sent.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search} ${init?.body ? String(init.body) : ''}`.trim());
      return bills(init?.method ?? 'GET', url.pathname, init?.body ? JSON.parse(String(init.body)) : null);
    }
    return jsonResponse(404, errorBody('REQUEST_7004'));
  };
  const idb = new IDBFactory();
  const service = createDataService({
    sessionStore: new SessionStore({ indexedDB: idb, IDBKeyRange }),
    transport,
    clock: createFakeClock(),
    elector: soleLeader,
    storage: getRxStorageDexie({ indexedDB: idb, IDBKeyRange }),
    multiInstance: false,
    sync: false,
    defer: (fn) => fn(),
  });
  services.push(service);
  await service.init({ baseUrl: 'http://api.test' });
  await service.signIn(USER.email, 'demo-password-1');
  return { service, sent };
}

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
