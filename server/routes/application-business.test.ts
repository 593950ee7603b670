import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';
import { ADDRESS } from './application-test-kit.ts';

describe.each(await testDatabases())('Businesses calls of the application area on %s', (kind) => {
  const t = useTestApp(kind);

  async function entityOf(businessId: string): Promise<string> {
    const id = randomUUID();
    await t.db.query("INSERT INTO business_entities (id, business_id, name, country, currency, change_seq) VALUES ($1, $2, $3, 'US', 'USD', 0)", [id, businessId, `West ${id.slice(0, 4)}`]);
    return id;
  }

  it('address: own business only (another is 404), admins only (FORBIDDEN_7003)', async () => {
    const a = await makeBusiness(t.db, { transactions: 0 });
    const b = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, a.email('admin'));
    const put = (token: string, id: string) => request(t.app, 'PUT', `/v1/auth/businesses/${id}/address`, { token, body: { address: ADDRESS } });
    const res = await put(admin, a.businessId);
    expect(res.status, res.text).toBe(200);
    expect(res.body.address).toMatchObject({ line1: '1 Market St', country: 'US' });
    expect((await t.db.query<{ address: { city: string } }>('SELECT address FROM businesses WHERE id = $1', [a.businessId]))[0]!.address.city).toBe('San Francisco');
    expect(refusal(await put(admin, b.businessId))).toEqual([404, 'REQUEST_7004']);
    expect(await t.db.query('SELECT address FROM businesses WHERE id = $1', [b.businessId])).toEqual([{ address: null }]);
    expect(refusal(await put(await signIn(t.app, a.email('employee')), a.businessId))).toEqual([403, 'FORBIDDEN_7003']);
  });

  it('kyb-kyc re-screens: a listed owner who is a member is flagged MANUAL_REVIEW; a clean list passes', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const cp = { first_name: 'Ada', last_name: 'Lovelace', title: 'CEO', email: f.email('owner') };
    const clean = await request(t.app, 'PUT', '/v1/auth/businesses/kyb-kyc', { token: admin, body: { owners: [{ name: 'Ada Lovelace', percent_bp: 10000 }], control_person: cp } });
    expect(clean.body).toMatchObject({ ofac_status: 'PASSED', matched: [] });
    const hit = await request(t.app, 'PUT', '/v1/auth/businesses/kyb-kyc', {
      token: admin, body: { owners: [{ name: 'Sanctionedov, Boris', email: f.email('employee'), percent_bp: 5000 }], control_person: cp },
    });
    expect(hit.body).toMatchObject({ ofac_status: 'MANUAL_REVIEW', matched: ['Sanctionedov, Boris'] });
    expect(await t.db.query('SELECT ofac_status FROM identities WHERE lower(email) = $1', [f.email('employee')])).toEqual([{ ofac_status: 'MANUAL_REVIEW' }]);
    expect(await t.db.query('SELECT ofac_status FROM identities WHERE lower(email) = $1', [f.email('owner')])).toEqual([{ ofac_status: 'PASSED' }]);
  });

  it('issuing onboarding decides an entity\'s KYB per country; another business\'s entity is 404', async () => {
    const a = await makeBusiness(t.db, { transactions: 0 });
    const b = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, a.email('admin'));
    const mine = await entityOf(a.businessId);
    const theirs = await entityOf(b.businessId);
    const body = { legal_name: 'Engines West LLC', entity_type: 'LLC', ein: '12-3456789', incorporation_date: '2021-01-01', address: ADDRESS };
    const put = (id: string, country: string, b2: unknown = body) => request(t.app, 'PUT', `/v1/auth/businesses/entities/${id}/issuing-onboarding/${country}`, { token: admin, body: b2 });
    const res = await put(mine, 'US');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ country: 'US', status: 'APPROVED', reasons: [] });
    expect((await put(mine, 'CA', { ...body, ein: '00-1234567' })).body).toMatchObject({ status: 'REJECTED', reasons: ['The EIN is not valid.'] });
    const [row] = await t.db.query<{ issuing_onboarding: Record<string, { status: string }>; change_seq: number }>(
      'SELECT issuing_onboarding, change_seq FROM business_entities WHERE id = $1', [mine]);
    expect(Object.fromEntries(Object.entries(row!.issuing_onboarding).map(([c, r]) => [c, r.status]))).toEqual({ US: 'APPROVED', CA: 'REJECTED' });
    expect(row!.change_seq).toBeGreaterThan(0);
    expect(refusal(await put(theirs, 'US'))).toEqual([404, 'REQUEST_7004']);
    expect(await t.db.query('SELECT issuing_onboarding FROM business_entities WHERE id = $1', [theirs])).toEqual([{ issuing_onboarding: null }]);
    expect(refusal(await put(mine, 'us'))).toEqual([422, 'REQUEST_7001']);
  });
});
