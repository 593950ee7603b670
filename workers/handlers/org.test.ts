import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { errorBody } from '../../schema/errors.ts';
import { createFakeClock, fakeToken, jsonResponse } from '../../sync/testing.ts';
import type { Transport } from '../../sync/ports.ts';
import { createDataService, type DataService } from '../data-service.ts';
import { mirrorStorage } from '../db.ts';
import { soleLeader } from '../leader.ts';
import { SessionStore } from '../session-store.ts';
import { signedInAdmin } from '../test-fixtures.ts';
import { ORG_OFFLINE } from './org.ts';

const { user: USER, business: BUSINESS, identity: IDENTITY } = signedInAdmin();
const DEPT = '30000000-0000-4000-8000-000000000001';
const ENTITY = '70000000-0000-4000-8000-000000000001';
const mirrored = { business_id: BUSINESS.id, change_seq: 9, updated_at: '2026-11-20T10:00:00.000Z', deleted: false };
const UNIT = { id: DEPT, name: 'Research', owner_ids: [USER.id], ...mirrored };
const BUSINESS_ENTITY = {
  id: ENTITY, business_id: BUSINESS.id, name: 'Acme GmbH', country: 'DE', currency: 'EUR', owner_ids: [USER.id],
  created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:00.000Z',
};

const services: DataService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.dispose();
});

/** A signed-in worker whose server answers /businesses/… calls with `answer`; `sent` records them. */
async function worker(answer: (method: string, path: string, body: unknown) => Response) {
  const sent: string[] = [];
  const transport: Transport = async (input, init) => {
    const url = new URL(String(input));
    if (url.pathname === '/v1/public/sign-in') return jsonResponse(200, { id_token: fakeToken(['default']), mfa_required: false });
    if (url.pathname === '/v1/auth/identity') return jsonResponse(200, { identity: IDENTITY, user: USER, business: BUSINESS });
    if (/^\/v1\/auth\/businesses\/(departments|locations|entities)/.test(url.pathname)) {
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : null;
      sent.push(`${method} ${url.pathname} ${JSON.stringify(body)}`);
      return answer(method, url.pathname, body);
    }
    return jsonResponse(404, errorBody('REQUEST_7004'));
  };
  const idb = new IDBFactory();
  const service = createDataService({
    sessionStore: new SessionStore({ indexedDB: idb, IDBKeyRange }),
    transport,
    clock: createFakeClock(),
    elector: soleLeader,
    storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }),
    multiInstance: false,
    sync: false,
    defer: (fn) => fn(),
  });
  services.push(service);
  await service.init({ baseUrl: 'http://api.test' });
  await service.signIn(USER.email, 'demo-password-1');
  return { service, sent };
}

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
