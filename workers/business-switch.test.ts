import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { spendUserSchema } from '../schema/entities/spend-user.ts';
import { businessSchema } from '../schema/entities/business.ts';
import { identitySchema } from '../schema/entities/identity.ts';
import { errorBody } from '../schema/errors.ts';
import { decodeTokenClaims } from '../sync/index.ts';
import { fakeToken, jsonResponse } from '../sync/testing.ts';
import type { Transport } from '../sync/ports.ts';
import type { DataService } from './data-service.ts';
import { mirrorDbName } from './db.ts';
import { BUSINESS_ID, makeTransactions, makeUser, seedMirrorDb, testUuid } from './test-fixtures.ts';
import { startWorker } from './testing/signed-in-worker.ts';
import type { BusinessSessionInfo } from './contracts/session.ts';

const OTHER_ID = testUuid(12, 2);
const spendUser = (n: number, businessId: string) =>
  spendUserSchema.parse({
    ...makeUser(n, 'Ada', 'Lovelace', { role: 'BUSINESS_ADMIN' }),
    business_id: businessId, external_firm: null, has_finished_onboarding: true, is_business_locked: false,
    user_permissions: [], payroll_currency: null, has_accepted_cardholder_agreement: true, impersonator: null,
    acting_user_is_in_reporting_chain: false, external_firm_role: null,
  });
const business = (id: string, name: string) =>
  businessSchema.parse({ id, name, currency: 'USD', status: 'ACTIVE', created_at: '2024-01-01T00:00:00.000Z' });
const A = { user: spendUser(1, BUSINESS_ID), business: business(BUSINESS_ID, 'Alpha') };
const B = { user: spendUser(2, OTHER_ID), business: business(OTHER_ID, 'Beta') };
const IDENTITY = identitySchema.parse({
  id: testUuid(8, 1), email: A.user.email, spend_users: [A.user, B.user], external_firm_user: null, external_firm_applicant: null,
  financing_application_users: [], identity_ofac_status: null,
});
const GL = testUuid(5, 1);

/** A server for one identity in Alpha and Beta: tokens name their business; the identity follows. */
function server() {
  const signInBodies: Record<string, unknown>[] = [];
  const tokenFor = (businessId: string) => fakeToken(['default'], { business_id: businessId });
  const transport: Transport = async (input, init) => {
    const url = new URL(String(input));
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    if (url.pathname === '/v1/public/sign-in') {
      signInBodies.push(body);
      return jsonResponse(200, { id_token: tokenFor(body.business_id === OTHER_ID ? OTHER_ID : BUSINESS_ID), mfa_required: false });
    }
    if (url.pathname === '/v1/auth/users/current/business') {
      const known = body.business_id === OTHER_ID || body.business_id === BUSINESS_ID;
      return known ? jsonResponse(200, { id_token: tokenFor(String(body.business_id)), mfa_required: false }) : jsonResponse(404, errorBody('4014'));
    }
    if (url.pathname === '/v1/auth/identity') {
      const headers = new Headers(init?.headers);
      const current = decodeTokenClaims(headers.get('RAMP-ID-TOKEN'))?.business_id === OTHER_ID ? B : A;
      return jsonResponse(200, { identity: IDENTITY, ...current, businesses: [{ id: BUSINESS_ID, name: 'Alpha' }, { id: OTHER_ID, name: 'Beta' }] });
    }
    return jsonResponse(404, errorBody('REQUEST_7004'));
  };
  return { transport, signInBodies };
}

const seedAlpha = (idb: IDBFactory) =>
  seedMirrorDb(idb, mirrorDbName(BUSINESS_ID, A.user.id), makeTransactions(40, 4), 'Meals');

async function signedInAlpha() {
  const idb = new IDBFactory();
  const rows = await seedAlpha(idb);
  const srv = server();
  const service = await startWorker({ transport: srv.transport, idb });
  const signed = await service.signIn(A.user.email, 'demo-password-1', BUSINESS_ID);
  expect(signed).toMatchObject({ ok: true, session: { business: { id: BUSINESS_ID } } });
  return { service, rows, srv };
}

const total = async (s: DataService) => (await s.queryTransactions({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 5 })).total;

describe('DataService.switchBusiness', () => {
  it('passes the tab’s business at sign-in and lists the identity’s businesses by name', async () => {
    const { service, srv } = await signedInAlpha();
    expect(srv.signInBodies[0]).toMatchObject({ business_id: BUSINESS_ID });
    expect((await service.session() as BusinessSessionInfo | null)?.businesses?.map((b) => b.name)).toEqual(['Alpha', 'Beta']);
    // A hand-edited link's value that is no id is not sent: the sign-in is not refused for it.
    await service.signOut();
    expect(await service.signIn(A.user.email, 'demo-password-1', 'not-an-id')).toMatchObject({ ok: true });
    expect(srv.signInBodies[1]).toEqual({ email: A.user.email, password: 'demo-password-1' });
  });

  it('opens the other business’s own mirror and keeps the previous outbox for when it is active again', async () => {
    const { service, rows } = await signedInAlpha();
    expect(await total(service)).toBe(40);
    expect((await service.codeTransactions([rows[0]!.id], { gl_account_id: GL })).ok).toBe(true);

    const toBeta = await service.switchBusiness(OTHER_ID);
    expect(toBeta).toMatchObject({ ok: true, session: { business: { id: OTHER_ID }, user: { id: B.user.id } }, left_behind: { business_name: 'Alpha', changes: 1 } });
    expect(await total(service)).toBe(0);
    expect(await service.outbox()).toEqual([]);

    const back = await service.switchBusiness(BUSINESS_ID);
    expect(back).toMatchObject({ ok: true, left_behind: null });
    expect(await total(service)).toBe(40);
    expect((await service.outbox()).map((e) => e.state)).toEqual(['pending']);
  });

  it('keeps the session when the server refuses the switch', async () => {
    const { service } = await signedInAlpha();
    const refused = await service.switchBusiness(testUuid(12, 9));
    expect(refused).toMatchObject({ ok: false, error: { error_code: '4014' } });
    expect((await service.session() as BusinessSessionInfo | null)?.business.id).toBe(BUSINESS_ID);
    expect(await total(service)).toBe(40);
  });
});
