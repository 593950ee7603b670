import { describe, expect, it } from 'vitest';
import { ID_TOKEN_HEADER } from '../../schema/api/scopes.ts';
import { errorBody } from '../../schema/errors.ts';
import { fakeToken, jsonResponse } from '../../sync/testing.ts';
import { methodAndPath, signedInWorker } from '../testing/signed-in-worker.ts';
import { PORTAL_OFFLINE } from './vendor-portal.ts';

const BASE = '/v1/auth/vendor-network';
const BIZ = '11111111-1111-4111-8111-111111111111';
const VENDOR = '22222222-2222-4222-8222-222222222222';
const PAYER = { business_id: BIZ, business_name: 'Acme', vendor_id: VENDOR, status: 'ACTIVE', joined_at: '2026-11-30T00:00:00.000Z', verified_fields: ['bank'] };

const PROFILE = { id: VENDOR, legal_name: 'Acme Supplies', email: 'ap@acme.test', address: null, address_verified_at: null, tin: null, bank: null, wire: null, documents: [] };

const worker = (answer: (method: string, path: string, body: unknown) => Response | null) =>
  signedInWorker({ record: methodAndPath, route: (r) => answer(r.method, r.path, r.body), signIn: true });

describe('vendor portal calls', () => {
  it('offline, a read answers its last answer with when it was read; a read never made is refused, nothing sent', async () => {
    const { service, sent } = await worker((_m, path) => (path === `${BASE}/payers` ? jsonResponse(200, { data: [PAYER] }) : null));
    const online = await service.portalPayers();
    expect(online).toMatchObject({ ok: true, data: [PAYER], offline: false });
    await service.setOnline(false);
    const offline = await service.portalPayers();
    expect(offline).toMatchObject({ ok: true, data: [PAYER], offline: true });
    expect(offline.ok && online.ok && offline.read_at).toBe(online.ok && online.read_at);
    expect(await service.portalChanges()).toEqual(PORTAL_OFFLINE);
    expect(await service.savePortalTin({ tin_type: 'EIN', tin: '12-3456789' })).toEqual(PORTAL_OFFLINE);
    expect(sent.filter((r) => r.includes(BASE))).toEqual([`GET ${BASE}/payers`]);
  });

  it('sends the payments filter and pages; the ACH save asks for step-up first; a refusal in the server’s words', async () => {
    const bodies: unknown[] = [];
    const { service, sent } = await worker((method, path, body) => {
      if (path.startsWith(`${BASE}/payments`)) return jsonResponse(200, { data: [], page: { next: 'c2' } });
      if (path === `${BASE}/ach-details`) {
        bodies.push(body);
        return jsonResponse(200, { profile: PROFILE, payers: [{ vendor_id: VENDOR, business_name: 'Acme', outcome: 'filled' }] });
      }
      if (path === `${BASE}/edit-proposals/${VENDOR}` && method === 'DELETE') return jsonResponse(409, errorBody('REQUEST_7001'));
      return null;
    });
    expect(await service.portalPayments({ business_id: BIZ, status: 'PAID' })).toMatchObject({ ok: true, data: { rows: [], next: 'c2' } });
    expect(sent.filter((r) => r.includes(BASE))[0]).toMatch(new RegExp(`^GET ${BASE}/payments`));
    const ach = { holder_name: 'Acme Supplies', routing_number: '021000021', account_number: '12345678', type: 'CHECKING' as const };
    // A sensitive save asks the person to confirm it's them first: nothing is sent until then.
    expect(await service.savePortalAch(ach)).toMatchObject({ ok: false, step_up: 'sensitive' });
    expect(bodies).toEqual([]);
    expect(await service.withdrawPortalChange(VENDOR)).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7001' } });
  });

  it('documents ask for the mailed-code step-up; the code earns it, then the upload goes with its kind on the stepped-up token', async () => {
    const stepped = fakeToken(['default', 'email-otp']);
    const DOC = { id: VENDOR, kind: 'W9', content_type: 'application/pdf', size: 3, sha256: 'ab', uploaded_at: '2026-11-30T00:00:00.000Z' };
    const uploads: { token: string | null; kind: string | null; type: string | null }[] = [];
    const { service, sent } = await signedInWorker({
      record: methodAndPath,
      route: (r) => {
        if (r.path === '/v1/auth/users/current/verify-email-otp') {
          return (r.body as { code: string }).code === '123456'
            ? jsonResponse(200, { id_token: stepped, expires_at: '2099-01-01T00:00:00.000Z' })
            : jsonResponse(422, errorBody('PROFILE_7017'));
        }
        if (r.path !== `${BASE}/documents` || r.method !== 'POST') return null;
        uploads.push({ token: r.headers.get(ID_TOKEN_HEADER), kind: r.search.get('kind'), type: r.headers.get('content-type') });
        return jsonResponse(200, DOC);
      },
    });
    const file = new Blob(['%PDF'], { type: 'application/pdf' });
    // Nothing is sent until the person proves the mailbox.
    expect(await service.uploadPortalDocument('W9', file)).toMatchObject({ ok: false, step_up: 'email-otp' });
    expect(uploads).toEqual([]);
    expect(await service.verifyPortalEmailCode('000000')).toMatchObject({ ok: false, error: { error_code: 'PROFILE_7017' } });
    expect(await service.verifyPortalEmailCode('123456')).toEqual({ ok: true });
    expect(await service.uploadPortalDocument('W9', file)).toEqual({ ok: true, document: DOC });
    expect(uploads).toEqual([{ token: stepped, kind: 'W9', type: 'application/pdf' }]);
    expect(sent.filter((r) => r.includes('/documents'))).toEqual([`POST ${BASE}/documents`]);
    await service.setOnline(false);
    expect(await service.verifyPortalEmailCode('123456')).toEqual({ ok: false, error: PORTAL_OFFLINE.error });
    expect(await service.startVendorApplication(VENDOR)).toEqual(PORTAL_OFFLINE);
  });
});
