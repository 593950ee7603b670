import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { receiptSchema } from '../../schema/api/calls-receipts.ts';
import { provisionalBillSchema } from '../../schema/entities/provisional-bill.ts';
import type { RecurringBillTemplate } from '../../schema/entities/recurring-bill.ts';
import type { VendorCredit } from '../../schema/entities/vendor-credit.ts';
import { generateRecurringBills } from '../domain/recurring-bills.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';

/**
 * Issue 11: a payee merge moves every record naming a merged payee to the survivor, not only its
 * bills: vendor credits (with what is already applied, so the survivor's next bill draws on what
 * remains, never more), recurring bill templates (the job then bills the survivor, not a
 * tombstone), bill templates and provisional bills (stamped with a new seq, so the mirror sees
 * the new vendor). Another vendor's records stay where they are.
 */
const BILLS = '/v1/auth/bill-pay';
const NOW = Date.parse('2026-11-20T12:00:00Z');

describe.each(await testDatabases())('vendor merge moves credits and templates on %s', (kind) => {
  const t = useTestApp(kind, { now: () => NOW });
  let a: Fixture;
  let admin: string;

  const post = async (path: string, body: unknown, status = 201) => {
    const res = await request(t.app, 'POST', path, { token: admin, body });
    expect(res.status, res.text).toBe(status);
    return res.body;
  };
  const vendor = async (name: string) => (await post('/v1/auth/vendors', { name })).id as string;
  const bill = (vendorId: string, lines: unknown[]) => request(t.app, 'POST', BILLS, {
    token: admin,
    body: { vendor_id: vendorId, invoice_number: `INV-${randomBytes(4).toString('hex')}`, invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD', line_items: lines },
  });
  const credits = async (vendorId: string) =>
    (await request(t.app, 'GET', `${BILLS}/vendor-credits?vendor_id=${vendorId}`, { token: admin })).body.data as VendorCredit[];
  const namingVendor = async (vendorId: string) => {
    const counts = await t.db.query<{ tbl: string; n: number }>(
      `SELECT 'vendor_credits' AS tbl, count(*)::int AS n FROM vendor_credits WHERE vendor_id = $1
       UNION ALL SELECT 'recurring_bill_templates', count(*)::int FROM recurring_bill_templates WHERE vendor_id = $1
       UNION ALL SELECT 'bill_templates', count(*)::int FROM bill_templates WHERE vendor_id = $1
       UNION ALL SELECT 'provisional_bills', count(*)::int FROM provisional_bills WHERE vendor_id = $1
       UNION ALL SELECT 'bills', count(*)::int FROM bills WHERE vendor_id = $1`,
      [vendorId],
    );
    return Object.fromEntries(counts.map((c) => [c.tbl, Number(c.n)]));
  };

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    admin = await signIn(t.app, a.email('admin'));
  });

  it('moves the merged payee\'s credits (applied part included), recurring bills, bill templates and provisional bills', async () => {
    const survivor = await vendor('Northwind Traders');
    const merged = await vendor('Northwind Traders Inc');
    const bystander = await vendor('Contoso Supplies');

    // The merged payee's credit, 40.00 of it applied to one of its bills; a bystander's credit.
    const credit = await post(`${BILLS}/vendor-credits`, { vendor_id: merged, currency: 'USD', amount: 10_000, credit_note_number: 'CN-1', credit_date: '2026-11-01' });
    const applied = await bill(merged, [{ description: 'Pallets', amount: 50_000 }, { description: 'Credit', amount: -4_000, vendor_credit_id: credit.id }]);
    expect(applied.status, applied.text).toBe(200);
    const kept = await post(`${BILLS}/vendor-credits`, { vendor_id: bystander, currency: 'USD', amount: 2_000, credit_note_number: 'CN-9', credit_date: '2026-11-01' });

    const recurring = await post(`${BILLS}/recurring-bills`, {
      vendor_id: merged, currency: 'USD', line_items: [{ description: 'Storage', amount: 30_000 }], interval: 'MONTHLY',
      start_date: '2026-11-25', invoice_number_pattern: 'NW-{YYYY}-{MM}', days_until_due: 10,
    }) as RecurringBillTemplate;
    const template = await post(`${BILLS}/bill-templates`, { name: 'Northwind pallets', vendor_id: merged, currency: 'USD', line_items: [{ description: 'Pallets', amount: 20_000 }] });
    const upload = await t.app.request('/v1/auth/receipts', {
      method: 'POST', headers: { 'RAMP-ID-TOKEN': admin, 'content-type': 'application/pdf' },
      body: Uint8Array.from([...Buffer.from('%PDF-1.7\n'), ...randomBytes(300)]),
    });
    expect(upload.status).toBe(201);
    const file = receiptSchema.parse(await upload.json());
    const provisional = provisionalBillSchema.parse(await post(`${BILLS}/provisional-bills`, { invoice_file_id: file.id, vendor_id: merged }));

    const res = await request(t.app, 'POST', '/v1/auth/vendors/merge-payees', { token: admin, body: { survivor_payee_id: survivor, merged_payee_ids: [merged] } });
    expect(res.status, res.text).toBe(200);

    // Nothing names the tombstone any more; the bystander keeps its credit.
    expect(await namingVendor(merged)).toEqual({ vendor_credits: 0, recurring_bill_templates: 0, bill_templates: 0, provisional_bills: 0, bills: 0 });
    expect(await namingVendor(survivor)).toEqual({ vendor_credits: 1, recurring_bill_templates: 1, bill_templates: 1, provisional_bills: 1, bills: 1 });
    expect((await credits(bystander)).map((c) => c.id)).toEqual([kept.id]);

    // The credit is the survivor's with what was applied; its next bill draws on the rest, never more.
    expect(await credits(survivor)).toEqual([expect.objectContaining({ id: credit.id, vendor_id: survivor, applied: 4_000, remaining: 6_000 })]);
    const over = await bill(survivor, [{ description: 'Crates', amount: 50_000 }, { description: 'Credit', amount: -7_000, vendor_credit_id: credit.id }]);
    expect([over.status, over.body.error_v2?.error_code]).toEqual([422, 'REQUEST_7001']);
    const rest = await bill(survivor, [{ description: 'Crates', amount: 50_000 }, { description: 'Credit', amount: -6_000, vendor_credit_id: credit.id }]);
    expect(rest.status, rest.text).toBe(200);
    expect(await credits(survivor)).toEqual([expect.objectContaining({ id: credit.id, applied: 10_000, remaining: 0 })]);

    // The templates name the survivor; the recurring job bills it (not the tombstone, which it would refuse).
    const listed = (await request(t.app, 'GET', `${BILLS}/recurring-bills`, { token: admin })).body.data as RecurringBillTemplate[];
    expect(listed.find((r) => r.id === recurring.id)?.vendor_id).toBe(survivor);
    const templates = (await request(t.app, 'GET', `${BILLS}/bill-templates`, { token: admin })).body.data as { id: string; vendor_id: string }[];
    expect(templates.find((x) => x.id === template.id)?.vendor_id).toBe(survivor);
    const run = await generateRecurringBills(t.db, new Date('2026-11-26T00:00:00Z'));
    expect(run.failed.filter((f) => f.template_id === recurring.id)).toEqual([]);
    const made = run.generated.filter((g) => g.template_id === recurring.id);
    expect(made).toHaveLength(1);
    const [generated] = await t.db.query<{ vendor_id: string }>('SELECT vendor_id::text FROM bills WHERE id = $1', [made[0]!.bill_id]);
    expect(generated!.vendor_id).toBe(survivor);

    // The provisional bill (mirrored) carries a new seq with the survivor.
    const [moved] = await t.db.query<{ vendor_id: string; change_seq: string }>(
      'SELECT vendor_id::text, change_seq::text FROM provisional_bills WHERE id = $1', [provisional.id],
    );
    expect(moved!.vendor_id).toBe(survivor);
    expect(Number(moved!.change_seq)).toBeGreaterThan(provisional.change_seq);
  });

  it('refuses to move a bill exported to accounting, and moves nothing, until it is marked not synced', async () => {
    const survivor = await vendor('Fabrikam Tools');
    const merged = await vendor('Fabrikam Tools Ltd');
    const exported = await bill(merged, [{ description: 'Drill bits', amount: 12_000 }]);
    const other = await bill(merged, [{ description: 'Saw blades', amount: 8_000 }]);
    expect(exported.status, exported.text).toBe(200);
    expect(other.status, other.text).toBe(200);
    await t.db.query('UPDATE bills SET accounting_synced_at = now() WHERE id = $1', [exported.body.id]);
    const merge = () => request(t.app, 'POST', '/v1/auth/vendors/merge-payees', { token: admin, body: { survivor_payee_id: survivor, merged_payee_ids: [merged] } });

    const refused = await merge();
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error_v2.error_code).toBe('ACCOUNTING_7301');
    expect(refused.body.error_v2.message).toBe(
      'A bill of the merged vendor was exported to your accounting system. Mark it as not synced before merging, so your books and Ledgerline name the same vendor.',
    );
    // Nothing half-applied: both bills and the payee are where they were.
    expect(await namingVendor(merged)).toMatchObject({ bills: 2 });
    const [row] = await t.db.query<{ deleted: boolean }>('SELECT deleted FROM vendors WHERE id = $1', [merged]);
    expect(row!.deleted).toBe(false);

    await t.db.query('UPDATE bills SET accounting_synced_at = NULL WHERE id = $1', [exported.body.id]);
    const done = await merge();
    expect(done.status, done.text).toBe(200);
    expect(await namingVendor(survivor)).toMatchObject({ bills: 2 });
  });
});
