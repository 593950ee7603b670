import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, makeBusiness, makeVendor, refusal, request, signIn } from '../test-fixtures.ts';
import { vendorPortalMembership } from '../auth/surfaces/vendor.ts';
import { ACH, acceptNew, insertBill, invite, portalToken } from './vendor-network-test-kit.ts';

/**
 * Issue 31, the vendor portal's reads and files, and isolation between network vendors: payments
 * (paged, statuses, expected settlement dates), documents (pdf/png/jpeg, email-otp), the payer's
 * failure reminder (once per failed payment), and vendor V2's token against V1's payments,
 * documents and proposals → 404 / empty, V1's rows unchanged.
 */
const PORTAL = '/v1/auth/vendor-network';
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

describe.each(await testDatabases())('vendor portal on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });
  let a: Fixture;
  let admin: string;
  let v1: { token: string; networkVendorId: string; identityId: string; otp: string; vendorId: string };
  let v2: { token: string; networkVendorId: string; identityId: string; otp: string; vendorId: string };
  const bills: Record<string, { billId: string; paymentId: string | null }> = {};

  const join = async (name: string) => {
    const vendorId = await makeVendor(t.app, admin, name);
    const joined = await acceptNew(t.app, t.db, await invite(t.app, t.db, admin, vendorId, `${randomUUID().slice(0, 8)}@${name.toLowerCase()}.test`));
    const otp = await portalToken(t.app, t.db, joined.identityId, joined.networkVendorId, ['email-otp', 'sensitive']);
    return { ...joined, otp, vendorId };
  };

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    admin = await signIn(t.app, a.email('admin'));
    v1 = await join('Vone');
    v2 = await join('Vtwo');
    const by = a.users.admin;
    bills.unpaid = await insertBill(t.db, a.businessId, v1.vendorId, by, { status: 'APPROVED', due: '2026-03-01' });
    bills.scheduled = await insertBill(t.db, a.businessId, v1.vendorId, by, { status: 'SCHEDULED', due: '2026-02-20', paymentDate: '2026-02-16' });
    bills.paid = await insertBill(t.db, a.businessId, v1.vendorId, by, {
      status: 'PAID', due: '2026-02-10', payment: { status: 'SETTLED', rail: 'ACH', created: '2026-02-02T12:00:00Z' },
    });
    bills.failed = await insertBill(t.db, a.businessId, v1.vendorId, by, {
      status: 'PAYMENT_FAILED', due: '2026-02-01', payment: { status: 'FAILED', rail: 'ACH', created: '2026-01-26T12:00:00Z' },
    });
    bills.draft = await insertBill(t.db, a.businessId, v1.vendorId, by, { status: 'DRAFT', due: '2026-04-01' });
    bills.other = await insertBill(t.db, a.businessId, v2.vendorId, by, { status: 'APPROVED', due: '2026-03-05' });
  });

  it('lists its payments newest due first, paged, with statuses and expected settlement dates; never a draft', async () => {
    const first = await request(t.app, 'GET', `${PORTAL}/payments?page_size=2`, { token: v1.token });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.map((p: { bill_id: string }) => p.bill_id)).toEqual([bills.unpaid!.billId, bills.scheduled!.billId]);
    expect(first.body.data[1]).toMatchObject({ bill_status: 'SCHEDULED', payment_date: '2026-02-16', expected_settlement_date: expect.any(String) });
    const second = await request(t.app, 'GET', `${PORTAL}/payments?page_size=2&start=${first.body.page.next}`, { token: v1.token });
    expect(second.body.data.map((p: { bill_id: string }) => p.bill_id)).toEqual([bills.paid!.billId, bills.failed!.billId]);
    expect(second.body.data[0]).toMatchObject({ payment_status: 'SETTLED', rail: 'ACH', amount: { amount: 4200, currency: 'USD' } });
    expect(second.body.data[0].expected_settlement_date > '2026-02-02').toBe(true);
    expect(second.body.page.next).toBeNull();
    const failed = await request(t.app, 'GET', `${PORTAL}/payments?status=FAILED`, { token: v1.token });
    expect(failed.body.data.map((p: { bill_id: string }) => p.bill_id)).toEqual([bills.failed!.billId]);
  });

  it('isolation: V2 never reaches V1\'s payments, documents or proposals; V1\'s rows stay', async () => {
    const mine = await request(t.app, 'GET', `${PORTAL}/payments?business_id=${a.businessId}`, { token: v2.token });
    expect(mine.body.data.map((p: { bill_id: string }) => p.bill_id)).toEqual([bills.other!.billId]);
    const doc = await request(t.app, 'POST', `${PORTAL}/documents?kind=W9`, {
      token: v1.otp, rawBody: Buffer.from(PDF).toString('latin1'), headers: { 'content-type': 'application/pdf' },
    });
    expect(doc.status, doc.text).toBe(201);
    expect(refusal(await request(t.app, 'DELETE', `${PORTAL}/documents/${doc.body.id}`, { token: v2.otp }))).toEqual([404, 'REQUEST_7004']);
    expect((await request(t.app, 'GET', `${PORTAL}/documents`, { token: v2.otp })).body.data).toEqual([]);
    // A V1 proposal (the payer already holds other numbers).
    await t.db.query(`UPDATE vendors SET bank_account_type = NULL, bank_routing_cipher = NULL, bank_account_cipher = NULL,
      bank_routing_last_four = NULL, bank_account_last_four = NULL, bank_verified_at = NULL WHERE id = $1`, [v1.vendorId]);
    const bank = await request(t.app, 'POST', `/v1/auth/vendors/${v1.vendorId}/bank-account`, { token: (await stepped()), body: {
      routing_number: '011000015', account_number: '11112222', account_type: 'CHECKING' } });
    expect(bank.status, bank.text).toBe(200);
    const ach = await request(t.app, 'POST', `${PORTAL}/ach-details`, { token: v1.otp, body: ACH });
    expect(ach.body.payers[0].outcome).toBe('proposed');
    const [p] = (await request(t.app, 'GET', `${PORTAL}/edit-proposals`, { token: v1.token })).body.data;
    expect((await request(t.app, 'GET', `${PORTAL}/edit-proposals`, { token: v2.token })).body.data).toEqual([]);
    expect(refusal(await request(t.app, 'DELETE', `${PORTAL}/edit-proposals/${p.id}`, { token: v2.token }))).toEqual([404, 'REQUEST_7004']);
    const rows = await t.db.query<{ status: string }>('SELECT status FROM vendor_edit_proposals WHERE id = $1', [p.id]);
    expect(rows).toEqual([{ status: 'PENDING' }]);
    const docs = await t.db.query<{ deleted_at: string | null }>('SELECT deleted_at FROM network_vendor_documents WHERE id = $1', [doc.body.id]);
    expect(docs).toEqual([{ deleted_at: null }]);
    expect((await request(t.app, 'GET', `${PORTAL}/payers`, { token: v2.token })).body.data.map((x: { vendor_id: string }) => x.vendor_id)).toEqual([v2.vendorId]);
  });

  const stepped = async () => (await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token: admin, body: { password: 'fixture-password-1' } })).body.id_token;

  it('documents: email-otp, content checked, listed, deleted (bytes dropped); the payer hides one for itself', async () => {
    const path = `${PORTAL}/documents?kind=OTHER`;
    expect(refusal(await request(t.app, 'POST', path, { token: v1.token, rawBody: 'x', headers: { 'content-type': 'application/pdf' } }))).toEqual([403, 'AUTH_7016']);
    const html = await request(t.app, 'POST', path, { token: v1.otp, rawBody: '<html><script>x</script></html>', headers: { 'content-type': 'application/pdf' } });
    expect(html.status).toBe(422);
    const up = await request(t.app, 'POST', path, { token: v1.otp, rawBody: Buffer.from(PDF).toString('latin1'), headers: { 'content-type': 'application/pdf' } });
    expect(up.status, up.text).toBe(201);
    const listed = await request(t.app, 'GET', `${PORTAL}/documents`, { token: v1.otp });
    expect(listed.body.data.map((d: { id: string }) => d.id)).toContain(up.body.id);
    const own = await request(t.app, 'GET', `${PORTAL}/documents/${up.body.id}`, { token: v1.otp });
    expect([own.status, own.text, own.headers.get('content-disposition')]).toEqual([200, new TextDecoder().decode(PDF), expect.stringContaining('attachment')]);
    expect(refusal(await request(t.app, 'GET', `${PORTAL}/documents/${up.body.id}`, { token: v2.otp }))).toEqual([404, 'REQUEST_7004']);
    const payerDocs = `/v1/auth/vendors/${v1.vendorId}/documents`;
    expect((await request(t.app, 'GET', payerDocs, { token: admin })).body.data.map((d: { id: string }) => d.id)).toContain(up.body.id);
    const file = await request(t.app, 'GET', `${payerDocs}/${up.body.id}`, { token: admin });
    expect([file.status, file.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    expect(refusal(await request(t.app, 'GET', `/v1/auth/vendors/${v2.vendorId}/documents/${up.body.id}`, { token: admin }))).toEqual([404, 'REQUEST_7004']);
    const hide = await request(t.app, 'DELETE', `/v1/auth/vendors/${v1.vendorId}/documents/${up.body.id}`, { token: admin });
    expect(hide.status, hide.text).toBe(200);
    expect((await request(t.app, 'GET', payerDocs, { token: admin })).body.data.map((d: { id: string }) => d.id)).not.toContain(up.body.id);
    expect(refusal(await request(t.app, 'GET', `${payerDocs}/${up.body.id}`, { token: admin }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `/v1/auth/vendors/${v2.vendorId}/documents/${up.body.id}`, { token: admin }))).toEqual([404, 'REQUEST_7004']);
    const del = await request(t.app, 'DELETE', `${PORTAL}/documents/${up.body.id}`, { token: v1.otp });
    expect(del.status, del.text).toBe(200);
    const [row] = await t.db.query<{ bytes: unknown }>('SELECT bytes FROM network_vendor_documents WHERE id = $1', [up.body.id]);
    expect(row!.bytes).toBeNull();
    expect(refusal(await request(t.app, 'DELETE', `${PORTAL}/documents/${up.body.id}`, { token: v1.otp }))).toEqual([404, 'REQUEST_7004']);
  });

  it('failure reminder: mailed once per failed payment; a settled one is 422, another vendor\'s 404', async () => {
    const path = `/v1/auth/vendors/${v1.vendorId}/network-failure-reminder`;
    const mails = async () => Number((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM dev_outbox WHERE subject LIKE '%could not pay you'`))[0]!.n);
    const before = await mails();
    const first = await request(t.app, 'PUT', path, { token: admin, body: { bill_payment_id: bills.failed!.paymentId } });
    expect(first.status, first.text).toBe(200);
    const second = await request(t.app, 'PUT', path, { token: admin, body: { bill_payment_id: bills.failed!.paymentId } });
    expect(second.body.reminded_at).toBe(first.body.reminded_at);
    expect(await mails()).toBe(before + 1);
    expect(refusal(await request(t.app, 'PUT', path, { token: admin, body: { bill_payment_id: bills.paid!.paymentId } }))).toEqual([422, 'REQUEST_7001']);
    const other = `/v1/auth/vendors/${v2.vendorId}/network-failure-reminder`;
    expect(refusal(await request(t.app, 'PUT', other, { token: admin, body: { bill_payment_id: bills.failed!.paymentId } }))).toEqual([404, 'REQUEST_7004']);
  });

  it('the scope picker lists the vendor portal by legal name; the membership holds only the admin\'s own', async () => {
    expect(await vendorPortalMembership.choices(t.db, v1.identityId)).toEqual([
      { target: { kind: 'VENDOR_PORTAL', network_vendor_id: v1.networkVendorId }, label: 'Vone', detail: 'Vendor' },
    ]);
    expect(await vendorPortalMembership.holds(t.db, v1.identityId, { kind: 'VENDOR_PORTAL', network_vendor_id: v1.networkVendorId })).toBe(true);
    expect(await vendorPortalMembership.holds(t.db, v1.identityId, { kind: 'VENDOR_PORTAL', network_vendor_id: v2.networkVendorId })).toBe(false);
    expect(await vendorPortalMembership.choices(t.db, randomUUID())).toEqual([]);
  });

  it('no answer carries a cipher', async () => {
    const ciphers = (await t.db.query<{ c: string }>(
      `SELECT unnest(ARRAY[bank_routing_cipher, bank_account_cipher, tin_cipher]) AS c FROM network_vendors WHERE id = $1`, [v1.networkVendorId],
    )).map((r) => r.c).filter(Boolean);
    expect(ciphers.length).toBeGreaterThan(0);
    for (const path of ['profile', 'payers', 'payments', 'edit-proposals', 'documents']) {
      const res = await request(t.app, 'GET', `${PORTAL}/${path}`, { token: v1.otp });
      expect(res.status, res.text).toBe(200);
      for (const c of ciphers) expect(res.text).not.toContain(c);
      expect(res.text).not.toMatch(/v1\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\./);
    }
  });

  it('a removed admin row ends the portal token at once (4014)', async () => {
    await t.db.query('DELETE FROM network_vendor_admins WHERE network_vendor_id = $1', [v2.networkVendorId]);
    const res = await request(t.app, 'GET', `${PORTAL}/profile`, { token: v2.token });
    expect(refusal(res)).toEqual([404, '4014']);
  });
});

describe.each(await testDatabases())('network invites and the invite quota on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true, quotas: { invitesPerInviterPerHour: 2 } });

  it('a network invite counts against the inviter\'s invite quota (429 QUOTA_EXCEEDED, nothing mailed)', async () => {
    const a = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, a.email('admin'));
    const vendorId = await makeVendor(t.app, admin, 'Quota vendor');
    const send = (n: number) => request(t.app, 'POST', `/v1/auth/vendors/${vendorId}/network-invite`, { token: admin, body: { email: `q${n}@quota.test` } });
    expect((await send(1)).status).toBe(201);
    const created = await request(t.app, 'POST', '/v1/auth/vendors/new', { token: admin, body: { name: 'Quota two', network_invite_email: 'q2@quota.test' } });
    expect(created.status, created.text).toBe(201);
    expect(refusal(await send(3))).toEqual([429, 'QUOTA_EXCEEDED']);
    expect(await t.db.query(`SELECT 1 FROM dev_outbox WHERE recipient = 'q3@quota.test'`)).toEqual([]);
  });
});
