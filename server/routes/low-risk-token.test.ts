import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../schema/api/calls.ts';
import { tokenClaimsSchema } from '../../schema/api/scopes.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn } from '../test-fixtures.ts';

const MINT = '/v1/auth/users/current/low-risk-token';

describe.each(await testDatabases())('low-risk tokens (§6) on %s', (kind) => {
  const t = useTestApp(kind);

  async function lowRisk(email: string) {
    const full = await signIn(t.app, email);
    const res = await request(t.app, 'POST', MINT, { token: full, body: {} });
    expect(res.status).toBe(200);
    return { full, token: res.body.id_token as string, expiresAt: res.body.expires_at as string };
  }

  it('mints a token with only low-risk, on the same session, living no longer than the token it came from', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const { full, token, expiresAt } = await lowRisk(f.email('employee'));
    const parent = tokenClaimsSchema.parse(decodeJwt(full));
    const claims = tokenClaimsSchema.strict().parse(decodeJwt(token));
    expect(claims).toMatchObject({
      sub: parent.sub, ramp_user_uuid: f.users.employee, ramp_access_scopes: ['low-risk'],
      ramp_session_id: parent.ramp_session_id, business_id: f.businessId,
    });
    expect(claims.exp).toBeLessThanOrEqual(parent.exp);
    expect(new Date(expiresAt).getTime()).toBe(claims.exp * 1000);
  });

  it('calls the §6 low-risk calls: transaction search, read and patch, bulk coding, primary card, feature flags, metrics', async () => {
    const f = await makeBusiness(t.db, { transactions: 3 });
    const { token } = await lowRisk(f.email('admin'));
    const id = f.allTransactions[0]!;
    const search = await request(t.app, 'POST', '/v1/auth/transactions/search', { token, body: { paging: { page_size: 10 } } });
    expect(search.status).toBe(200);
    expect(search.body.data.length).toBeGreaterThan(0);
    expect((await request(t.app, 'GET', `/v1/auth/transactions/${id}`, { token })).status).toBe(200);
    const patched = await request(t.app, 'PATCH', `/v1/auth/transactions/${id}`, { token, body: { memo: 'Low-risk memo' } });
    expect(patched.status).toBe(200);
    expect(patched.body.memo).toBe('Low-risk memo');
    const bulk = await request(t.app, 'PATCH', '/v1/auth/accounting/coding/bulk-update', {
      token, body: { transaction_ids: f.allTransactions, patch: { memo: 'Bulk' } },
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.updated).toBe(3);
    expect((await request(t.app, 'GET', '/v1/auth/cards/primary', { token })).status).toBe(200);
    expect((await request(t.app, 'GET', '/v1/auth/feature_flags', { token })).status).toBe(200);
  });

  it.each([
    ['a default-only read', 'GET', '/v1/auth/cards', undefined],
    ['an export (a whole table leaves the product)', 'POST', '/v1/auth/transactions/export_as_file', {}],
    ['a write outside §6', 'POST', '/v1/auth/reimbursements/out_of_pocket', { amount: 100, currency: 'USD', merchant: 'x', transaction_date: '2026-01-01' }],
    ['minting another token', 'POST', MINT, {}],
    ['a step-up', 'POST', '/v1/auth/users/current/step-up', { password: 'fixture-password-1' }],
    ['a recent-token call, though the token is fresh', 'POST', '/v1/auth/users/current/check-mfa', {}],
    ['sign-out', 'POST', '/v1/auth/users/current/sign-out', undefined],
  ])('refuses %s with 403 AUTH_7016', async (_name, method, path, body) => {
    const f = await makeBusiness(t.db, { transactions: 1 });
    const { token } = await lowRisk(f.email('admin'));
    const res = await request(t.app, method, path, { token, body });
    expect(res.status).toBe(403);
    expect(res.body.error_v2.error_code).toBe('AUTH_7016');
  });

  it('lists low-risk only on the §6 calls', () => {
    const ids = CATALOGUE.filter((c) => c.auth.kind === 'scopes' && (c.auth.scopes as readonly string[]).includes('low-risk')).map((c) => c.id);
    expect(ids.sort()).toEqual([
      'cards.getPrimary', 'featureFlags.get', 'reporting.generateReport', 'transactions.bulkCode', 'transactions.get',
      'transactions.list', 'transactions.patch', 'transactions.search',
    ]);
  });

  it('dies with its session (sign-out of the full token)', async () => {
    const f = await makeBusiness(t.db, { transactions: 1 });
    const { full, token } = await lowRisk(f.email('employee'));
    expect((await request(t.app, 'POST', '/v1/auth/users/current/sign-out', { token: full })).status).toBe(200);
    const res = await request(t.app, 'GET', `/v1/auth/transactions/${f.allTransactions[0]}`, { token });
    expect(res.status).toBe(401);
    expect(res.body.error_v2.error_code).toBe('AUTH_7003');
  });

  it('is not minted from a token without default (a sign-in still waiting for MFA) nor with a body', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    await t.db.query('UPDATE businesses SET mfa_required = true WHERE id = $1', [f.businessId]);
    const pending = await signIn(t.app, f.email('employee'));
    expect(decodeJwt(pending).ramp_access_scopes).toEqual([]);
    const refused = await request(t.app, 'POST', MINT, { token: pending, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error_v2.error_code).toBe('AUTH_7016');
    await t.db.query('UPDATE businesses SET mfa_required = false WHERE id = $1', [f.businessId]);
    const full = await signIn(t.app, f.email('employee'));
    expect((await request(t.app, 'POST', MINT, { token: full, body: { scopes: ['default'] } })).status).toBe(422);
  });
});
