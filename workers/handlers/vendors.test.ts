import { describe, expect, it } from 'vitest';
import { vendorSchema } from '../../schema/entities/vendor.ts';
import { errorBody } from '../../schema/errors.ts';
import { jsonResponse } from '../../sync/testing.ts';
import { signedInAdmin } from '../test-fixtures.ts';
import { methodAndPath, signedInWorker } from '../testing/signed-in-worker.ts';
import { VENDOR_OFFLINE } from './vendors.ts';

const { business: BUSINESS } = signedInAdmin();
const VENDOR_ID = '40000000-0000-4000-8000-000000000001';
const VENDOR = vendorSchema.parse({
  id: VENDOR_ID, business_id: BUSINESS.id, change_seq: 7, updated_at: '2026-11-20T10:00:00.000Z', name: 'Acme', email: null, phone: null,
  address: null, default_gl_account_id: null, default_department_id: null, bank_account: null, status: 'ACTIVE', contacts: [],
});

/** A signed-in worker whose server answers vendor calls from `vendors`; `sent` records their paths. */
const worker = (vendors: (method: string, path: string, body: unknown) => Response) =>
  signedInWorker({ calls: '/v1/auth/vendors', record: methodAndPath, route: (r) => vendors(r.method, r.path, r.body) });

describe('vendor calls', () => {
  it('answers the server’s vendor, and its PAYEE_1007 refusal with the field message', async () => {
    const { service } = await worker((_m, _p, body) =>
      (body as { address: { state: string | null } | null }).address?.state === null
        ? jsonResponse(422, errorBody('PAYEE_1007', undefined, { 'address.state': 'State is required for US vendors.' }))
        : jsonResponse(200, VENDOR));
    expect(await service.createVendor({ name: 'Acme' })).toEqual({ ok: true, vendor: VENDOR });
    const address = { line1: '1 Main St', line2: null, city: 'Austin', state: null, postal_code: '78701', country: 'US' };
    expect(await service.createVendor({ name: 'Acme', address })).toEqual({
      ok: false,
      error: { error_code: 'PAYEE_1007', message: 'State is required for US vendors.', errors: { 'address.state': 'State is required for US vendors.' } },
    });
  });

  it('asks for the step-up before setting or revealing a bank account, and sends nothing', async () => {
    const { service, sent } = await worker(() => jsonResponse(200, VENDOR));
    const bank = { routing_number: '121000358', account_number: '4401927731', account_type: 'CHECKING' as const };
    expect(await service.setVendorBankAccount(VENDOR_ID, bank)).toMatchObject({ ok: false, step_up: 'sensitive' });
    expect(await service.revealVendorBankAccount(VENDOR_ID)).toMatchObject({ ok: false, step_up: 'sensitive' });
    expect(sent).toEqual([]);
  });

  it('refuses offline before sending: vendors have no outbox command', async () => {
    const { service, sent } = await worker(() => jsonResponse(200, VENDOR));
    await service.setOnline(false);
    expect(await service.createVendor({ name: 'Acme' })).toEqual(VENDOR_OFFLINE);
    expect(await service.uploadVendors({ csv: 'name\nAcme' })).toEqual(VENDOR_OFFLINE);
    expect(sent).toEqual([]);
  });
});
