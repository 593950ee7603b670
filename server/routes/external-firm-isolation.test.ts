import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/db.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';
import { firmInClient, makeFirm } from './external-firm-test-kit.ts';

const TABLES = [
  'external_firms', 'external_firm_users', 'external_firm_invites', 'external_firm_proposals', 'external_firm_authorizations',
  'external_firm_authorization_users', 'external_firm_referrals',
];

/** Every external-firm row, hashed: a refused call must leave each one as it was. */
async function snapshot(db: Queryable): Promise<string> {
  const parts: string[] = [];
  for (const table of TABLES) {
    const rows = await db.query<{ r: string }>(`SELECT row_to_json(t)::text AS r FROM ${table} t ORDER BY 1`);
    parts.push(`${table}:${rows.map((x) => x.r).join('\n')}`);
  }
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

/** Issue 31: firm F2's admin calling every console call with F1's ids, and business B with A's. */
describe.each(await testDatabases())('external firm isolation on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });

  it('another firm\'s and another business\'s ids answer 404 and change nothing', async () => {
    let clientId = '';
    const a = await firmInClient(t.app, t.db, ['READ', 'CODE'], async () => {
      const fx = await makeBusiness(t.db, { transactions: 0 });
      clientId = fx.businessId;
      return { businessId: fx.businessId, adminEmail: fx.email('admin') };
    });
    const invite = await request<{ id: string }>(t.app, 'POST', '/v1/auth/external-firm/invites', { token: a.firm.adminToken, body: { email: 'iso2@firm.test', role: 'EXTERNAL_FIRM_USER' } });
    const draft = await request<{ id: string }>(t.app, 'POST', '/v1/auth/external-firm/proposals', {
      token: a.firm.adminToken, body: { client_email: 'draft@client.test', client_name: 'D', rights: ['READ'], firm_user_ids: [] },
    });
    const referral = await request<{ id: string }>(t.app, 'POST', '/v1/auth/external-firm/referrals', { token: a.firm.adminToken, body: { label: 'x' } });
    const f2 = await makeFirm(t.app, t.db);
    const other = await makeBusiness(t.db, { transactions: 0 });
    const otherAdmin = await signIn(t.app, other.email('admin'));
    const before = await snapshot(t.db);

    const firmCalls: [string, string, unknown?][] = [
      ['PUT', `/v1/auth/external-firm/invites/${invite.body.id}/resend`],
      ['DELETE', `/v1/auth/external-firm/invites/${invite.body.id}`],
      ['DELETE', `/v1/auth/external-firm/users/${a.member.firmUserId}`],
      ['PUT', `/v1/auth/external-firm/proposals/${draft.body.id}/validate`],
      ['PUT', `/v1/auth/external-firm/proposals/${draft.body.id}/revoke`],
      ['PUT', `/v1/auth/external-firm/business-proposals/${draft.body.id}/accept`],
      ['POST', `/v1/auth/external-firm/clients/${clientId}/open`],
      ['DELETE', `/v1/auth/external-firm/authorizations/${a.authorizationId}`],
      ['DELETE', `/v1/auth/external-firm/authorizations/${a.authorizationId}/users/${a.member.firmUserId}`],
      ['DELETE', `/v1/auth/external-firm/referrals/${referral.body.id}`],
    ];
    for (const [method, path, body] of firmCalls) {
      expect([path, ...refusal(await request(t.app, method, path, { token: f2.adminToken, body }))]).toEqual([path, 404, 'REQUEST_7004']);
    }
    const bulk = await request<{ results: { ok: boolean }[] }>(t.app, 'PUT', '/v1/auth/external-firm/proposals/bulk', {
      token: f2.adminToken, body: { action: 'revoke', ids: [draft.body.id] },
    });
    expect(bulk.body.results.map((r) => r.ok)).toEqual([false]);
    const f2Lists = await Promise.all(['/v1/auth/external-firm/clients', '/v1/auth/external-firm/proposals', '/v1/auth/external-firm/referrals']
      .map((p) => request<{ data: unknown[] }>(t.app, 'GET', p, { token: f2.adminToken })));
    expect(f2Lists.map((r) => r.body.data)).toEqual([[], [], []]);

    const businessCalls: [string, string, unknown?][] = [
      ['DELETE', `/v1/auth/businesses/external-firms/${a.authorizationId}`],
      ['PUT', `/v1/auth/businesses/external-firm-proposals/${draft.body.id}/accept`, {}],
      ['PUT', `/v1/auth/businesses/external-firm-proposals/${draft.body.id}/reject`],
    ];
    for (const [method, path, body] of businessCalls) {
      expect([path, ...refusal(await request(t.app, method, path, { token: otherAdmin, body }))]).toEqual([path, 404, 'REQUEST_7004']);
    }
    expect((await request<{ data: unknown[] }>(t.app, 'GET', '/v1/auth/businesses/external-firms', { token: otherAdmin })).body.data).toEqual([]);
    expect(await snapshot(t.db)).toBe(before);
  });
});
