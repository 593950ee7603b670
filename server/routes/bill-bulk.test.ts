import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { bulkBillResponseSchema, remindResponseSchema } from '../../schema/api/calls-bill-bulk.ts';
import { formatMoney } from '../../schema/money.ts';
import { billSchema, type Bill, type BillStatus } from '../../schema/entities/bill.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { storeBankAccount } from '../domain/vendors.ts';
import { makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';

/**
 * §7 bill bulk actions (issue 11) through the API: each action's success, its per-bill refusals
 * naming the status (the others still change), 51 bills refused whole, another business's bill
 * "not found" in its place, a refused bill left untouched, the shared value checked once, and
 * §6 (bill managers only). Bills are put in a status directly where no call reaches it yet.
 */
const BILLS = '/v1/auth/bill-pay';
const BULK = `${BILLS}/bulk-actions`;
const NOW = '2026-11-20T12:00:00Z';

type Result = { id: string; ok: boolean; bill?: Bill; error_v2?: { error_code: string; message: string } };

describe.each(await testDatabases())('bill bulk actions on %s', (kind) => {
  let clock = Date.parse(NOW);
  const t = useTestApp(kind, { now: () => clock, devOutbox: true });
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let vendor: string;
  let foreignBill: string;
  let entity: string;

  const create = async (over: Record<string, unknown> = {}, token = tokens.admin): Promise<Bill> => {
    const res = await request(t.app, 'POST', BILLS, {
      token,
      body: {
        vendor_id: over.vendor_id ?? vendor, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30',
        currency: 'USD', line_items: [{ description: 'Service', amount: 4_000 }], ...over,
      },
    });
    expect(res.status, res.text).toBe(200);
    return billSchema.parse(res.body);
  };
  const inStatus = async (status: BillStatus, over: Record<string, unknown> = {}) => {
    const bill = await create(over);
    if (status !== 'DRAFT') await t.db.query('UPDATE bills SET status = $2 WHERE id = $1', [bill.id, status]);
    return bill.id;
  };
  const act = async (method: string, name: string, body: Record<string, unknown>, role: FixtureRole = 'admin') =>
    request(t.app, method, `${BULK}/${name}`, { token: tokens[role], body });
  /** The call answers 200 with one result per bill in the order asked. */
  const results = async (method: string, name: string, body: Record<string, unknown>): Promise<Result[]> => {
    const res = await act(method, name, body);
    expect(res.status, res.text).toBe(200);
    return bulkBillResponseSchema.parse(res.body).results as Result[];
  };
  const statusOf = async (id: string) => (await t.db.query<{ status: string }>('SELECT status FROM bills WHERE id = $1', [id]))[0]!.status;

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    await t.db.query(`UPDATE spend_users SET user_permissions = '["AP_ACCESS"]' WHERE id = $1`, [a.users.teammate]);
    for (const role of ['admin', 'bookkeeper', 'manager', 'employee', 'teammate'] as const) tokens[role] = await signIn(t.app, a.email(role));
    const v = await request(t.app, 'POST', '/v1/auth/vendors', { token: tokens.admin, body: { name: 'Bulk Co' } });
    vendor = v.body.id;
    await storeBankAccount(t.db, vendor, { routing_number: '021000021', account_number: '4401927731', account_type: 'CHECKING' });
    const bOwner = await signIn(t.app, b.email('owner'));
    const bv = await request(t.app, 'POST', '/v1/auth/vendors', { token: bOwner, body: { name: 'Foreign Co' } });
    foreignBill = (await create({ vendor_id: bv.body.id }, bOwner)).id;
    entity = randomUUID();
    await t.db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
       INSERT INTO business_entities (id, business_id, name, country, currency, change_seq) SELECT $1::uuid, $2::uuid, 'Sub', 'US', 'USD', change_seq FROM seq`,
      [entity, a.businessId],
    );
  });

  /**
   * Each action: a bill it changes (from `from`), one it refuses (`refused`, whose message names
   * its status), and another business's bill, in one request. `check` reads the changed bill.
   */
  const CASES: {
    name: string; method: 'PATCH' | 'POST'; from: BillStatus; refused: BillStatus; body: (ids: string[]) => Record<string, unknown>;
    check: (bill: Bill) => void;
  }[] = [
    { name: 'due-date', method: 'PATCH', from: 'APPROVED', refused: 'PAID', body: (ids) => ({ bill_ids: ids, due_date: '2026-12-15' }),
      check: (x) => expect(x.due_date).toBe('2026-12-15') },
    { name: 'invoice-date', method: 'PATCH', from: 'DRAFT', refused: 'CANCELED', body: (ids) => ({ bill_ids: ids, invoice_date: '2026-10-28' }),
      check: (x) => expect(x.invoice_date).toBe('2026-10-28') },
    { name: 'entity', method: 'PATCH', from: 'APPROVED', refused: 'SCHEDULED', body: (ids) => ({ bill_ids: ids, entity_id: entity }),
      check: (x) => expect(x.entity_id).toBe(entity) },
    { name: 'memo', method: 'PATCH', from: 'RECONCILED', refused: 'CANCELED', body: (ids) => ({ bill_ids: ids, memo: 'Q4 services' }),
      check: (x) => expect(x.memo).toBe('Q4 services') },
    { name: 'payment-date', method: 'PATCH', from: 'APPROVED', refused: 'DRAFT', body: (ids) => ({ bill_ids: ids, payment_date: '2026-11-25' }),
      check: (x) => expect([x.status, x.payment_date]).toEqual(['SCHEDULED', '2026-11-25']) },
    { name: 'tracking-category', method: 'PATCH', from: 'PAID', refused: 'RECONCILED',
      body: (ids) => ({ bill_ids: ids, tracking_category_id: a.tracking[0]!.categoryId, option_id: a.tracking[0]!.options[1] }),
      check: (x) => expect(x.line_items[0]!.tracking).toEqual({ [a.tracking[0]!.categoryId]: a.tracking[0]!.options[1] }) },
    { name: 'cancel', method: 'POST', from: 'APPROVED', refused: 'PAID', body: (ids) => ({ bill_ids: ids }),
      check: (x) => expect(x.status).toBe('CANCELED') },
    { name: 'amount', method: 'POST', from: 'DRAFT', refused: 'APPROVED', body: (ids) => ({ bills: ids.map((bill_id) => ({ bill_id, amount: 7_500 })) }),
      check: (x) => expect([x.amount, x.line_items[0]!.amount]).toEqual([7_500, 7_500]) },
    { name: 'mark-bills-as-paid', method: 'POST', from: 'APPROVED', refused: 'DRAFT', body: (ids) => ({ bill_ids: ids, payment_date: '2026-11-19' }),
      check: (x) => expect([x.status, x.paid_manually, x.payment_date]).toEqual(['PAID', true, '2026-11-19']) },
    { name: 'mark-bills-as-reconciled', method: 'POST', from: 'PAID', refused: 'APPROVED', body: (ids) => ({ bill_ids: ids }),
      check: (x) => expect([x.status, x.reconciled_at]).toEqual(['RECONCILED', NOW.replace('Z', '.000Z')]) },
    { name: 'retry-payment', method: 'POST', from: 'PAYMENT_FAILED', refused: 'PAID', body: (ids) => ({ bill_ids: ids }),
      // Sent again (issue 25): SCHEDULED with a PENDING attempt until it settles.
      check: (x) => expect([x.status, x.payment_attempt, x.paid_manually]).toEqual(['SCHEDULED', 1, false]) },
  ];

  it.each(CASES.map((c) => [c.name, c] as const))('%s: changes what it may, refuses the others in their place', async (_n, c) => {
    const good = await inStatus(c.from);
    const bad = await inStatus(c.refused);
    const before = await statusOf(bad);
    const res = await results(c.method, c.name, c.body([good, bad, foreignBill]));
    expect(res.map((r) => r.id)).toEqual([good, bad, foreignBill]);
    expect(res[0]!.ok, JSON.stringify(res[0])).toBe(true);
    c.check(res[0]!.bill!);
    expect(billSchema.parse((await request(t.app, 'GET', `${BILLS}/${good}`, { token: tokens.admin })).body)).toEqual(res[0]!.bill);
    expect(res[1]).toMatchObject({ ok: false, error_v2: { error_code: 'REQUEST_7001' } });
    expect(res[1]!.error_v2!.message).toContain(`(status ${c.refused})`);
    expect(await statusOf(bad)).toBe(before);
    expect(res[2]).toMatchObject({ ok: false, error_v2: { error_code: 'REQUEST_7004' } });
    expect(await statusOf(foreignBill)).toBe('DRAFT');
  });

  it('refuses, per bill, the bulk actions that change what a sync commit exported (dates, tracking, amount); memo and status moves go on', async () => {
    const synced = '2026-11-19T09:30:00Z';
    const message = 'This bill was exported to your accounting system on 2026-11-19. ' +
      'Mark it as not synced to change its vendor, invoice number, dates, amounts or coding.';
    const rowOf = async (id: string) => (await t.db.query<{ doc: string }>(
      `SELECT row_to_json(b)::text || (SELECT coalesce(json_agg(l ORDER BY l.position), '[]')::text FROM bill_line_items l WHERE l.bill_id = b.id) AS doc
         FROM bills b WHERE b.id = $1`, [id]))[0]!.doc;
    const refusing = [
      ['PATCH', 'due-date', 'APPROVED', (ids: string[]) => ({ bill_ids: ids, due_date: '2026-12-15' })],
      ['PATCH', 'invoice-date', 'APPROVED', (ids: string[]) => ({ bill_ids: ids, invoice_date: '2026-10-28' })],
      ['PATCH', 'tracking-category', 'PAID',
        (ids: string[]) => ({ bill_ids: ids, tracking_category_id: a.tracking[0]!.categoryId, option_id: a.tracking[0]!.options[1] })],
      ['POST', 'amount', 'APPROVED', (ids: string[]) => ({ bills: ids.map((bill_id) => ({ bill_id, amount: 7_500 })) })],
    ] as const;
    for (const [method, name, status, body] of refusing) {
      const locked = await inStatus(status);
      await t.db.query('UPDATE bills SET accounting_synced_at = $2 WHERE id = $1', [locked, synced]);
      const open = await inStatus(status === 'APPROVED' && name === 'amount' ? 'DRAFT' : status);
      const before = await rowOf(locked);
      const res = await results(method, name, body([locked, open]));
      expect(res[0], name).toMatchObject({ id: locked, ok: false, error_v2: { error_code: 'ACCOUNTING_7301', message } });
      expect(res[1]!.ok, `${name}: ${JSON.stringify(res[1])}`).toBe(true);
      expect(await rowOf(locked), name).toBe(before);
    }
    const paidLater = await inStatus('APPROVED');
    await t.db.query('UPDATE bills SET accounting_synced_at = $2 WHERE id = $1', [paidLater, synced]);
    expect((await results('PATCH', 'memo', { bill_ids: [paidLater], memo: 'Wire ref 42' }))[0]).toMatchObject({ ok: true, bill: { memo: 'Wire ref 42' } });
    expect((await results('POST', 'mark-bills-as-paid', { bill_ids: [paidLater], payment_date: '2026-11-19' }))[0]).toMatchObject({ ok: true, bill: { status: 'PAID' } });
    expect((await results('POST', 'mark-bills-as-reconciled', { bill_ids: [paidLater] }))[0]).toMatchObject({ ok: true, bill: { status: 'RECONCILED' } });
  });

  it('every action refuses 51 bills, a repeated bill and an empty list, before changing any', async () => {
    const ids = await Promise.all(Array.from({ length: 51 }, () => inStatus('APPROVED')));
    const one = ids[0]!;
    for (const c of [...CASES, { name: 'retry-accounting-sync', method: 'POST' as const, body: (x: string[]) => ({ bill_ids: x }) },
      { name: 'remind-next-approvers', method: 'POST' as const, body: (x: string[]) => ({ bill_ids: x }) }]) {
      const many = await act(c.method, c.name, c.body(ids));
      expect([many.status, many.body.error_v2?.error_code], `${c.name}: ${many.text}`).toEqual([422, 'REQUEST_7001']);
      expect(many.body.error_v2.message).toBe('You can act on at most 50 bills at a time; 51 were chosen.');
      const twice = await act(c.method, c.name, c.body([one, one]));
      expect(twice.status, `${c.name}: ${twice.text}`).toBe(422);
      const none = await act(c.method, c.name, c.body([]));
      expect(none.status, `${c.name}: ${none.text}`).toBe(422);
    }
    expect(await statusOf(one)).toBe('APPROVED');
  });

  it('reads the business\'s bulk_bill_creation_limit (§3): over it the call is refused whole, naming the limit, pay-now too', async () => {
    const flags = (overrides: Record<string, unknown>) => request(t.app, 'PUT', '/v1/auth/feature_flags', { token: tokens.admin, body: { overrides } });
    expect((await flags({ bulk_bill_creation_limit: 3 })).status).toBe(200);
    try {
      const ids = await Promise.all(Array.from({ length: 4 }, () => inStatus('APPROVED')));
      for (const [method, path, body] of [
        ['PATCH', `${BULK}/memo`, { bill_ids: ids, memo: 'Q4' }],
        ['POST', `${BULK}/cancel`, { bill_ids: ids }],
        ['POST', `${BULK}/pay-now`, { bill_ids: ids }],
      ] as const) {
        const many = await request(t.app, method, path, { token: tokens.admin, body });
        expect([many.status, many.body.error_v2?.error_code, many.body.error_v2?.message], `${path}: ${many.text}`)
          .toEqual([422, 'REQUEST_7001', 'You can act on at most 3 bills at a time; 4 were chosen.']);
      }
      for (const id of ids) expect(await statusOf(id)).toBe('APPROVED');
      expect((await results('PATCH', 'memo', { bill_ids: ids.slice(0, 3), memo: 'Q4' })).map((r) => r.ok)).toEqual([true, true, true]);
    } finally {
      expect((await flags({})).status).toBe(200);
    }
  });

  it('checks the shared value once: dates, a past payment date, another business\'s entity or tracking category', async () => {
    const id = await inStatus('APPROVED');
    const code = (res: { status: number; body: { error_v2?: { error_code: string } } }) => [res.status, res.body.error_v2?.error_code];
    expect(code(await act('PATCH', 'due-date', { bill_ids: [id], due_date: '2026-02-30' }))).toEqual([422, 'REQUEST_7001']);
    expect(code(await act('PATCH', 'due-date', { bill_ids: [id], due_date: 'soon' }))).toEqual([422, 'REQUEST_7001']);
    const past = await act('PATCH', 'payment-date', { bill_ids: [id], payment_date: '2026-11-19' });
    expect(code(past)).toEqual([422, 'REQUEST_7001']);
    expect(past.text).toContain('cannot be in the past');
    expect(code(await act('PATCH', 'entity', { bill_ids: [id], entity_id: randomUUID() }))).toEqual([404, 'REQUEST_7004']);
    const foreignCategory = { bill_ids: [id], tracking_category_id: b.tracking[0]!.categoryId, option_id: b.tracking[0]!.options[0] };
    expect(code(await act('PATCH', 'tracking-category', foreignCategory))).toEqual([404, 'REQUEST_7004']);
    const wrongOption = { bill_ids: [id], tracking_category_id: a.tracking[0]!.categoryId, option_id: randomUUID() };
    expect(code(await act('PATCH', 'tracking-category', wrongOption))).toEqual([422, 'REQUEST_7001']);
    expect(code(await act('POST', 'amount', { bills: [{ bill_id: id, amount: 0 }] }))).toEqual([422, 'REQUEST_7001']);
    expect(code(await act('PATCH', 'memo', { bill_ids: [id], memo: 'x', extra: 1 }))).toEqual([422, 'REQUEST_7001']);
    expect(await statusOf(id)).toBe('APPROVED');
  });

  it('per bill: a due date before the invoice date, and a new amount on a bill of several lines, are that bill\'s refusals', async () => {
    const ok = await inStatus('DRAFT');
    const early = await inStatus('DRAFT', { invoice_date: '2026-11-10', due_date: '2026-11-30' });
    const dates = await results('PATCH', 'due-date', { bill_ids: [ok, early], due_date: '2026-11-05' });
    expect(dates[0]!.ok).toBe(true);
    expect(dates[1]!.error_v2!.message).toBe('The due date cannot be before the invoice date.');
    const lines = await inStatus('DRAFT', { line_items: [{ description: 'a', amount: 100 }, { description: 'b', amount: 200 }] });
    const amounts = await results('POST', 'amount', { bills: [{ bill_id: lines, amount: 500 }] });
    expect(amounts[0]!.error_v2!.message).toContain('2 lines');
    expect((await t.db.query<{ amount: number }>('SELECT amount FROM bills WHERE id = $1', [lines]))[0]!.amount).toBe(300);
  });

  it('tracking-category with a null option takes the category off every line', async () => {
    const id = await inStatus('APPROVED', { line_items: [{ description: 'a', amount: 100 }, { description: 'b', amount: 200 }] });
    const category = a.tracking[0]!.categoryId;
    await results('PATCH', 'tracking-category', { bill_ids: [id], tracking_category_id: category, option_id: a.tracking[0]!.options[0] });
    const cleared = await results('PATCH', 'tracking-category', { bill_ids: [id], tracking_category_id: category, option_id: null });
    expect(cleared[0]!.bill!.line_items.map((l) => l.tracking)).toEqual([{}, {}]);
  });

  it('retry-payment makes a new attempt with a new key after the failed one', async () => {
    const id = await inStatus('PAYMENT_FAILED');
    await t.db.query('UPDATE bills SET payment_attempt = 1, payment_failure_reason = $2 WHERE id = $1', [id, 'Account closed']);
    await t.db.query(
      `INSERT INTO bill_payments (id, business_id, bill_id, attempt, payment_key, amount, currency, status, created_by)
       VALUES ($1, $2, $3, 1, $4, 4000, 'USD', 'FAILED', $5)`,
      [randomUUID(), a.businessId, id, `bill-payment:${id}:1`, a.users.admin],
    );
    const [r] = await results('POST', 'retry-payment', { bill_ids: [id] });
    expect(r!.bill).toMatchObject({ status: 'SCHEDULED', payment_attempt: 2, payment_failure_reason: null });
    const rows = await t.db.query<{ attempt: number; status: string }>('SELECT attempt, status FROM bill_payments WHERE bill_id = $1 ORDER BY attempt', [id]);
    expect(rows).toEqual([{ attempt: 1, status: 'FAILED' }, { attempt: 2, status: 'PENDING' }]);
  });

  it('a bill with a payment in flight (a PENDING attempt) is neither canceled nor rescheduled', async () => {
    const id = await inStatus('SCHEDULED');
    await t.db.query(
      `INSERT INTO bill_payments (id, business_id, bill_id, attempt, payment_key, amount, currency, status, created_by, settles_on)
       VALUES ($1, $2, $3, 1, $4, 4000, 'USD', 'PENDING', $5, '2026-11-24')`,
      [randomUUID(), a.businessId, id, `bill-payment:${id}:1`, a.users.admin],
    );
    for (const [method, name, extra] of [['POST', 'cancel', {}], ['PATCH', 'payment-date', { payment_date: '2026-11-30' }]] as const) {
      const [r] = await results(method, name, { bill_ids: [id], ...extra });
      expect(r!.error_v2!.message).toContain('payment in flight');
    }
    expect(await statusOf(id)).toBe('SCHEDULED');
  });

  it('retry-accounting-sync never pretends: with no provider connected every bill is refused saying so or naming its status', async () => {
    const approved = await inStatus('APPROVED');
    const draft = await inStatus('DRAFT');
    const res = await results('POST', 'retry-accounting-sync', { bill_ids: [approved, draft, foreignBill] });
    expect(res.map((r) => r.ok)).toEqual([false, false, false]);
    expect(res[0]!.error_v2).toMatchObject({ error_code: 'ACCOUNTING_7304' });
    expect(res[0]!.error_v2!.message).toContain('No accounting provider is connected');
    expect(res[1]!.error_v2!.message).toContain('(status DRAFT)');
    expect(res[2]!.error_v2!.error_code).toBe('REQUEST_7004');
  });

  it('remind-next-approvers mails the open step\'s approvers once an hour, and refuses bills not awaiting approval', async () => {
    await request(t.app, 'PATCH', '/v1/auth/approval_policy/bill', {
      token: tokens.admin, body: { steps: [{ condition: null, approvers: { kind: 'group', user_ids: [a.users.employee, a.users.manager], mode: 'all' } }] },
    });
    const pending = await create({ submit: true });
    const draft = await inStatus('DRAFT');
    const remind = async () => {
      const res = await act('POST', 'remind-next-approvers', { bill_ids: [pending.id, draft, foreignBill] });
      expect(res.status, res.text).toBe(200);
      return remindResponseSchema.parse(res.body).results;
    };
    const first = await remind();
    expect(first[0]).toMatchObject({ ok: true, bill: { id: pending.id, status: 'PENDING_APPROVAL' } });
    expect([...first[0]!.reminded_user_ids!].sort()).toEqual([a.users.employee, a.users.manager].sort());
    expect(first[1]!.error_v2!.message).toContain('(status DRAFT)');
    expect(first[2]!.error_v2!.error_code).toBe('REQUEST_7004');
    const mail = await t.db.query<{ recipient: string; body: string }>(`SELECT recipient, body FROM dev_outbox WHERE subject LIKE $1`, [`%${pending.invoice_number}%`]);
    expect(mail.map((m) => m.recipient).sort()).toEqual([a.email('employee'), a.email('manager')].sort());
    const [vendor] = await t.db.query<{ name: string }>('SELECT name FROM vendors WHERE id = $1', [pending.vendor_id]);
    const due = new Date(pending.due_date).toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });
    const [open] = await t.db.query<{ id: string }>('SELECT id::text FROM approvals WHERE object_id = $1 AND status = $2', [pending.id, 'PENDING']);
    expect(mail[0]!.body).toContain(`${vendor!.name}, invoice ${pending.invoice_number}\n${formatMoney(pending.amount, pending.currency)}, due ${due}`);
    expect(mail[0]!.body).toMatch(new RegExp(`Review it in Ledgerline: http://[^/]+/approvals\\?type=bills&open=${open!.id}\n`));

    // Again within the hour: refused, naming when; nothing mailed.
    clock += 30 * 60_000;
    const again = await remind();
    expect(again[0]).toMatchObject({ ok: false, error_v2: { error_code: 'REQUEST_7001' } });
    expect(again[0]!.error_v2!.message).toContain('after 13:00 UTC');
    // One approver approves (an "all" step still waits for the other): only they are left to remind, after the hour.
    const [approval] = (await request(t.app, 'GET', `/v1/auth/approvals?status=PENDING&object_ids=${pending.id}`, { token: tokens.employee })).body.data;
    expect((await request(t.app, 'POST', `/v1/auth/approvals/${approval.id}/approve`, { token: tokens.employee })).status).toBe(200);
    clock += 31 * 60_000;
    const later = await remind();
    expect(later[0]!.reminded_user_ids).toEqual([a.users.manager]);
    const count = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM approval_reminders WHERE approver_id = $1', [a.users.manager]);
    expect(Number(count[0]!.n)).toBe(2);
    clock = Date.parse(NOW);
  });

  it('§6: only bill managers (an AP clerk may), 403 before any lookup', async () => {
    const id = await inStatus('APPROVED');
    for (const role of ['manager', 'employee'] as const) {
      const res = await act('PATCH', 'memo', { bill_ids: [id], memo: 'x' }, role);
      expect(res.status, res.text).toBe(403);
    }
    const clerk = await act('PATCH', 'memo', { bill_ids: [id], memo: 'by the clerk' }, 'teammate');
    expect(clerk.status, clerk.text).toBe(200);
    expect(clerk.body.results[0].bill.memo).toBe('by the clerk');
  });
});
