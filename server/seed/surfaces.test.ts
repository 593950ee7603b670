import { beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/password.ts';
import { appCall, startApplication } from '../routes/application-test-kit.ts';
import { useTestApp } from '../test-app.ts';
import { refusal, request, signIn } from '../test-fixtures.ts';
import { seedDemo, type SeedDemoResult } from './seed.ts';
import { SURFACE_DEMO } from './surfaces.ts';
import { expectSeqsOneToM, MIRRORED_TABLES } from './seq-checks.ts';
import { DEMO_PASSWORD } from './types.ts';

/**
 * Issue 31: the demo seed's other surfaces (seed/surfaces.ts), through the app on one seeded
 * server: the firm's admin lands in the advisor console and works in the demo business with READ +
 * CODE only; the vendor's admin lands in the portal with the linked vendor's bills; the applicant
 * resumes the seeded draft with a mailed code; the demo admin's people list shows no hidden user.
 */
const fastHash = (password: string) => hashPassword(password, { N: 1024, r: 8, p: 1 });
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
const HIDDEN = ['firm@demo.test', 'firm-member@demo.test', 'vendor@demo.test'];

describe('the demo seed of issue 31 on pglite', () => {
  const t = useTestApp('pglite', { devOutbox: true });
  let seeded: SeedDemoResult;
  beforeAll(async () => {
    seeded = await seedDemo(t.db, { transactions: 300, bills: 60, hashPassword: fastHash });
  }, 120_000);

  it('keeps the business seqs 1..M with the hidden users after the rest', async () => {
    await expectSeqsOneToM(t.db, seeded.businessId, seeded.maxChangeSeq, MIRRORED_TABLES);
    const hidden = await t.db.query<{ email: string; role: string; change_seq: number }>(
      `SELECT email, role, change_seq::int FROM spend_users WHERE business_id = $1 AND role IN ('ADVISOR_CONSOLE_ADMIN', 'ADVISOR_CONSOLE_USER', 'VENDOR_NETWORK_ADMIN')
        ORDER BY change_seq`, [seeded.businessId]);
    expect(hidden.map((h) => [h.email, h.role])).toEqual([
      ['firm@demo.test', 'ADVISOR_CONSOLE_ADMIN'], ['firm-member@demo.test', 'ADVISOR_CONSOLE_USER'], ['vendor@demo.test', 'VENDOR_NETWORK_ADMIN'],
    ]);
    expect(hidden.at(-1)!.change_seq).toBe(seeded.maxChangeSeq);
  });

  it('firm@ lands in the console, lists the demo business with open items, reads in it and may not pay a bill', async () => {
    const console = await signIn(t.app, 'firm@demo.test', DEMO_PASSWORD);
    expect(claimsOf(console).ramp_surface).toMatchObject({ kind: 'ADVISOR_CONSOLE' });
    const clients = await request<{ data: { business_id: string; business_name: string; rights: string[]; assigned_firm_user_ids: string[];
      open_items: { uncoded: number; missing_receipts: number; pending_bills: number } }[] }>(t.app, 'GET', '/v1/auth/external-firm/clients', { token: console });
    expect(clients.status).toBe(200);
    expect(clients.body.data).toHaveLength(1);
    const client = clients.body.data[0]!;
    expect(client).toMatchObject({ business_id: seeded.businessId, business_name: 'Northwind Robotics, Inc.', rights: ['READ', 'CODE'] });
    expect(client.assigned_firm_user_ids).toHaveLength(2);
    const items = client.open_items;
    expect(items.uncoded + items.missing_receipts + items.pending_bills).toBeGreaterThan(0);

    const opened = await request<{ id_token: string }>(t.app, 'POST', `/v1/auth/external-firm/clients/${seeded.businessId}/open`, { token: console });
    expect(opened.status).toBe(200);
    const advisor = opened.body.id_token;
    const list = await request<{ data: unknown[] }>(t.app, 'GET', '/v1/auth/transactions?page_size=20', { token: advisor });
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    const [bill] = await t.db.query<{ id: string; status: string }>(
      `SELECT id::text, status FROM bills WHERE business_id = $1 AND status = 'APPROVED' ORDER BY id LIMIT 1`, [seeded.businessId]);
    const pay = await request(t.app, 'POST', '/v1/auth/bill-pay/bulk-actions/pay-now', { token: advisor, body: { bill_ids: [bill!.id] } });
    expect(refusal(pay)).toEqual([403, 'FIRM_7003']);
    const [after] = await t.db.query<{ status: string }>('SELECT status FROM bills WHERE id = $1', [bill!.id]);
    expect(after!.status).toBe(bill!.status);
  });

  it('firm-member@ lands in the console too; the firm has a pending proposal and the referral code', async () => {
    const member = await signIn(t.app, 'firm-member@demo.test', DEMO_PASSWORD);
    expect(claimsOf(member).ramp_surface).toMatchObject({ kind: 'ADVISOR_CONSOLE' });
    const admin = await signIn(t.app, 'firm@demo.test', DEMO_PASSWORD);
    const proposals = await request<{ data: { client_email: string; client_name: string; status: string }[] }>(
      t.app, 'GET', '/v1/auth/external-firm/proposals', { token: admin });
    expect(proposals.status).toBe(200);
    expect(proposals.body.data.map((p) => [p.client_name, p.status]).sort()).toEqual([['Harbor Bakery', 'PENDING'], ['Northwind Robotics, Inc.', 'ACCEPTED']]);
    const referrals = await request<{ data: { code: string }[] }>(t.app, 'GET', '/v1/auth/external-firm/referrals', { token: admin });
    expect(referrals.body.data.map((r) => r.code)).toEqual([SURFACE_DEMO.referralCode]);
  });

  it('vendor@ lands in the portal and sees the linked vendor\'s bills and payments, its bank details masked', async () => {
    const portal = await signIn(t.app, 'vendor@demo.test', DEMO_PASSWORD);
    expect(claimsOf(portal).ramp_surface).toMatchObject({ kind: 'VENDOR_PORTAL' });
    const [link] = await t.db.query<{ vendor_id: string }>(
      `SELECT vendor_id::text FROM network_vendor_links WHERE business_id = $1 AND status = 'ACTIVE'`, [seeded.businessId]);
    const bills = await t.db.query<{ id: string }>(
      `SELECT id::text FROM bills WHERE vendor_id = $1 AND status NOT IN ('DRAFT', 'REJECTED', 'CANCELED') AND NOT deleted`, [link!.vendor_id]);
    const payments = await request<{ data: { bill_id: string; payer_name: string; bill_status: string; payment_status: string | null }[] }>(
      t.app, 'GET', '/v1/auth/vendor-network/payments?page_size=100', { token: portal });
    expect(payments.status).toBe(200);
    expect(payments.body.data.map((p) => p.bill_id).sort()).toEqual(bills.map((b) => b.id).sort());
    expect(payments.body.data.some((p) => ['PENDING_APPROVAL', 'APPROVED', 'SCHEDULED', 'PAYMENT_FAILED'].includes(p.bill_status))).toBe(true);
    expect(payments.body.data.some((p) => p.payment_status === 'SETTLED')).toBe(true);
    const profile = await request<{ bank: { routing_last_four: string; account_last_four: string } | null; address: unknown }>(
      t.app, 'GET', '/v1/auth/vendor-network/profile', { token: portal });
    expect(profile.body.bank).toMatchObject({ routing_last_four: '0021', account_last_four: '6789' });
    expect(profile.text).not.toContain('000123456789');
    expect(profile.body.address).toMatchObject({ city: 'Oakland' });
  });

  it('applicant@ resumes the seeded draft with a mailed code: business details and company answered, nothing submitted', async () => {
    const [draft] = await t.db.query<{ id: string }>(`SELECT id::text FROM financing_applications WHERE business_name = $1`, [SURFACE_DEMO.applicationName]);
    const who = await startApplication(t.app, 'applicant@demo.test', { first_name: 'Sunny', last_name: 'Rivera' }, draft!.id);
    expect(who.appId).toBe(draft!.id);
    const got = await appCall(t.app, who, 'GET', '');
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ status: 'DRAFT', business_name: SURFACE_DEMO.applicationName });
    const missing = JSON.stringify(got.body.missing);
    for (const answered of ['business_details', 'financial_details', 'company']) expect(missing).not.toContain(answered);
    expect(missing).toContain('leadership');
    expect(await signInStatus('applicant@demo.test')).toBe(401);
  });

  it('the demo admin\'s people list leaves the hidden users out', async () => {
    const admin = await signIn(t.app, 'admin@demo.test', DEMO_PASSWORD);
    const people = await request<{ data: { email: string; role: string }[] }>(t.app, 'GET', '/v1/auth/businesses/users?page_size=100', { token: admin });
    expect(people.status).toBe(200);
    expect(people.body.data.length).toBe(seeded.counts.users);
    expect(people.body.data.filter((p) => HIDDEN.includes(p.email) || /ADVISOR|VENDOR_NETWORK/.test(p.role))).toEqual([]);
  });

  async function signInStatus(email: string): Promise<number> {
    return (await request(t.app, 'POST', '/v1/public/sign-in', { body: { email, password: DEMO_PASSWORD } })).status;
  }
});
