import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { spendUserSchema } from '../schema/entities/spend-user.ts';
import { businessSchema } from '../schema/entities/business.ts';
import { identitySchema } from '../schema/entities/identity.ts';
import type { ScopeChoice } from '../schema/entities/scope-choice.ts';
import { errorBody } from '../schema/errors.ts';
import { decodeTokenClaims } from '../sync/index.ts';
import { fakeToken, jsonResponse } from '../sync/testing.ts';
import type { Transport } from '../sync/ports.ts';
import type { DataService } from './data-service.ts';
import { mirrorDbName } from './db.ts';
import { BUSINESS_ID, makeTransactions, makeUser, seedMirrorDb, testUuid } from './test-fixtures.ts';
import { testDevice } from './testing/signed-in-worker.ts';

/**
 * Issue 31: a token of another surface (vendor portal, advisor console, application) signs in
 * without a spend user and opens no mirror; the scope switch moves between the main app and the
 * surfaces on one session, a business's unsent edits staying in its own outbox.
 */
const IDENTITY_ID = testUuid(8, 1);
const VENDOR_ID = testUuid(13, 1);
const FIRM_ID = testUuid(14, 1);
const FIRM_USER_ID = testUuid(14, 2);
const USER = spendUserSchema.parse({
  ...makeUser(1, 'Ada', 'Lovelace', { role: 'BUSINESS_ADMIN' }),
  business_id: BUSINESS_ID, external_firm: null, has_finished_onboarding: true, is_business_locked: false,
  user_permissions: [], payroll_currency: null, has_accepted_cardholder_agreement: true, impersonator: null,
  acting_user_is_in_reporting_chain: false, external_firm_role: null,
});
const BUSINESS = businessSchema.parse({ id: BUSINESS_ID, name: 'Alpha', currency: 'USD', status: 'ACTIVE', created_at: '2024-01-01T00:00:00.000Z' });
const VENDOR_SURFACE = { kind: 'VENDOR_PORTAL' as const, network_vendor_id: VENDOR_ID };
const CHOICES: ScopeChoice[] = [
  { target: { kind: 'BUSINESS', business_id: BUSINESS_ID }, label: 'Alpha', detail: 'Admin' },
  { target: VENDOR_SURFACE, label: 'Acme Supplies', detail: 'Vendor' },
];
const GL = testUuid(5, 1);

/** The identity's server: sign-in answers `firstToken`; the scope switch answers a token for the scope asked. */
function server(opts: { firstToken: string; scopesServed?: boolean }) {
  const sent: { path: string; surface: string }[] = [];
  const tokenFor = (scope: Record<string, unknown>) =>
    scope.kind === 'BUSINESS'
      ? fakeToken(['default'], { sub: IDENTITY_ID, business_id: scope.business_id })
      : fakeToken(['default'], { sub: IDENTITY_ID, business_id: null, ramp_user_uuid: null, ramp_surface: scope });
  const transport: Transport = async (input, init) => {
    const url = new URL(String(input));
    const claims = decodeTokenClaims(new Headers(init?.headers).get('RAMP-ID-TOKEN'));
    const surface = (claims?.ramp_surface as { kind?: string } | undefined)?.kind ?? 'BUSINESS';
    sent.push({ path: url.pathname, surface });
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    switch (url.pathname) {
      case '/v1/public/sign-in':
        return jsonResponse(200, { id_token: opts.firstToken, mfa_required: false });
      case '/v1/auth/identity': {
        // The server's surface gate: the main app's identity call refuses another surface's token.
        if (surface !== 'BUSINESS') return jsonResponse(403, errorBody('SURFACE_7001'));
        const identity = identitySchema.parse({
          id: IDENTITY_ID, email: USER.email, spend_users: [USER], external_firm_user: null, external_firm_applicant: null,
          financing_application_users: [], identity_ofac_status: null,
        });
        return jsonResponse(200, { identity, user: USER, business: BUSINESS, businesses: [{ id: BUSINESS_ID, name: 'Alpha' }] });
      }
      case '/v1/auth/identity/scopes':
        return opts.scopesServed === false ? jsonResponse(404, errorBody('REQUEST_7004')) : jsonResponse(200, { scopes: CHOICES });
      case '/v1/auth/users/current/scope': {
        const scope = body.scope as Record<string, unknown>;
        const held = CHOICES.some((c) => JSON.stringify(c.target) === JSON.stringify(scope));
        return held ? jsonResponse(200, { id_token: tokenFor(scope), mfa_required: false }) : jsonResponse(404, errorBody('4014'));
      }
      default:
        return jsonResponse(404, errorBody('REQUEST_7004'));
    }
  };
  return { transport, sent, tokenFor };
}

const vendorToken = () => fakeToken(['default'], { sub: IDENTITY_ID, business_id: null, ramp_user_uuid: null, ramp_surface: VENDOR_SURFACE });
const mirrorNames = async (idb: IDBFactory) => (await idb.databases()).map((d) => d.name ?? '').filter((n) => n.includes(BUSINESS_ID));
const total = async (s: DataService) => (await s.queryTransactions({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 5 })).total;

async function device(opts: Parameters<typeof server>[0], seed = false) {
  const idb = new IDBFactory();
  const rows = seed ? await seedMirrorDb(idb, mirrorDbName(BUSINESS_ID, USER.id), makeTransactions(40, 4), 'Meals') : [];
  const srv = server(opts);
  const { make } = testDevice({ transport: srv.transport, idb });
  const service = make();
  await service.init({ baseUrl: 'http://api.test' });
  return { idb, srv, make, service, rows };
}

describe('a surface session (issue 31)', () => {
  it('signs a vendor portal token in without a spend user, named from the scope list, and opens no mirror', async () => {
    const { idb, srv, service, make } = await device({ firstToken: vendorToken() });
    const signed = await service.signIn(USER.email, 'demo-password-1');
    expect(signed).toEqual({
      ok: true,
      mfa_required: false,
      session: {
        surface: VENDOR_SURFACE, identity_id: IDENTITY_ID, email: USER.email, label: 'Acme Supplies',
        scopes: ['default'], mfa_enabled: false, choices: CHOICES,
      },
    });
    // The main app's identity call (BUSINESS only) is never made with the portal's token.
    expect(srv.sent.filter((c) => c.path === '/v1/auth/identity')).toEqual([]);
    expect(await mirrorNames(idb)).toEqual([]);
    expect(await service.codeTransactions([testUuid(1, 1)], { gl_account_id: GL })).toMatchObject({ ok: false, error: { error_code: 'AUTH_7002' } });

    // A restart boots the stored surface session as it is: still no mirror, not signed out.
    const again = make();
    expect(await again.init({ baseUrl: 'http://api.test' })).toMatchObject({ surface: VENDOR_SURFACE, label: 'Acme Supplies' });
    expect((await again.status()).phase).not.toBe('signed_out');
    expect(await mirrorNames(idb)).toEqual([]);
  });

  it('names the surface by its kind while the scope list is not served, and offers the kept scopes offline', async () => {
    const { service } = await device({ firstToken: vendorToken(), scopesServed: false });
    expect(await service.signIn(USER.email, 'demo-password-1')).toMatchObject({ ok: true, session: { label: 'Vendor portal' } });
    expect(await service.scopeChoices()).toEqual({
      ok: true, offline: true, choices: [{ target: VENDOR_SURFACE, label: 'Vendor portal', detail: null }],
    });
  });

  it('switches from a business to the vendor portal and back: the business’s unsent edit waits in its own outbox', async () => {
    const { idb, srv, service, rows } = await device({ firstToken: server({ firstToken: '' }).tokenFor({ kind: 'BUSINESS', business_id: BUSINESS_ID }) }, true);
    expect(await service.signIn(USER.email, 'demo-password-1')).toMatchObject({ ok: true, session: { surface: { kind: 'BUSINESS' }, business: { id: BUSINESS_ID } } });
    expect(await total(service)).toBe(40);
    expect((await service.codeTransactions([rows[0]!.id], { gl_account_id: GL })).ok).toBe(true);

    const toPortal = await service.switchScope(VENDOR_SURFACE);
    expect(toPortal).toMatchObject({ ok: true, session: { surface: VENDOR_SURFACE, label: 'Acme Supplies', email: USER.email }, left_behind: { business_name: 'Alpha', changes: 1 } });
    expect(await total(service)).toBe(0);
    expect(await service.outbox()).toEqual([]);
    expect(srv.sent.filter((c) => c.path === '/v1/auth/identity' && c.surface !== 'BUSINESS')).toEqual([]);

    const back = await service.switchScope({ kind: 'BUSINESS', business_id: BUSINESS_ID });
    expect(back).toMatchObject({ ok: true, session: { business: { id: BUSINESS_ID } }, left_behind: null });
    expect(await total(service)).toBe(40);
    expect((await service.outbox()).map((e) => e.state)).toEqual(['pending']);
    expect((await mirrorNames(idb)).length).toBeGreaterThan(0);
  });

  it('keeps the session when the server refuses a scope the identity does not hold', async () => {
    const { service } = await device({ firstToken: vendorToken() });
    await service.signIn(USER.email, 'demo-password-1');
    const other = { kind: 'VENDOR_PORTAL' as const, network_vendor_id: testUuid(13, 9) };
    expect(await service.switchScope(other)).toMatchObject({ ok: false, error: { error_code: '4014' } });
    expect(await service.session()).toMatchObject({ surface: VENDOR_SURFACE });
    // The scope already held answers at once, without a call.
    expect(await service.switchScope(VENDOR_SURFACE)).toMatchObject({ ok: true, left_behind: null });
  });

  it('reads a firm user’s token in a client: a business session carrying the firm’s id', async () => {
    const firmInClient = fakeToken(['default'], { sub: IDENTITY_ID, business_id: BUSINESS_ID, ramp_surface: { kind: 'BUSINESS' }, external_firm_id: FIRM_ID });
    const { service } = await device({ firstToken: firmInClient });
    expect(await service.signIn(USER.email, 'demo-password-1')).toMatchObject({ ok: true, session: { surface: { kind: 'BUSINESS' }, external_firm_id: FIRM_ID } });
  });

  it('an advisor console token is a surface session too', async () => {
    const console = { kind: 'ADVISOR_CONSOLE' as const, external_firm_id: FIRM_ID, external_firm_user_id: FIRM_USER_ID };
    const { idb, service } = await device({ firstToken: fakeToken(['default'], { sub: IDENTITY_ID, ramp_surface: console }), scopesServed: false });
    expect(await service.signIn(USER.email, 'demo-password-1')).toMatchObject({ ok: true, session: { surface: console, label: 'Advisor console' } });
    expect(await mirrorNames(idb)).toEqual([]);
  });
});
