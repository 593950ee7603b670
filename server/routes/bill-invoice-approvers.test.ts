import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { receiptSchema } from '../../schema/api/calls-receipts.ts';
import { billSchema, type Bill } from '../../schema/entities/bill.ts';
import type { Approval } from '../../schema/entities/approval.ts';
import { expectFileHeaders } from '../http/file-headers-test-kit.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';

/**
 * Issue 11: whoever a bill's approval chain names may open the bill's invoice from their approvals
 * inbox (GET of the file and of its metadata), on any step, before their turn and after the
 * decision, though they may not manage bill pay nor see the uploader's receipts. Nothing else
 * opens: not the uploader's other receipts, not a write (delete), not for anyone the chain does not
 * name, not across businesses. Fixture reporting line: employee → manager, teammate → employee;
 * the outsider (no manager) is made an AP clerk (AP_ACCESS), so no approver sees their uploads
 * under the `owner` rule.
 */
const BILLS = '/v1/auth/bill-pay';
const RECEIPTS = '/v1/auth/receipts';
const APPROVALS = '/v1/auth/approvals';

describe.each(await testDatabases())('a bill\'s invoice for its approvers on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  const tokens = {} as Record<FixtureRole | 'other', string>;
  let vendor: string;
  let invoiceBytes: Uint8Array<ArrayBuffer>;
  let invoiceId: string;
  let otherFileId: string;
  let bill: Bill;

  /** A PDF the AP clerk uploads: its signature and random bytes (new bytes every call). */
  const upload = async (bytes: Uint8Array<ArrayBuffer>) => {
    const res = await t.app.request(RECEIPTS, {
      method: 'POST', headers: { 'RAMP-ID-TOKEN': tokens.outsider, 'content-type': 'application/pdf' }, body: bytes,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return receiptSchema.parse(await res.json()).id;
  };
  const pdf = () => Uint8Array.from([...Buffer.from('%PDF-1.7\n'), ...randomBytes(600)]);
  const readFile = (id: string, who: FixtureRole | 'other') => t.app.request(`${RECEIPTS}/${id}`, { headers: { 'RAMP-ID-TOKEN': tokens[who] } });
  const readMetadata = (id: string, who: FixtureRole | 'other') => request(t.app, 'GET', `${RECEIPTS}/${id}/metadata`, { token: tokens[who] });
  const pendingOf = async (role: FixtureRole): Promise<Approval[]> => {
    const res = await request(t.app, 'GET', `${APPROVALS}?status=PENDING&object_ids=${bill.id}`, { token: tokens[role] });
    expect(res.status, res.text).toBe(200);
    return res.body.data as Approval[];
  };

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    const b = await makeBusiness(t.db, { transactions: 0 });
    await t.db.query(`UPDATE spend_users SET user_permissions = '["AP_ACCESS"]' WHERE id = $1`, [a.users.outsider]);
    for (const role of ['admin', 'manager', 'employee', 'teammate', 'outsider'] as const) tokens[role] = await signIn(t.app, a.email(role));
    tokens.other = await signIn(t.app, b.email('owner'));
    // Two steps: the employee, then the manager (whose team is the employee and the teammate, not the clerk).
    const policy = await request(t.app, 'PATCH', '/v1/auth/approval_policy/bill', {
      token: tokens.admin,
      body: { steps: [
        { condition: null, approvers: { kind: 'user', user_id: a.users.employee } },
        { condition: null, approvers: { kind: 'user', user_id: a.users.manager } },
      ] },
    });
    expect(policy.status, policy.text).toBe(200);
    const created = await request(t.app, 'POST', '/v1/auth/vendors', { token: tokens.outsider, body: { name: 'Invoice Co' } });
    expect(created.status, created.text).toBe(201);
    vendor = created.body.id;

    invoiceBytes = pdf();
    invoiceId = await upload(invoiceBytes);
    otherFileId = await upload(pdf());
    const draft = await request(t.app, 'POST', BILLS, {
      token: tokens.outsider,
      body: {
        vendor_id: vendor, invoice_number: 'INV-7001', invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
        line_items: [{ description: 'Consulting', amount: 120_000 }],
      },
    });
    expect(draft.status, draft.text).toBe(200);
    const submitted = await request(t.app, 'PATCH', `${BILLS}/${draft.body.id}`, { token: tokens.outsider, body: { invoice_file_id: invoiceId, submit: true } });
    expect(submitted.status, submitted.text).toBe(200);
    bill = billSchema.parse(submitted.body);
    expect(bill).toMatchObject({ status: 'PENDING_APPROVAL', invoice_file_id: invoiceId });
  });

  it('opens the invoice (file and metadata) to the approver of the open step and to the one whose step waits', async () => {
    expect((await pendingOf('employee')).length).toBe(1);
    for (const who of ['employee', 'manager'] as const) {
      const file = await readFile(invoiceId, who);
      expect(file.status, who).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      // A bill's invoice file is a sandboxed download like every file answer.
      expectFileHeaders(file.headers, `receipt-${invoiceId}.pdf`);
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(invoiceBytes);
      const meta = await readMetadata(invoiceId, who);
      expect(meta.status, meta.text).toBe(200);
      expect(receiptSchema.parse(meta.body)).toMatchObject({ id: invoiceId, content_type: 'application/pdf', size: invoiceBytes.length });
    }
  });

  it('opens nothing else: not the clerk\'s other files, not a delete, not to whom the chain does not name, not across businesses', async () => {
    for (const who of ['employee', 'manager'] as const) {
      expect((await readFile(otherFileId, who)).status, who).toBe(404);
      expect((await readMetadata(otherFileId, who)).status, who).toBe(404);
    }
    const deleted = await request(t.app, 'DELETE', `${RECEIPTS}/${invoiceId}`, { token: tokens.employee });
    expect([deleted.status, deleted.body.error_v2?.error_code]).toEqual([404, 'REQUEST_7004']);
    for (const who of ['teammate', 'other'] as const) {
      const file = await readFile(invoiceId, who);
      expect(file.status, who).toBe(404);
      const meta = await readMetadata(invoiceId, who);
      expect([meta.status, meta.body.error_v2?.error_code], who).toEqual([404, 'REQUEST_7004']);
    }
    // The invoice is intact: the clerk still reads it.
    expect((await readFile(invoiceId, 'outsider')).status).toBe(200);
  });

  it('still opens it to both approvers once the chain is decided, and closes it when the bill names another file', async () => {
    const [first] = await pendingOf('employee');
    expect((await request(t.app, 'POST', `${APPROVALS}/${first!.id}/approve`, { token: tokens.employee })).status).toBe(200);
    const [second] = await pendingOf('manager');
    expect((await request(t.app, 'POST', `${APPROVALS}/${second!.id}/approve`, { token: tokens.manager })).status).toBe(200);
    const [row] = await t.db.query<{ status: string }>('SELECT status FROM bills WHERE id = $1', [bill.id]);
    expect(row!.status).toBe('APPROVED');
    for (const who of ['employee', 'manager'] as const) expect((await readFile(invoiceId, who)).status, who).toBe(200);

    const swapped = await request(t.app, 'PATCH', `${BILLS}/${bill.id}`, { token: tokens.outsider, body: { invoice_file_id: otherFileId } });
    expect(swapped.status, swapped.text).toBe(200);
    expect((await readFile(otherFileId, 'employee')).status).toBe(200);
    expect((await readFile(invoiceId, 'employee')).status).toBe(404);
  });
});
