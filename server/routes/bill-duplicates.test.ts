import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { billSchema } from '../../schema/entities/bill.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, makeBusiness, makeVendor, refusal, request, signIn } from '../test-fixtures.ts';

/**
 * Issue 25 item 4, duplicates stop at the server: a create or submit whose vendor and invoice
 * number (normalized) another live bill of the business has is refused 422
 * BILL_PAY_DUPLICATE_INVOICE naming that bill, unless `confirm_duplicate: true`; the confirmed
 * bill carries `duplicate_of` with who confirmed. Canceled and deleted bills, another vendor's
 * and another business's do not count. The race is bill-duplicates.pg.test.ts.
 */
const BILLS = '/v1/auth/bill-pay';

describe.each(await testDatabases())('duplicate invoices on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.parse('2026-11-20T12:00:00Z') });
  let a: Fixture;
  let admin: string;
  let bookkeeper: string;
  let vendor: string;
  let otherVendor: string;

  const body = (over: Record<string, unknown> = {}) => ({
    vendor_id: vendor, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30',
    currency: 'USD', line_items: [{ description: 'Paper', amount: 15_050 }], ...over,
  });
  const post = (over: Record<string, unknown>, token = admin) => request(t.app, 'POST', BILLS, { token, body: body(over) });
  const create = async (over: Record<string, unknown> = {}, token = admin) => {
    const res = await post(over, token);
    expect(res.status, res.text).toBe(200);
    return billSchema.parse(res.body);
  };
  const patch = (id: string, p: Record<string, unknown>) => request(t.app, 'PATCH', `${BILLS}/${id}`, { token: admin, body: p });

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    admin = await signIn(t.app, a.email('admin'));
    bookkeeper = await signIn(t.app, a.email('bookkeeper'));
    vendor = await makeVendor(t.app, admin, 'Acme Supply');
    otherVendor = await makeVendor(t.app, admin, 'Other Supply');
  });

  it('refuses a second bill of the invoice, naming the first (number, vendor, amount, status); normalized', async () => {
    const first = await create({ invoice_number: 'INV-0123', submit: true });
    for (const spelling of ['INV-0123', ' inv 123 ', 'INV/123', 'Inv.0123']) {
      const res = await post({ invoice_number: spelling });
      expect(refusal(res), spelling).toEqual([422, 'BILL_PAY_DUPLICATE_INVOICE']);
      expect(res.body.error_v2.message).toBe(
        'Invoice INV-0123 from Acme Supply is already on a bill for $150.50 (awaiting approval). Check it is not the same invoice ' +
        'entered twice, or the vendor may be paid twice; to save this bill anyway, confirm the duplicate.',
      );
      expect(res.body.error_v2.errors.invoice_number).toBe(res.body.error_v2.message);
    }
    // Another number, another vendor: no duplicate.
    expect((await create({ invoice_number: 'INV-1230' })).duplicate_of).toBeNull();
    expect((await create({ invoice_number: 'INV-0123', vendor_id: otherVendor })).duplicate_of).toBeNull();
    // Nothing was written by the refusals.
    const rows = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM bills WHERE vendor_id = $1 AND invoice_key = 'INV123'`, [vendor]);
    expect(rows[0]!.n).toBe(1);
    expect(first.duplicate_of).toBeNull();
  });

  it('accepts it with confirm_duplicate and records the other bill and who confirmed', async () => {
    const first = await create({ invoice_number: 'CONF-7' });
    const second = await create({ invoice_number: 'conf 007', confirm_duplicate: true, submit: true }, bookkeeper);
    expect(second.status).toBe('PENDING_APPROVAL');
    expect(second.duplicate_of).toEqual({
      id: first.id, invoice_number: 'CONF-7', vendor_id: vendor, amount: 15_050, currency: 'USD', status: 'DRAFT',
      confirmed_by: a.users.bookkeeper, confirmed_at: '2026-11-20T12:00:00.000Z',
    });
    // The mark travels in the bill's doc: the read and the change feed build it the same way.
    const got = await request(t.app, 'GET', `${BILLS}/${second.id}`, { token: admin });
    expect(got.body.duplicate_of).toEqual(second.duplicate_of);
    // A third names the oldest and says how many more there are.
    const third = await post({ invoice_number: 'CONF-7' });
    expect(third.body.error_v2.message).toMatch(/^Invoice CONF-7 from Acme Supply is already on a bill for \$150\.50 \(a draft\), and on 1 more bill\./);
    // confirm_duplicate without a duplicate marks nothing.
    expect((await create({ confirm_duplicate: true })).duplicate_of).toBeNull();
  });

  it('does not count canceled or deleted bills, nor another business’s', async () => {
    const canceled = await create({ invoice_number: 'GONE-1' });
    await t.db.query(`UPDATE bills SET status = 'CANCELED' WHERE id = $1`, [canceled.id]);
    expect((await create({ invoice_number: 'GONE-1' })).duplicate_of).toBeNull();
    const draft = await create({ invoice_number: 'GONE-2' });
    expect((await request(t.app, 'DELETE', `${BILLS}/${draft.id}`, { token: admin })).status).toBe(200);
    expect((await create({ invoice_number: 'GONE-2' })).duplicate_of).toBeNull();
    // Rejected bills are live (REJECTED → PENDING_APPROVAL): they count.
    const rejected = await create({ invoice_number: 'REJ-1' });
    await t.db.query(`UPDATE bills SET status = 'REJECTED' WHERE id = $1`, [rejected.id]);
    expect(refusal(await post({ invoice_number: 'REJ-1' }))).toEqual([422, 'BILL_PAY_DUPLICATE_INVOICE']);
    // Another business with the same invoice number (its own vendor of the same name).
    const b = await makeBusiness(t.db, { transactions: 0 });
    const bAdmin = await signIn(t.app, b.email('admin'));
    const bVendor = await makeVendor(t.app, bAdmin, 'Acme Supply');
    expect((await create({ invoice_number: 'SHARED-1', vendor_id: bVendor }, bAdmin)).duplicate_of).toBeNull();
    expect((await create({ invoice_number: 'SHARED-1' })).duplicate_of).toBeNull();
  });

  it('checks a draft’s new invoice number and its submit; a confirmation stands until the number changes', async () => {
    const original = await create({ invoice_number: 'SUB-1' });
    const draft = await create({ invoice_number: 'SUB-2' });
    expect(refusal(await patch(draft.id, { invoice_number: 'sub-01' }))).toEqual([422, 'BILL_PAY_DUPLICATE_INVOICE']);
    expect(refusal(await patch(draft.id, { invoice_number: 'sub-01', submit: true }))).toEqual([422, 'BILL_PAY_DUPLICATE_INVOICE']);
    const confirmed = await patch(draft.id, { invoice_number: 'sub-01', confirm_duplicate: true });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.duplicate_of).toMatchObject({ id: original.id, confirmed_by: a.users.admin });
    // Submitting the confirmed bill asks nothing again, nor does submitting the original of the pair.
    const submitted = await patch(draft.id, { submit: true });
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body.duplicate_of).toMatchObject({ id: original.id });
    expect((await patch(original.id, { submit: true })).status).toBe(200);

    // A duplicate saved before the check existed (no confirmation): its submit is refused until confirmed.
    const legacy = await create({ invoice_number: 'SUB-3' });
    await t.db.query(`UPDATE bills SET invoice_number = 'SUB-1', duplicate_of = $2 WHERE id = $1`, [legacy.id, original.id]);
    expect(refusal(await patch(legacy.id, { memo: 'only a memo' }))[0]).toBe(200);
    expect(refusal(await patch(legacy.id, { submit: true }))).toEqual([422, 'BILL_PAY_DUPLICATE_INVOICE']);
    const ok = await patch(legacy.id, { submit: true, confirm_duplicate: true });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.duplicate_of).toMatchObject({ id: original.id, confirmed_by: a.users.admin });
    // A new number voids the confirmation: no duplicate any more.
    const moved = await create({ invoice_number: 'SUB-4' });
    await t.db.query(`UPDATE bills SET status = 'REJECTED' WHERE id = $1`, [ok.body.id]);
    const renumbered = await patch(ok.body.id, { invoice_number: 'SUB-5' });
    expect(renumbered.status, renumbered.text).toBe(200);
    expect(renumbered.body.duplicate_of).toBeNull();
    expect(moved.duplicate_of).toBeNull();
  });
});
