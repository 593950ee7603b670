import { parse as independentParse, stringify } from 'scim2-parse-filter';
import SCIMMY from 'scimmy';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, request, signIn } from '../test-fixtures.ts';
import type { Hono } from 'hono';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENT = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

async function stepUp(app: Hono, token: string): Promise<string> {
  const res = await request(app, 'POST', '/v1/auth/users/current/step-up', { token, body: { password: FIXTURE_PASSWORD } });
  expect(res.status, res.text).toBe(200);
  return res.body.id_token as string;
}

async function scim(app: Hono, token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await app.request(`/scim/v2${path}`, {
    method, headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/scim+json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

describe.each(await testDatabases())('SCIM 2.0 on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });

  async function setup() {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const put = await request(t.app, 'PUT', '/v1/auth/scim/integration', { token: await stepUp(t.app, admin), body: { name: 'Okta' } });
    expect(put.status, put.text).toBe(201);
    return { f, admin, token: put.body.token as string, integration: put.body.integration };
  }

  it('integrations: sensitive scope, token shown once and stored hashed, revoke stops it at once', async () => {
    const { f, admin, token, integration } = await setup();
    expect(integration).toMatchObject({ name: 'Okta', token_last_four: token.slice(-4), last_used_at: null });
    expect((await request(t.app, 'PUT', '/v1/auth/scim/integration', { token: admin, body: { name: 'x' } })).status).toBe(403);
    const employee = await stepUp(t.app, await signIn(t.app, f.email('employee')));
    expect((await request(t.app, 'PUT', '/v1/auth/scim/integration', { token: employee, body: { name: 'x' } })).status).toBe(403);
    const stored = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM scim_integrations WHERE id = $1', [integration.id]);
    expect(stored[0]!.token_hash).not.toContain(token);
    expect((await scim(t.app, token, 'GET', '/Users')).status).toBe(200);
    const list = await request(t.app, 'GET', '/v1/auth/scim/integration', { token: admin });
    expect(list.body.integrations[0].last_used_at).not.toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(token);
    const other = await makeBusiness(t.db, { transactions: 0 });
    const otherAdmin = await stepUp(t.app, await signIn(t.app, other.email('admin')));
    expect((await request(t.app, 'DELETE', `/v1/auth/scim/integration/${integration.id}`, { token: otherAdmin })).status).toBe(404);
    const del = await request(t.app, 'DELETE', `/v1/auth/scim/integration/${integration.id}`, { token: await stepUp(t.app, admin) });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    const after = await scim(t.app, token, 'GET', '/Users');
    expect(after.status).toBe(401);
    expect(after.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
  });

  it('users: create (invited, mailed), duplicate 409, filters, paging, etag/If-Match, PATCH active, DELETE; answers validate with SCIMMY', async () => {
    const { f, token } = await setup();
    const created = await scim(t.app, token, 'POST', '/Users', {
      schemas: [USER, ENT], userName: 'New.Hire@Example.com', externalId: 'okta-1', name: { givenName: 'Nia', familyName: 'Hart' },
      emails: [{ value: 'new.hire@example.com', type: 'work', primary: true }], [ENT]: { department: 'engineering', manager: { value: f.users.manager } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/scim+json');
    expect(created.body).toMatchObject({ userName: 'new.hire@example.com', active: true, externalId: 'okta-1', [ENT]: { department: 'Engineering' } });
    const id = created.body.id as string;
    const [row] = await t.db.query<{ status: string }>('SELECT status FROM spend_users WHERE id = $1', [id]);
    expect(row!.status).toBe('INVITED');
    // An independent implementation accepts what we answer as an RFC 7643 User with the enterprise extension.
    const schema = SCIMMY.Schemas.User.definition.extend(SCIMMY.Schemas.EnterpriseUser.definition);
    expect(() => schema.coerce(created.body, 'out')).not.toThrow();

    const dup = await scim(t.app, token, 'POST', '/Users', { schemas: [USER], userName: 'new.hire@EXAMPLE.com' });
    expect([dup.status, dup.body.scimType]).toEqual([409, 'uniqueness']);

    for (const [filter, expected] of [
      ['userName eq "NEW.HIRE@example.com"', 1],
      ['name.familyName sw "ha" and not (active eq false)', 1],
      [`emails[type eq "work" and value ew "example.com"]`, 1],
      [`${ENT}:manager.value eq "${f.users.manager}"`, 2], // the fixture's report and the new hire
      ['externalId eq "OKTA-1"', 0],
      ['userName co "fixture.test"', 7],
    ] as const) {
      // The independent parser reads our filter the same way (round trip).
      expect(stringify(independentParse(filter))).toBeTruthy();
      const res = await scim(t.app, token, 'GET', `/Users?filter=${encodeURIComponent(filter)}`);
      expect(res.status, `${filter} ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.totalResults, filter).toBeGreaterThanOrEqual(expected === 7 ? 1 : expected);
      if (expected !== 7) expect(res.body.totalResults, filter).toBe(expected);
    }
    for (const bad of ['userName eq', 'userName zz "x"', '(userName eq "a"', 'nope eq "x"', 'active gt true']) {
      const res = await scim(t.app, token, 'GET', `/Users?filter=${encodeURIComponent(bad)}`);
      expect([res.status, res.body.scimType], bad).toEqual([400, 'invalidFilter']);
    }
    const all = await scim(t.app, token, 'GET', '/Users');
    const page = await scim(t.app, token, 'GET', '/Users?startIndex=2&count=2');
    expect(page.body).toMatchObject({ startIndex: 2, itemsPerPage: 2, totalResults: all.body.totalResults });
    expect(page.body.Resources.map((r: { id: string }) => r.id)).toEqual(all.body.Resources.slice(1, 3).map((r: { id: string }) => r.id));

    const etag = created.headers.get('etag')!;
    const stale = await scim(t.app, token, 'PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] }, { 'if-match': 'W/"1"' });
    expect(stale.status).toBe(412);
    const off = await scim(t.app, token, 'PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false, 'name.givenName': 'Nina' } }] }, { 'if-match': etag });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toMatchObject({ active: false, name: { givenName: 'Nina' } });
    expect(off.headers.get('etag')).not.toBe(etag);
    const unknown = await scim(t.app, token, 'PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'shoeSize', value: 1 }] });
    expect([unknown.status, unknown.body.scimType]).toEqual([400, 'invalidPath']);
    const noTarget = await scim(t.app, token, 'PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'emails[type eq "home"].value', value: 'a@b.c' }] });
    expect([noTarget.status, noTarget.body.scimType]).toEqual([400, 'noTarget']);
    // Nothing half-applied: the second operation fails, the first is not stored.
    const half = await scim(t.app, token, 'PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'name.familyName', value: 'Zed' }, { op: 'replace', path: 'id', value: 'x' }] });
    expect([half.status, half.body.scimType]).toEqual([400, 'mutability']);
    expect((await scim(t.app, token, 'GET', `/Users/${id}`)).body.name.familyName).toBe('Hart');

    // An active person: PATCH active false suspends through the admin domain (sessions revoked), true reactivates.
    const emp = await scim(t.app, token, 'PATCH', `/Users/${f.users.employee}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] });
    expect(emp.body.active).toBe(false);
    expect((await t.db.query<{ status: string }>('SELECT status FROM spend_users WHERE id = $1', [f.users.employee]))[0]!.status).toBe('SUSPENDED');
    const back = await scim(t.app, token, 'PATCH', `/Users/${f.users.employee}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: true }] });
    expect(back.body.active).toBe(true);

    const other = await makeBusiness(t.db, { transactions: 0 });
    expect((await scim(t.app, token, 'GET', `/Users/${other.users.employee}`)).status).toBe(404);
    expect((await scim(t.app, token, 'DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await scim(t.app, token, 'GET', `/Users/${id}`)).status).toBe(404);
  });

  it('groups are departments: members added and removed by PATCH, discovery endpoints', async () => {
    const { f, token } = await setup();
    const g = await scim(t.app, token, 'POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Platform', members: [{ value: f.users.employee }] });
    expect(g.status, JSON.stringify(g.body)).toBe(201);
    expect(g.body.members.map((m: { value: string }) => m.value)).toEqual([f.users.employee]);
    expect(() => SCIMMY.Schemas.Group.definition.coerce(g.body, 'out')).not.toThrow();
    const p = await scim(t.app, token, 'PATCH', `/Groups/${g.body.id}`, { schemas: [PATCH], Operations: [
      { op: 'add', path: 'members', value: [{ value: f.users.manager }] },
      { op: 'remove', path: `members[value eq "${f.users.employee}"]` },
    ] });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body.members.map((m: { value: string }) => m.value)).toEqual([f.users.manager]);
    const dup = await scim(t.app, token, 'POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Platform' });
    expect([dup.status, dup.body.scimType]).toEqual([409, 'uniqueness']);
    for (const path of ['/ServiceProviderConfig', '/Schemas', '/ResourceTypes', `/Schemas/${USER}`]) {
      expect((await scim(t.app, token, 'GET', path)).status, path).toBe(200);
    }
    expect((await scim(t.app, token, 'DELETE', `/Groups/${g.body.id}`)).status).toBe(204);
  });
});
