import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';
import { addMember, firmInClient, makeFirm } from './external-firm-test-kit.ts';
import { appCall, applicationCode, fillApplication } from './application-test-kit.ts';

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

  it('logo: admins put a PNG (members read it), markup and other types are refused, delete removes it', async () => {
    const firm = await makeFirm(t.app, t.db);
    const member = await addMember(t.app, t.db, firm);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3, 4]);
    const put = async (token: string, body: Uint8Array, type: string) => {
      const res = await t.app.request('/v1/auth/external-firm/logo', { method: 'PUT', headers: { 'RAMP-ID-TOKEN': token, 'content-type': type }, body: body as unknown as BodyInit });
      return { status: res.status, body: await res.json() as unknown };
    };
    expect(refusal(await put(member.token, png, 'image/png'))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await put(firm.adminToken, new TextEncoder().encode('<svg onload=x>'), 'image/png'))).toEqual([422, 'UPLOAD_7105']);
    expect(refusal(await put(firm.adminToken, png, 'image/svg+xml'))).toEqual([415, 'UPLOAD_7101']);
    const ok = await put(firm.adminToken, png, 'image/png');
    expect(ok).toMatchObject({ status: 200, body: { id: firm.firmId, has_logo: true } });
    const got = await t.app.request('/v1/auth/external-firm/logo', { headers: { 'RAMP-ID-TOKEN': member.token } });
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(png);
    const removed = await request(t.app, 'DELETE', '/v1/auth/external-firm/logo', { token: firm.adminToken });
    expect(removed.body).toMatchObject({ has_logo: false });
    expect(await t.db.query('SELECT 1 FROM external_firm_logos WHERE firm_id = $1', [firm.firmId])).toHaveLength(0);
    expect(refusal(await request(t.app, 'GET', '/v1/auth/external-firm/logo', { token: member.token }))).toEqual([404, 'REQUEST_7004']);
  });

  it('an application started with a firm\'s referral code becomes a business referred by that firm; a deleted code refers none', async () => {
    const firm = await makeFirm(t.app, t.db, 'Referring CPAs');
    const code = (await request<{ id: string; code: string }>(t.app, 'POST', R, { token: firm.adminToken, body: { label: 'Webinar' } })).body;
    const approved = async (email: string, referral: string) => {
      expect((await request(t.app, 'POST', '/v1/public/application/start', { body: { email, first_name: 'Ada', last_name: 'Lovelace', referral_code: referral } })).status).toBe(204);
      const verified = await request(t.app, 'POST', '/v1/public/application/verify', { body: { email, code: await applicationCode(t.app, email) } });
      const who = { token: verified.body.id_token as string, appId: verified.body.financing_application_id as string, email };
      await fillApplication(t.app, who, { legalName: `Referred ${email.slice(0, 6)} LLC` });
      const submitted = await appCall(t.app, who, 'PATCH', '/submit', {});
      expect(submitted.body.status, submitted.text).toBe('APPROVED');
      const [row] = await t.db.query<{ referred_by_firm_id: string | null }>(
        'SELECT b.referred_by_firm_id::text FROM financing_applications a JOIN businesses b ON b.id = a.business_id WHERE a.id = $1', [who.appId]);
      return row!.referred_by_firm_id;
    };
    expect(await approved('referred-one@example.com', code.code)).toBe(firm.firmId);
    expect((await request(t.app, 'DELETE', `${R}/${code.id}`, { token: firm.adminToken })).status).toBe(200);
    expect(await approved('referred-two@example.com', code.code)).toBeNull();
  });
});
