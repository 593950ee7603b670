/**
 * Issue 31, the scope matrix: every catalogue entry × a token of each surface. A call not of the
 * token's surface answers exactly 403 SURFACE_7001 and changes nothing (the gate stands before
 * any read, so no membership, body or id matters); a call of the token's surface gets past the
 * gate. Generated from CATALOGUE, like tenant-isolation.test.ts: the calls each surface's server
 * adds (advisor console, vendor portal, application) are covered without touching this file.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../schema/api/calls.ts';
import type { CallDef } from '../schema/api/define-call.ts';
import { ANY_SURFACE, SURFACES, type OtherSurfaceClaim, type Surface } from '../schema/api/scopes.ts';
import { issueToken, openSession } from './auth/session.ts';
import type { Queryable } from './db/db.ts';
import { useTestApp } from './test-app.ts';
import { testDatabases } from './test-db.ts';
import { makeBusiness, signIn, type Fixture } from './test-fixtures.ts';

const AUTHENTICATED = CATALOGUE.filter((c) => c.auth.kind !== 'public');
const CLAIMS: { [K in OtherSurfaceClaim['kind']]: () => OtherSurfaceClaim } = {
  ADVISOR_CONSOLE: () => ({ kind: 'ADVISOR_CONSOLE', external_firm_id: randomUUID(), external_firm_user_id: randomUUID() }),
  VENDOR_PORTAL: () => ({ kind: 'VENDOR_PORTAL', network_vendor_id: randomUUID() }),
  FINANCING_APPLICATION: () => ({ kind: 'FINANCING_APPLICATION', financing_application_id: randomUUID() }),
  ADVISOR_CONSOLE_APPLICATION: () => ({ kind: 'ADVISOR_CONSOLE_APPLICATION', external_firm_application_id: randomUUID() }),
};
const OTHER_SURFACES = SURFACES.filter((s): s is OtherSurfaceClaim['kind'] => s !== 'BUSINESS');

/** A path with every `:param` filled (a uuid: the gate answers before any parameter is read). */
const pathOf = (call: CallDef) => call.path.replace(/:[a-z_]+/g, () => randomUUID());

/** Every table of the database: row count and a hash of its rows (nothing at all may change). */
async function wholeDatabase(db: Queryable): Promise<Record<string, string>> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const parts = tables.map(({ table_name: t }) =>
    `SELECT '${t}'::text AS label, count(*) AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM "${t}" x`);
  const rows = await db.query<{ label: string; n: number | string; h: string }>(parts.join('\nUNION ALL '));
  return Object.fromEntries(rows.map((r) => [r.label, `${Number(r.n)}:${r.h}`]));
}

describe.each(await testDatabases())('the surface matrix on %s', (kind) => {
  const t = useTestApp(kind);
  let f: Fixture;
  const tokens = {} as Record<Surface, string>;

  beforeAll(async () => {
    f = await makeBusiness(t.db, { transactions: 3 });
    tokens.BUSINESS = await signIn(t.app, f.email('owner'));
    const [owner] = await t.db.query<{ identity_id: string }>('SELECT identity_id::text FROM spend_users WHERE id = $1', [f.users.owner]);
    for (const surface of OTHER_SURFACES) {
      // Fully scoped and MFA-authed (the strongest token of that surface), on a live session of the owner's identity.
      const sessionId = await openSession(t.db, owner!.identity_id);
      tokens[surface] = (await issueToken(t.app.deps, { identityId: owner!.identity_id, sessionId, surface: CLAIMS[surface]() }, {
        scopes: ['default', 'email-otp', 'sensitive'], mfaRequired: false, mfaAuthed: true,
      })).token;
    }
  });

  async function send(call: CallDef, token: string): Promise<{ status: number; code: string | undefined }> {
    const init: RequestInit = { method: call.method, headers: { 'RAMP-ID-TOKEN': token, 'content-type': 'application/json' } };
    if (call.method !== 'GET') init.body = '{}';
    const res = await t.app.request(pathOf(call), init);
    const text = res.headers.get('content-type')?.includes('text/event-stream') ? '' : await res.text();
    if (res.body && !res.bodyUsed) await res.body.cancel();
    let code: string | undefined;
    try {
      code = (JSON.parse(text) as { error_v2?: { error_code?: string } }).error_v2?.error_code;
    } catch {
      code = undefined;
    }
    return { status: res.status, code };
  }

  it('the catalogue declares surfaces the matrix knows, and the any-surface calls every client boots with', () => {
    for (const call of CATALOGUE) for (const s of call.surfaces) expect(SURFACES).toContain(s);
    const any = CATALOGUE.filter((c) => ANY_SURFACE.every((s) => c.surfaces.includes(s))).map((c) => c.id);
    expect(any).toEqual(expect.arrayContaining([
      'identity.current', 'users.signOut', 'mfa.check', 'mfa.send', 'mfa.verify', 'auth.stepUp', 'auth.sendEmailOtp',
      'auth.verifyEmailOtp', 'users.switchBusiness', 'identity.scopes.list', 'identity.scopes.switch',
    ]));
  });

  it.each(SURFACES.map((s) => [s] as const))('a %s token: every call of another surface is 403 SURFACE_7001, nothing changes', async (surface) => {
    const refused = AUTHENTICATED.filter((c) => !c.surfaces.includes(surface));
    if (surface !== 'BUSINESS') expect(refused.length).toBeGreaterThan(100);
    const before = await wholeDatabase(t.db);
    const wrong: string[] = [];
    for (const call of refused) {
      const res = await send(call, tokens[surface]);
      if (res.status !== 403 || res.code !== 'SURFACE_7001') wrong.push(`${call.id}: ${res.status} ${res.code}`);
    }
    expect(wrong).toEqual([]);
    expect(await wholeDatabase(t.db)).toEqual(before);
  });

  it.each(OTHER_SURFACES.map((s) => [s] as const))('a %s token gets past the gate on its own calls', async (surface) => {
    const own = AUTHENTICATED.filter((c) => c.surfaces.includes(surface));
    expect(own.map((c) => c.id)).toContain('identity.current');
    const before = await wholeDatabase(t.db);
    const wrong: string[] = [];
    for (const call of own) {
      // The identity holds no such firm, vendor or application: authentication refuses it (4014) after the gate.
      const res = await send(call, tokens[surface]);
      if (res.code === 'SURFACE_7001') wrong.push(call.id);
      else expect(res.code, call.id).toBe('4014');
    }
    expect(wrong).toEqual([]);
    expect(await wholeDatabase(t.db)).toEqual(before);
  });
});
