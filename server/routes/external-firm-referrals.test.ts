import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';
import { addMember, firmInClient, makeFirm } from './external-firm-test-kit.ts';

const R = '/v1/auth/external-firm/referrals';

describe.each(await testDatabases())('external firms: referrals on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });

  it('admins create, list and delete referral codes; members and other firms cannot', async () => {
    const firm = await makeFirm(t.app, t.db);
    const member = await addMember(t.app, t.db, firm);
    const created = await request<{ id: string; code: string; label: string }>(t.app, 'POST', R, { token: firm.adminToken, body: { label: 'Newsletter' } });
    expect(created.status).toBe(201);
    expect(created.body.code).toMatch(/^[A-HJKMNP-Z2-9]{10}$/);
    expect((await request<{ data: unknown[] }>(t.app, 'GET', R, { token: firm.adminToken })).body.data).toEqual([created.body]);
    expect(refusal(await request(t.app, 'GET', R, { token: member.token }))).toEqual([403, 'FORBIDDEN_7003']);
    const other = await makeFirm(t.app, t.db);
    expect(refusal(await request(t.app, 'DELETE', `${R}/${created.body.id}`, { token: other.adminToken }))).toEqual([404, 'REQUEST_7004']);
    expect((await request(t.app, 'DELETE', `${R}/${created.body.id}`, { token: firm.adminToken })).status).toBe(200);
    expect((await request<{ data: unknown[] }>(t.app, 'GET', R, { token: firm.adminToken })).body.data).toEqual([]);
  });

  it('a business sees the firm that referred it; the firm\'s own users in it do not (canViewReferrals)', async () => {
    let businessId = '';
    const a = await firmInClient(t.app, t.db, ['READ'], async () => {
      const fx = await makeBusiness(t.db, { transactions: 0 });
      businessId = fx.businessId;
      return { businessId, adminEmail: fx.email('admin') };
    });
    await t.db.query('UPDATE businesses SET referred_by_firm_id = $2 WHERE id = $1', [businessId, a.firm.firmId]);
    const seen = await request(t.app, 'GET', '/v1/auth/businesses/referrals', { token: a.clientAdmin });
    expect(seen.body).toEqual({ referred_by_firm: { id: a.firm.firmId, name: 'Acme CPAs' } });
    expect(refusal(await request(t.app, 'GET', '/v1/auth/businesses/referrals', { token: a.advisor }))).toEqual([403, 'FORBIDDEN_7003']);
    const fresh = await makeBusiness(t.db, { transactions: 0 });
    const none = await request(t.app, 'GET', '/v1/auth/businesses/referrals', { token: await signIn(t.app, fresh.email('employee')) });
    expect(none.body).toEqual({ referred_by_firm: null });
  });
});
