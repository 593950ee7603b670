import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { billSchema, type Bill } from '../../schema/entities/bill.ts';
import type { Approval } from '../../schema/entities/approval.ts';
import { vendorSchema, type Vendor } from '../../schema/entities/vendor.ts';
import { settleBillPayments } from '../domain/bill-settlement.ts';
import { storeBankAccount } from '../domain/vendors.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, type Fixture, type FixtureRole, makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';

/**
 * Issue 28, the vendor-payment and payee approval policies, through the API. A business that never
 * saved them pays and adds payees as before. With a saved vendor-payment policy, pay-now and
 * scheduling an approved bill open an approval instead of moving money; the last approval pays it
 * (checked again), a rejection records the reason, the payer never approves their own payment.
 * With a saved payee policy, a new vendor (created or uploaded) and a new bank account wait for an
 * approval, and the vendor's bills are refused payment (BILL_PAY_7102) meanwhile.
 */
const BILLS = '/v1/auth/bill-pay';
const APPROVALS = '/v1/auth/approvals';
const VENDORS = '/v1/auth/vendors';
const BANK = { routing_number: '021000021', account_number: '000123456789', account_type: 'CHECKING' };
const ROLES = ['owner', 'admin', 'bookkeeper', 'manager', 'employee'] as const;

type Biz = { f: Fixture; tokens: Record<(typeof ROLES)[number], string>; stepped: string };

describe.each(await testDatabases())('vendor-payment and payee policies on %s', (kind) => {
  const t = useTestApp(kind);

  async function business(): Promise<Biz> {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const tokens = {} as Biz['tokens'];
    for (const role of ROLES) tokens[role] = await signIn(t.app, f.email(role));
    const up = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token: tokens.admin, body: { password: FIXTURE_PASSWORD } });
    expect(up.status, up.text).toBe(200);
    return { f, tokens, stepped: up.body.id_token };
  }
  const setPolicy = async (b: Biz, type: 'vendor-payment' | 'payee', steps: unknown[]) => {
    const res = await request(t.app, 'PATCH', `/v1/auth/approval_policy/${type}`, { token: b.tokens.admin, body: { steps } });
    expect(res.status, res.text).toBe(200);
  };
  const userStep = (b: Biz, role: FixtureRole) => ({ condition: null, approvers: { kind: 'user', user_id: b.f.users[role] } });
  const newVendor = async (b: Biz, name = `Vendor ${randomUUID().slice(0, 8)}`): Promise<Vendor> => {
    const res = await request(t.app, 'POST', VENDORS, { token: b.tokens.admin, body: { name } });
    expect(res.status, res.text).toBe(201);
    return vendorSchema.parse(res.body);
  };
  /** A vendor whose verified account is written straight to storage (no payee change through the API). */
  const payableVendor = async (b: Biz) => {
    const v = await newVendor(b);
    await storeBankAccount(t.db, v.id, { routing_number: '021000021', account_number: '4401927731', account_type: 'CHECKING' });
    await t.db.query('UPDATE vendors SET payee_approval = NULL WHERE id = $1', [v.id]);
    return v.id;
  };
  const approvedBill = async (b: Biz, vendorId: string, amount = 12_500): Promise<Bill> => {
    const res = await request(t.app, 'POST', BILLS, {
      token: b.tokens.admin,
      body: { vendor_id: vendorId, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD', line_items: [{ description: 'Service', amount }] },
    });
    expect(res.status, res.text).toBe(200);
    await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [res.body.id]);
    return billSchema.parse({ ...res.body, status: 'APPROVED' });
  };
  const billOf = async (b: Biz, id: string) => billSchema.parse((await request(t.app, 'GET', `${BILLS}/${id}`, { token: b.tokens.admin })).body);
  const vendorOf = async (b: Biz, id: string) => vendorSchema.parse((await request(t.app, 'GET', `${VENDORS}/${id}`, { token: b.tokens.admin })).body);
  const payNow = (b: Biz, ids: string[], role: (typeof ROLES)[number] = 'admin') =>
    request(t.app, 'POST', `${BILLS}/bulk-actions/pay-now`, { token: b.tokens[role], body: { bill_ids: ids } });
  const payments = (billId: string) =>
    t.db.query<{ status: string; created_by: string }>('SELECT status, created_by::text FROM bill_payments WHERE bill_id = $1', [billId]);
  const pendingOf = async (b: Biz, objectId: string, role: (typeof ROLES)[number]): Promise<Approval[]> => {
    const res = await request(t.app, 'GET', `${APPROVALS}?status=PENDING&object_ids=${objectId}`, { token: b.tokens[role] });
    expect(res.status, res.text).toBe(200);
    return res.body.data as Approval[];
  };
  const approve = (b: Biz, id: string, role: (typeof ROLES)[number]) => request(t.app, 'POST', `${APPROVALS}/${id}/approve`, { token: b.tokens[role] });
  const reject = (b: Biz, id: string, role: (typeof ROLES)[number], reason: string) =>
    request(t.app, 'POST', `${APPROVALS}/${id}/reject`, { token: b.tokens[role], body: { reason } });

  describe('a business that never saved either policy', () => {
    let b: Biz;
    beforeAll(async () => {
      b = await business();
    });

    it('pays at once and takes new payee details without an approval', async () => {
      const bill = await approvedBill(b, await payableVendor(b));
      const res = await payNow(b, [bill.id]);
      expect(res.body.results[0], res.text).toMatchObject({ ok: true, bill: { status: 'SCHEDULED', payment_approval: null } });
      expect(await payments(bill.id)).toHaveLength(1);
      const v = await newVendor(b);
      expect(v.payee_approval).toBeNull();
      const set = await request(t.app, 'POST', `${VENDORS}/${v.id}/bank-account`, { token: b.stepped, body: BANK });
      expect(set.status, set.text).toBe(200);
      expect(set.body.payee_approval).toBeNull();
      const rows = await t.db.query(`SELECT 1 FROM approvals WHERE business_id = $1 AND object_type IN ('vendor-payment', 'payee')`, [b.f.businessId]);
      expect(rows).toHaveLength(0);
    });
  });

  describe('a saved vendor-payment policy', () => {
    let b: Biz;
    let vendorId: string;
    beforeAll(async () => {
      b = await business();
      vendorId = await payableVendor(b);
      // The admin pays; the bookkeeper approves. A role step of admins never names the admin who asks.
      await setPolicy(b, 'vendor-payment', [userStep(b, 'bookkeeper'), { condition: null, approvers: { kind: 'role', role: 'BUSINESS_ADMIN' } }]);
    });

    it('pay-now asks for approval and moves no money; the last approval pays it once, as the payer', async () => {
      const bill = await approvedBill(b, vendorId);
      const asked = await payNow(b, [bill.id]);
      expect(asked.status, asked.text).toBe(200);
      expect(asked.body.results[0]).toMatchObject({ ok: true, bill: { status: 'APPROVED', payment_approval: { status: 'PENDING', method: 'PAY_NOW', requested_by: b.f.users.admin } } });
      expect(await payments(bill.id)).toEqual([]);
      // Asked twice: refused in its place, still one request.
      const again = await payNow(b, [bill.id]);
      expect(again.body.results[0]).toMatchObject({ ok: false, error_v2: { error_code: 'REQUEST_7001' } });
      expect(again.body.results[0].error_v2.message).toMatch(/already waiting for approval/);

      const [first] = await pendingOf(b, bill.id, 'bookkeeper');
      expect(first).toMatchObject({ object_type: 'vendor-payment', object_id: bill.id, user_id: b.f.users.admin });
      // The payer never approves their own payment, whatever their role.
      expect(refusal(await approve(b, first!.id, 'admin'))).toEqual([403, 'APPROVAL_7201']);
      const step1 = await approve(b, first!.id, 'bookkeeper');
      expect(step1.status, step1.text).toBe(200);
      expect(await payments(bill.id)).toEqual([]);
      expect((await billOf(b, bill.id)).payment_approval?.status).toBe('PENDING');

      const [second] = await pendingOf(b, bill.id, 'owner');
      const [chain] = await t.db.query<{ steps: { approver_ids: string[] }[] }>('SELECT steps FROM approval_instances WHERE object_id = $1', [bill.id]);
      expect(chain!.steps[1]!.approver_ids).not.toContain(b.f.users.admin);
      const done = await approve(b, second!.id, 'owner');
      expect(done.status, done.text).toBe(200);
      expect(done.body.bill).toMatchObject({ status: 'SCHEDULED', payment_approval: null, payment_attempt: 1 });
      expect(await payments(bill.id)).toEqual([{ status: 'PENDING', created_by: b.f.users.admin }]);
      // Decided: a second approval of it changes nothing.
      expect((await approve(b, second!.id, 'owner')).status).toBe(422);
      expect(await payments(bill.id)).toHaveLength(1);
    });

    it('scheduling asks too; a rejection keeps the bill approved with the reason, and it may be asked again', async () => {
      const bill = await approvedBill(b, vendorId);
      const res = await request(t.app, 'PATCH', `${BILLS}/bulk-actions/payment-date`, { token: b.tokens.admin, body: { bill_ids: [bill.id], payment_date: '2099-01-15' } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.results[0]).toMatchObject({ ok: true, bill: { status: 'APPROVED', payment_date: null, payment_approval: { status: 'PENDING', method: 'SCHEDULE', pay_on: '2099-01-15' } } });
      const [open] = await pendingOf(b, bill.id, 'bookkeeper');
      const no = await reject(b, open!.id, 'bookkeeper', 'Wrong month');
      expect(no.status, no.text).toBe(200);
      expect(no.body.bill).toMatchObject({ status: 'APPROVED', payment_approval: { status: 'REJECTED', reason: 'Wrong month', decided_by: b.f.users.bookkeeper } });
      expect(await payments(bill.id)).toEqual([]);
      expect(await pendingOf(b, bill.id, 'bookkeeper')).toEqual([]);

      const retry = await payNow(b, [bill.id]);
      expect(retry.body.results[0]).toMatchObject({ ok: true, bill: { payment_approval: { status: 'PENDING', method: 'PAY_NOW', reason: null } } });
      // Paid another way meanwhile: the waiting request is withdrawn with its approval.
      const marked = await request(t.app, 'POST', `${BILLS}/mark-bill-as-paid/${bill.id}`, { token: b.tokens.admin, body: {} });
      expect(marked.status, marked.text).toBe(200);
      expect(marked.body).toMatchObject({ status: 'PAID', payment_approval: null });
      expect(await pendingOf(b, bill.id, 'bookkeeper')).toEqual([]);
    });

    it('the last approval checks the bill again: a mismatch found meanwhile refuses it and nothing moves', async () => {
      const bill = await approvedBill(b, vendorId);
      await payNow(b, [bill.id]);
      const [open] = await pendingOf(b, bill.id, 'bookkeeper');
      expect((await approve(b, open!.id, 'bookkeeper')).status).toBe(200);
      const mismatch = { status: 'MISMATCHED', reasons: [{ code: 'CURRENCY_MISMATCH', text: 'The bill is in USD, the purchase order in EUR.' }], lines: [], override: null, checked_at: '2026-11-20T10:00:00.000Z' };
      await t.db.query('UPDATE bills SET po_match = $2::jsonb WHERE id = $1', [bill.id, JSON.stringify(mismatch)]);
      const [last] = await pendingOf(b, bill.id, 'owner');
      expect(refusal(await approve(b, last!.id, 'owner'))).toEqual([409, 'PROCUREMENT_7013']);
      expect(await payments(bill.id)).toEqual([]);
      expect(await pendingOf(b, bill.id, 'owner')).toHaveLength(1);
      expect((await billOf(b, bill.id)).payment_approval?.status).toBe('PENDING');
    });

    it('a step approver who manages no bills gets the bill in their mirror once asked (bill_pay visibility)', async () => {
      const c = await business();
      await setPolicy(c, 'vendor-payment', [userStep(c, 'manager')]);
      const bill = await approvedBill(c, await payableVendor(c));
      const billsIn = async () => {
        const ids: string[] = [];
        for (let after = 0; ;) {
          const res = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${after}&limit=200`, { token: c.tokens.manager });
          expect(res.status, res.text).toBe(200);
          ids.push(...(res.body.changes as { collection: string; id: string }[]).filter((x) => x.collection === 'bills').map((x) => x.id));
          if (!res.body.has_more) return ids;
          after = res.body.checkpoint;
        }
      };
      expect(await billsIn()).not.toContain(bill.id);
      await payNow(c, [bill.id]);
      expect(await billsIn()).toContain(bill.id);
    });

    it('canceling the bill withdraws the payment waiting for approval', async () => {
      const bill = await approvedBill(b, vendorId);
      await payNow(b, [bill.id]);
      const res = await request(t.app, 'POST', `${BILLS}/bulk-actions/cancel`, { token: b.tokens.admin, body: { bill_ids: [bill.id] } });
      expect(res.body.results[0], res.text).toMatchObject({ ok: true, bill: { status: 'CANCELED', payment_approval: null } });
      expect(await pendingOf(b, bill.id, 'bookkeeper')).toEqual([]);
    });
  });

  describe('a saved payee policy', () => {
    let b: Biz;
    beforeAll(async () => {
      b = await business();
      await setPolicy(b, 'payee', [userStep(b, 'bookkeeper')]);
    });

    it('a new vendor waits: its bills are written but not paid until the payee approval completes', async () => {
      const v = await newVendor(b);
      expect(v.payee_approval).toMatchObject({ status: 'PENDING', change: 'NEW_VENDOR', requested_by: b.f.users.admin });
      const set = await request(t.app, 'POST', `${VENDORS}/${v.id}/bank-account`, { token: b.stepped, body: BANK });
      expect(set.status, set.text).toBe(200);
      // Still the new vendor's approval (superseded by one that sees the account): one open, for the bookkeeper.
      expect(set.body.payee_approval).toMatchObject({ status: 'PENDING', change: 'NEW_VENDOR' });
      const open = await pendingOf(b, v.id, 'bookkeeper');
      expect(open).toHaveLength(1);
      expect(open[0]).toMatchObject({ object_type: 'payee', object_id: v.id, user_id: b.f.users.admin });

      const bill = await approvedBill(b, v.id);
      const held = await payNow(b, [bill.id]);
      expect(held.body.results[0], held.text).toMatchObject({ ok: false, error_v2: { error_code: 'BILL_PAY_7102' } });
      expect(held.body.results[0].error_v2.message).toMatch(/new vendor and is waiting for payee approval/);
      const scheduled = await request(t.app, 'PATCH', `${BILLS}/bulk-actions/payment-date`, { token: b.tokens.admin, body: { bill_ids: [bill.id], payment_date: '2099-01-15' } });
      expect(scheduled.body.results[0]).toMatchObject({ ok: false, error_v2: { error_code: 'BILL_PAY_7102' } });
      expect(refusal(await approve(b, open[0]!.id, 'admin'))).toEqual([403, 'APPROVAL_7201']);

      const ok = await approve(b, open[0]!.id, 'bookkeeper');
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.vendor).toMatchObject({ id: v.id, payee_approval: null });
      const paid = await payNow(b, [bill.id]);
      expect(paid.body.results[0], paid.text).toMatchObject({ ok: true, bill: { status: 'SCHEDULED' } });
    });

    it('a new bank account on an approved vendor waits again; rejected, payments stay refused with the reason', async () => {
      const v = await newVendor(b);
      const [first] = await pendingOf(b, v.id, 'bookkeeper');
      await approve(b, first!.id, 'bookkeeper');
      await request(t.app, 'POST', `${VENDORS}/${v.id}/bank-account`, { token: b.stepped, body: BANK });
      expect((await vendorOf(b, v.id)).payee_approval).toMatchObject({ status: 'PENDING', change: 'BANK_ACCOUNT' });
      const bill = await approvedBill(b, v.id);
      const [open] = await pendingOf(b, v.id, 'bookkeeper');
      const no = await reject(b, open!.id, 'bookkeeper', 'Account not confirmed by phone');
      expect(no.status, no.text).toBe(200);
      expect(no.body.vendor.payee_approval).toMatchObject({ status: 'REJECTED', change: 'BANK_ACCOUNT', reason: 'Account not confirmed by phone' });
      const held = await payNow(b, [bill.id]);
      expect(held.body.results[0]).toMatchObject({ ok: false, error_v2: { error_code: 'BILL_PAY_7102' } });
      expect(held.body.results[0].error_v2.message).toMatch(/bank account changed and the payee approval was rejected/);

      // A bill scheduled before the change is not sent to the unapproved account on its day.
      const due = await approvedBill(b, v.id);
      await t.db.query(`UPDATE bills SET status = 'SCHEDULED', payment_date = '2026-01-05' WHERE id = $1`, [due.id]);
      await settleBillPayments(t.db, new Date('2026-01-06T12:00:00Z'));
      expect(await billOf(b, due.id)).toMatchObject({ status: 'PAYMENT_FAILED', payment_failure_reason: expect.stringMatching(/payee approval was rejected/) });
      expect(await payments(due.id)).toEqual([]);
    });

    it('a CSV upload: every new vendor waits for its own approval', async () => {
      const tag = randomUUID().slice(0, 6);
      const res = await request(t.app, 'POST', `${VENDORS}/bulk-upload`, { token: b.tokens.admin, body: { rows: [{ name: `Up A ${tag}` }, { name: `Up B ${tag}` }] } });
      expect(res.status, res.text).toBe(201);
      for (const r of res.body.results as { id: string }[]) {
        expect((await vendorOf(b, r.id)).payee_approval).toMatchObject({ status: 'PENDING', change: 'NEW_VENDOR' });
        expect(await pendingOf(b, r.id, 'bookkeeper')).toHaveLength(1);
      }
    });

    it('a vendor deleted or merged away withdraws its payee approval; an account the survivor takes waits for one', async () => {
      const gone = await newVendor(b);
      const del = await request(t.app, 'DELETE', `${VENDORS}/${gone.id}`, { token: b.tokens.admin });
      expect(del.status, del.text).toBe(200);
      expect(await pendingOf(b, gone.id, 'bookkeeper')).toEqual([]);

      const survivor = await newVendor(b);
      const [open] = await pendingOf(b, survivor.id, 'bookkeeper');
      await approve(b, open!.id, 'bookkeeper');
      const donor = await newVendor(b);
      await request(t.app, 'POST', `${VENDORS}/${donor.id}/bank-account`, { token: b.stepped, body: BANK });
      const merged = await request(t.app, 'POST', `${VENDORS}/merge-payees`, {
        token: b.tokens.admin, body: { survivor_payee_id: survivor.id, merged_payee_ids: [donor.id] },
      });
      expect(merged.status, merged.text).toBe(200);
      expect(await pendingOf(b, donor.id, 'bookkeeper')).toEqual([]);
      expect(merged.body.vendor.payee_approval).toMatchObject({ status: 'PENDING', change: 'BANK_ACCOUNT' });
      expect(await pendingOf(b, survivor.id, 'bookkeeper')).toHaveLength(1);
    });

    it('another business cannot see or decide its approvals', async () => {
      const v = await newVendor(b);
      const [open] = await pendingOf(b, v.id, 'bookkeeper');
      const other = await business();
      expect(refusal(await approve(other, open!.id, 'admin'))).toEqual([404, 'REQUEST_7004']);
      expect(await pendingOf(other, v.id, 'admin')).toEqual([]);
      expect((await vendorOf(b, v.id)).payee_approval?.status).toBe('PENDING');
    });
  });
});
