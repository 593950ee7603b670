import { describe, expect, it } from 'vitest';
import { errorBody } from '../../schema/errors.ts';
import { jsonResponse } from '../../sync/testing.ts';
import { signedInAdmin } from '../test-fixtures.ts';
import { signedInWorker } from '../testing/signed-in-worker.ts';
import { ORG_OFFLINE } from './org.ts';

const { user: USER, business: BUSINESS } = signedInAdmin();
const DEPT = '30000000-0000-4000-8000-000000000001';
const ENTITY = '70000000-0000-4000-8000-000000000001';
const mirrored = { business_id: BUSINESS.id, change_seq: 9, updated_at: '2026-11-20T10:00:00.000Z', deleted: false };
const UNIT = { id: DEPT, name: 'Research', owner_ids: [USER.id], ...mirrored };
const BUSINESS_ENTITY = {
  id: ENTITY, business_id: BUSINESS.id, name: 'Acme GmbH', country: 'DE', currency: 'EUR', owner_ids: [USER.id],
  created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:00.000Z',
};

/** A signed-in worker whose server answers /businesses/… calls with `answer`; `sent` records them. */
const worker = (answer: (method: string, path: string, body: unknown) => Response) =>
  signedInWorker({
    calls: /^\/v1\/auth\/businesses\/(departments|locations|entities)/,
    record: (r) => `${r.method} ${r.path} ${JSON.stringify(r.body)}`,
    route: (r) => answer(r.method, r.path, r.body),
  });

describe('organisation calls', () => {
  it('sends each kind to its own path and answers the server’s row', async () => {
    const { service, sent } = await worker((_m, path) => (path.includes('/entities') ? jsonResponse(200, BUSINESS_ENTITY) : jsonResponse(200, UNIT)));
    expect(await service.renameOrgUnit('departments', DEPT, 'Research')).toEqual({ ok: true, unit: UNIT });
    expect(await service.setOrgUnitOwners('locations', DEPT, [USER.id])).toEqual({ ok: true, unit: UNIT });
    expect(await service.setEntityOwners(ENTITY, [USER.id])).toEqual({ ok: true, entity: BUSINESS_ENTITY });
    expect(sent).toEqual([
      `PATCH /v1/auth/businesses/departments/${DEPT} {"name":"Research"}`,
      `PUT /v1/auth/businesses/locations/${DEPT}/owners {"user_ids":["${USER.id}"]}`,
      `PUT /v1/auth/businesses/entities/${ENTITY}/owners {"user_ids":["${USER.id}"]}`,
    ]);
  });

  it('answers a refusal in the server’s words (a duplicate name, an entity still in use)', async () => {
    const { service } = await worker((method) =>
      method === 'DELETE'
        ? jsonResponse(422, errorBody('REQUEST_7001', 'This business entity still has users. Move them to another entity first.'))
        : jsonResponse(422, errorBody('REQUEST_7001', undefined, { name: "A department named 'Ops' already exists." })));
    expect(await service.createOrgUnit('departments', 'Ops')).toMatchObject({
      ok: false, error: { error_code: 'REQUEST_7001', errors: { name: "A department named 'Ops' already exists." } },
    });
    expect(await service.deleteEntity(ENTITY)).toMatchObject({
      ok: false, error: { message: 'This business entity still has users. Move them to another entity first.' },
    });
  });

  it('refuses offline before sending: organisation changes have no outbox command', async () => {
    const { service, sent } = await worker(() => jsonResponse(200, UNIT));
    await service.setOnline(false);
    expect(await service.createOrgUnit('departments', 'Ops')).toEqual(ORG_OFFLINE);
    expect(await service.createEntity({ name: 'Acme', country: 'DE', currency: 'EUR' })).toEqual(ORG_OFFLINE);
    expect(await service.deleteEntity(ENTITY)).toEqual(ORG_OFFLINE);
    expect(sent).toEqual([]);
  });
});
