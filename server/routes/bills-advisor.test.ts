import { describe, expect, it } from 'vitest';
import { billSchema, type Bill } from '../../schema/entities/bill.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, makeVendor, refusal, request, type Fixture } from '../test-fixtures.ts';
import { firmInClient } from './external-firm-test-kit.ts';

/**
 * Issue 31: a firm user in a client codes its bills (bills.update under CODE) and nothing more:
 * the GL account, department and memo change; the vendor, amounts, lines or a submit answer
 * FIRM_7003 with the bill as it was; READ alone codes nothing.
 */
const BILLS = '/v1/auth/bill-pay';

describe.each(await testDatabases())('an advisor coding bills on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });

  async function advisorWithBill(rights: string[]) {
    let fx: Fixture | undefined;
    const inClient = await firmInClient(t.app, t.db, rights, async () => {
      fx = await makeBusiness(t.db, { transactions: 0 });
      return { businessId: fx.businessId, adminEmail: fx.email('admin') };
    });
    const client = fx!;
    const vendor = await makeVendor(t.app, inClient.clientAdmin, 'Paper Co');
    const created = await request(t.app, 'POST', BILLS, {
      token: inClient.clientAdmin,
      body: {
        vendor_id: vendor, invoice_number: 'INV-31', invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
        line_items: [{ description: 'Paper', amount: 12_000 }, { description: 'Toner', amount: 3_050, gl_account_id: client.glAccounts.active[0] }],
      },
    });
    expect(created.status, created.text).toBe(200);
    return { ...inClient, fx: client, vendor, bill: billSchema.parse(created.body) };
  }

  /** The bill as stored: its row and its lines, so "unchanged" is the whole of it. */
  async function stored(id: string) {
    const [bill] = await t.db.query('SELECT vendor_id::text, amount, memo, status, change_seq FROM bills WHERE id = $1', [id]);
    const lines = await t.db.query(
      'SELECT id::text, description, amount, gl_account_id::text, department_id::text FROM bill_line_items WHERE bill_id = $1 ORDER BY position', [id],
    );
    return { bill, lines };
  }
  const linesOf = (bill: Bill, over: (i: number) => Record<string, unknown>) =>
    bill.line_items.map((l, i) => ({ description: l.description, amount: l.amount, gl_account_id: l.gl_account_id ?? undefined, ...over(i) }));
  const auditOf = (businessId: string) =>
    t.db.query<{ business_id: string; external_firm_id: string | null; status: number }>(
      `SELECT business_id::text, external_firm_id::text, status FROM audit_log WHERE call_id = 'bills.update' AND business_id = $1 ORDER BY at, id`,
      [businessId],
    );

  it('with CODE codes the lines (GL account, department) and the memo; repeating the vendor is no change; audited with the firm', async () => {
    const { firm, fx, advisor, vendor, bill } = await advisorWithBill(['READ', 'CODE']);
    const gl = fx.glAccounts.active[1]!;
    const res = await request(t.app, 'PATCH', `${BILLS}/${bill.id}`, {
      token: advisor,
      body: { vendor_id: vendor, memo: 'Office supplies, Q4', line_items: linesOf(bill, (i) => (i === 0 ? { gl_account_id: gl, department_id: fx.departments[0] } : {})) },
    });
    expect(res.status, res.text).toBe(200);
    const coded = billSchema.parse(res.body);
    expect(coded).toMatchObject({ memo: 'Office supplies, Q4', amount: 15_050, vendor_id: vendor, status: 'DRAFT' });
    expect(coded.line_items.map((l) => [l.description, l.amount, l.gl_account_id, l.department_id])).toEqual([
      ['Paper', 12_000, gl, fx.departments[0]], ['Toner', 3_050, fx.glAccounts.active[0], null],
    ]);
    expect((await stored(bill.id)).lines.map((l) => (l as { gl_account_id: string }).gl_account_id)).toEqual([gl, fx.glAccounts.active[0]]);
    expect(await auditOf(fx.businessId)).toEqual([{ business_id: fx.businessId, external_firm_id: firm.firmId, status: 200 }]);
  });

  it('with CODE cannot change the amount, the vendor, the lines or submit: FIRM_7003 naming it, the bill unchanged', async () => {
    const { clientAdmin, fx, advisor, bill } = await advisorWithBill(['READ', 'CODE']);
    const before = await stored(bill.id);
    const other = await makeVendor(t.app, clientAdmin, 'Toner Co');
    const gl = fx.glAccounts.active[1]!;
    const attempts: [Record<string, unknown>, string][] = [
      [{ line_items: linesOf(bill, (i) => (i === 0 ? { amount: 99_000, gl_account_id: gl } : {})) }, 'line amounts'],
      [{ vendor_id: other, memo: 'moved' }, 'vendor'],
      [{ line_items: linesOf(bill, () => ({})).slice(0, 1) }, 'lines'],
      [{ line_items: linesOf(bill, (i) => (i === 1 ? { description: 'Ink' } : {})) }, 'line descriptions'],
      [{ due_date: '2026-12-31' }, 'due date'],
      [{ memo: 'and send it', submit: true }, 'status (submitting it for approval)'],
    ];
    for (const [body, what] of attempts) {
      const res = await request(t.app, 'PATCH', `${BILLS}/${bill.id}`, { token: advisor, body });
      expect([...refusal(res), res.body.error_v2.message]).toEqual([
        403, 'FIRM_7003',
        `Your firm's access to this business includes coding this bill (its lines' GL accounts and departments, and its memo), not changing its ${what}. Ask the business to change it.`,
      ]);
    }
    expect(await stored(bill.id)).toEqual(before);
    expect((await auditOf(fx.businessId)).map((r) => r.status)).toEqual(attempts.map(() => 403));
    // The client's own bill manager still changes anything.
    const own = await request(t.app, 'PATCH', `${BILLS}/${bill.id}`, { token: clientAdmin, body: { vendor_id: other } });
    expect(own.status, own.text).toBe(200);
  });

  it('with READ only codes nothing: FIRM_7003, the bill unchanged', async () => {
    const { fx, advisor, bill } = await advisorWithBill(['READ']);
    const before = await stored(bill.id);
    const res = await request(t.app, 'PATCH', `${BILLS}/${bill.id}`, {
      token: advisor, body: { line_items: linesOf(bill, () => ({ gl_account_id: fx.glAccounts.active[1] })) },
    });
    expect([...refusal(res), res.body.error_v2.message]).toEqual([
      403, 'FIRM_7003', 'Your firm\'s access to this business doesn\'t include coding. Ask the business to grant it.',
    ]);
    expect(await stored(bill.id)).toEqual(before);
  });

  it('with READ reads the bills over the API (list and one bill) and still approves nothing', async () => {
    const { advisor, bill } = await advisorWithBill(['READ']);
    const one = await request(t.app, 'GET', `${BILLS}/${bill.id}`, { token: advisor });
    expect([one.status, one.body.id]).toEqual([200, bill.id]);
    const list = await request(t.app, 'GET', BILLS, { token: advisor });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((b: Bill) => b.id)).toContain(bill.id);
    const before = await stored(bill.id);
    const submit = await request(t.app, 'PATCH', `${BILLS}/${bill.id}`, { token: advisor, body: { submit: true } });
    expect(refusal(submit)).toEqual([403, 'FIRM_7003']);
    expect(await stored(bill.id)).toEqual(before);
  });
});
