import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountingCurrentSchema, syncCommitSchema, type SyncCommit } from '../../schema/api/calls-accounting.ts';
import { mappingRuleSchema } from '../../schema/mapping-rules.ts';
import { toMinorUnits } from '../../schema/money.ts';
import { transactionSchema } from '../../schema/entities/transaction.ts';
import { expectFileHeaders } from '../http/file-headers-test-kit.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';

/**
 * Accounting close (issue 12) through the API: providers, preferences, sync commits (what they
 * take, the files and their downloads, idempotency, nothing to sync), the synced refusal of
 * coding edits and "mark not synced", mapping rules and their bulk application, manual matches,
 * §6 (an employee is refused) and tenant isolation (another business's ids are 404).
 */
const ACC = '/v1/auth/accounting';
const NOW = '2026-11-27T04:00:00Z';

describe.each(await testDatabases())('accounting on %s', (kind) => {
  const clock = Date.parse(NOW);
  const t = useTestApp(kind, { now: () => clock });
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let bAdmin: string;
  let vendor: string;
  let bill: string;
  let claim: string;

  const call = (method: string, path: string, body?: unknown, token = tokens.admin, headers?: Record<string, string>) =>
    request(t.app, method, path, { token, ...(body !== undefined && { body }), ...(headers && { headers }) });
  const code = (id: string, patch: Record<string, unknown>, token = tokens.admin) => call('PATCH', `/v1/auth/transactions/${id}`, patch, token);
  const syncedAt = async (table: string, id: string) =>
    (await t.db.query<{ at: string | null }>(`SELECT ll_iso(accounting_synced_at) AS at FROM ${table} WHERE id = $1`, [id]))[0]!.at;

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 30 });
    b = await makeBusiness(t.db, { transactions: 5 });
    for (const role of ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'auditor'] as const) tokens[role] = await signIn(t.app, a.email(role));
    bAdmin = await signIn(t.app, b.email('admin'));
    const v = await call('POST', '/v1/auth/vendors', { name: 'Acme Supplies' });
    expect(v.status, v.text).toBe(201);
    vendor = v.body.id;
    const created = await call('POST', '/v1/auth/bill-pay', {
      vendor_id: vendor, invoice_number: 'INV-1001', invoice_date: '2026-11-02', due_date: '2026-11-30', currency: 'USD',
      line_items: [{ description: 'Paper', amount: 6_000, gl_account_id: a.glAccounts.active[1] }, { description: 'Toner', amount: 1_500, gl_account_id: a.glAccounts.active[0] }],
    });
    expect(created.status, created.text).toBe(200);
    bill = created.body.id;
    await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [bill]);
    claim = randomUUID();
    await t.db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
       INSERT INTO reimbursements (id, business_id, user_id, type, status, merchant, amount, currency, transaction_date, gl_account_id, change_seq)
       SELECT $1, $2, $3, 'OUT_OF_POCKET', 'APPROVED', 'Taxi', 2345, 'USD', '2026-11-03', $4, change_seq FROM seq`,
      [claim, a.businessId, a.users.employee, a.glAccounts.active[0]],
    );
  });

  it('refuses everyone but admins, AP clerks and bookkeepers, before any lookup', async () => {
    for (const role of ['employee', 'manager', 'auditor'] as const) {
      for (const [method, path, body] of [
        ['GET', `${ACC}/current`], ['POST', `${ACC}/providers/csv/sync_commit`, {}], ['GET', `${ACC}/mapping_rules`],
        ['POST', `${ACC}/mark-not-synced`, { items: [{ type: 'transaction', id: a.allTransactions[0] }] }],
        ['GET', `${ACC}/sync_commits/${randomUUID()}/files/x.csv`],
      ] as const) {
        const res = await call(method, path, body, tokens[role]);
        expect(res.status, `${role} ${method} ${path}: ${res.text}`).toBe(403);
        expect(res.body.error_v2.error_code).toBe('FORBIDDEN_7003');
      }
    }
    expect((await call('GET', `${ACC}/current`, undefined, tokens.bookkeeper)).status).toBe(200);
  });

  it('connects, reports, switches and disconnects a provider; preferences are validated', async () => {
    const none = accountingCurrentSchema.parse((await call('GET', `${ACC}/current`)).body);
    expect(none).toMatchObject({ provider: null, last_commit: null, preferences: { xero_max_lines_per_file: 1000, iif_card_account: 'Corporate Card' } });
    expect((await call('POST', `${ACC}/providers/netsuite/connect`, {})).status).toBe(422);
    const off = await call('POST', `${ACC}/providers/xero_csv/disconnect`, {});
    expect(off.status).toBe(422);
    expect(off.body.error_v2).toMatchObject({ error_code: 'ACCOUNTING_7304' });
    const csv = await call('POST', `${ACC}/providers/csv/connect`, {});
    expect(csv.status, csv.text).toBe(200);
    expect(csv.body.provider).toMatchObject({ provider_type: 'csv', connected_by: a.users.admin });
    expect(csv.body.preferences.default_provider).toBe('csv');
    const qb = await call('POST', `${ACC}/providers/quickbooks_desktop/connect`, {});
    expect(qb.body.provider.provider_type).toBe('quickbooks_desktop');
    const wrong = await call('POST', `${ACC}/providers/csv/sync_commit`, {});
    expect(wrong.status).toBe(422);
    expect(wrong.body.error_v2.message).toBe('Connect CSV export first. QuickBooks Desktop is connected now.');

    expect((await call('PATCH', `${ACC}/preferences`, {})).status).toBe(422);
    expect((await call('PATCH', `${ACC}/preferences`, { iif_card_account: 'Amex\tCard' })).status).toBe(422);
    expect((await call('PATCH', `${ACC}/preferences`, { xero_max_lines_per_file: 5 })).status).toBe(422);
    expect((await call('PATCH', `${ACC}/preferences`, { xero_date_format: 'D/M/YY' })).status).toBe(422);
    const prefs = await call('PATCH', `${ACC}/preferences`, { iif_card_account: 'Amex Corporate' });
    expect(prefs.status, prefs.text).toBe(200);
    expect(prefs.body).toMatchObject({ iif_card_account: 'Amex Corporate', iif_ap_account: 'Accounts Payable', default_provider: 'csv' });
  });

  let first: SyncCommit;
  it('commits every coded, approved, unsynced item once, with an IIF file that balances', async () => {
    const [t1, t2, t3] = a.transactions.employee;
    for (const id of [t1!, t2!]) expect((await code(id, { gl_account_id: a.glAccounts.active[0] })).status).toBe(200);
    expect((await code(t1!, { memo: 'Café – déjà vu' })).status).toBe(200);
    expect((await code(t3!, { gl_account_id: a.glAccounts.active[1] })).status).toBe(200);
    // Coded but PENDING: not spend yet, so not synced.
    await t.db.query(`UPDATE transactions SET state = 'PENDING' WHERE id = $1`, [t3]);
    const key = { 'Idempotency-Key': randomUUID() };
    const res = await call('POST', `${ACC}/providers/quickbooks_desktop/sync_commit`, {}, tokens.bookkeeper, key);
    expect(res.status, res.text).toBe(201);
    first = syncCommitSchema.parse(res.body);
    expect(first.item_count).toBe(4); // two transactions, the bill, the claim
    expect(first.files.map((f) => [f.name, f.currency, f.statement_account])).toEqual([['ledgerline-quickbooks-20261127-0400-USD.iif', 'USD', null]]);
    const again = await call('POST', `${ACC}/providers/quickbooks_desktop/sync_commit`, {}, tokens.bookkeeper, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.id);

    expect(await syncedAt('transactions', t1!)).toBe('2026-11-27T04:00:00.000Z');
    expect(await syncedAt('bills', bill)).not.toBeNull();
    expect(await syncedAt('reimbursements', claim)).not.toBeNull();
    expect(await syncedAt('transactions', t3!)).toBeNull();
    const doc = transactionSchema.parse((await call('GET', `/v1/auth/transactions/${t1}`)).body);
    expect(doc.accounting_synced_at).toBe('2026-11-27T04:00:00.000Z');

    const file = await request(t.app, 'GET', first.files[0]!.url, { token: tokens.admin });
    expect(file.status).toBe(200);
    expectFileHeaders(file.headers, first.files[0]!.name);
    // QuickBooks Desktop reads IIF in the Windows code page: é is one byte (0xE9), the dash 0x96.
    expect(file.headers.get('content-type')).toBe('text/plain; charset=windows-1252');
    const bytes = Buffer.from(await (await t.app.request(first.files[0]!.url, { headers: { 'RAMP-ID-TOKEN': tokens.admin } })).arrayBuffer());
    expect(bytes.includes(Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x64, 0xe9, 0x6a, 0xe0]))).toBe(true);
    expect(bytes.includes(Buffer.from('Café', 'utf8'))).toBe(false);
    const rows = file.text.split('\r\n').filter(Boolean).map((r) => r.split('\t'));
    expect(rows.slice(0, 3).map((r) => r[0])).toEqual(['!TRNS', '!SPL', '!ENDTRNS']);
    let sum = 0;
    let blocks = 0;
    for (const r of rows.slice(3)) {
      if (r[0] === 'ENDTRNS') {
        expect(sum).toBe(0);
        blocks++;
        sum = 0;
      } else sum += toMinorUnits(r[5]!, 'USD')!;
    }
    expect(blocks).toBe(4);
    expect(rows.find((r) => r[1] === 'BILL' && r[0] === 'TRNS')).toEqual(['TRNS', 'BILL', '11/02/2026', 'Accounts Payable', 'Acme Supplies', '-75.00', 'INV-1001', 'Acme Supplies']);
    expect(rows.filter((r) => r[1] === 'CREDIT CARD' && r[0] === 'TRNS').every((r) => r[3] === 'Amex Corporate')).toBe(true);

    const current = await call('GET', `${ACC}/current`);
    expect(current.body.last_commit.id).toBe(first.id);
    const list = await call('GET', `${ACC}/sync_commits?include_count=true`);
    expect(list.body).toMatchObject({ total_count: 1, data: [{ id: first.id, item_count: 4 }] });
  });

  it('refuses an empty commit and leaves nothing behind', async () => {
    const res = await call('POST', `${ACC}/providers/quickbooks_desktop/sync_commit`, {});
    expect(res.status).toBe(422);
    expect(res.body.error_v2.error_code).toBe('ACCOUNTING_7303');
    const [n] = await t.db.query<{ n: number }>('SELECT count(*) AS n FROM accounting_sync_commits WHERE business_id = $1', [a.businessId]);
    expect(Number(n!.n)).toBe(1);
  });

  it('refuses coding edits of a synced transaction until it is marked not synced', async () => {
    const [t1, , , t4] = a.transactions.employee;
    const one = await code(t1!, { memo: 'changed' });
    expect(one.status).toBe(409);
    expect(one.body.error_v2).toEqual({
      error_code: 'ACCOUNTING_7301',
      message: 'This transaction was exported to your accounting system on 2026-11-27. Mark it as not synced to change its coding.',
    });
    const bulk = await call('PATCH', `${ACC}/coding/bulk-update`, { transaction_ids: [t4, t1], patch: { gl_account_id: a.glAccounts.active[1] } });
    expect(bulk.status).toBe(409);
    expect(bulk.body.error_v2.message).toMatch(/^1 of these 2 transactions were exported/);
    expect((await t.db.query<{ gl: string | null }>('SELECT gl_account_id::text AS gl FROM transactions WHERE id = $1', [t4]))[0]!.gl).toBeNull();

    expect((await call('POST', `${ACC}/mark-not-synced`, { items: [] })).status).toBe(422);
    const before = (await t.db.query<{ s: number }>('SELECT change_seq AS s FROM transactions WHERE id = $1', [t1]))[0]!.s;
    const unsync = await call('POST', `${ACC}/mark-not-synced`, { items: [{ type: 'transaction', id: t1 }, { type: 'transaction', id: t4 }] }, tokens.bookkeeper);
    expect(unsync.status, unsync.text).toBe(200);
    expect(unsync.body.updated).toBe(1);
    const after = (await t.db.query<{ s: number }>('SELECT change_seq AS s FROM transactions WHERE id = $1', [t1]))[0]!.s;
    expect(Number(after)).toBeGreaterThan(Number(before));
    expect((await code(t1!, { memo: 'changed' })).status).toBe(200);
    const next = await call('POST', `${ACC}/providers/quickbooks_desktop/sync_commit`, {});
    expect(next.status, next.text).toBe(201);
    expect(next.body.item_count).toBe(1);
  });

  it('answers 404 for another business\'s commits, files, items and rules', async () => {
    const file = first.files[0]!;
    expect((await request(t.app, 'GET', file.url, { token: bAdmin })).status).toBe(404);
    expect((await request(t.app, 'GET', `${ACC}/sync_commits/${first.id}`, { token: bAdmin })).status).toBe(404);
    expect((await request(t.app, 'GET', `${ACC}/sync_commits/${first.id}/files/other.iif`, { token: tokens.admin })).status).toBe(404);
    const unsync = await call('POST', `${ACC}/mark-not-synced`, { items: [{ type: 'bill', id: bill }] }, bAdmin);
    expect(unsync.status).toBe(404);
    expect(await syncedAt('bills', bill)).not.toBeNull();
    const m = await call('POST', `${ACC}/reconciliation/manual-match`, { transaction_id: a.allTransactions[0], bank_line_id: 'L1' }, bAdmin);
    expect(m.status).toBe(404);
    const rule = await call('POST', `${ACC}/mapping_rules`, { match_field: 'merchant_name', match_value: 'AWS', gl_account_id: a.glAccounts.active[1] });
    expect(rule.status, rule.text).toBe(201);
    const put = await call('PUT', `${ACC}/mapping_rules/${rule.body.id}`, { match_field: 'merchant_name', match_value: 'x', gl_account_id: b.glAccounts.active[0] }, bAdmin);
    expect(put.status).toBe(404);
    expect((await call('DELETE', `${ACC}/mapping_rules/${rule.body.id}`, undefined, bAdmin)).status).toBe(404);
    // B's own rule may not name A's GL account.
    const foreignGl = await call('POST', `${ACC}/mapping_rules`, { match_field: 'merchant_name', match_value: 'AWS', gl_account_id: a.glAccounts.active[1] }, bAdmin);
    expect(foreignGl.status).toBe(422);
    expect((await call('DELETE', `${ACC}/mapping_rules/${rule.body.id}`)).status).toBe(200);
  });

  it('keeps mapping rules in order and applies them to uncoded, unsynced transactions', async () => {
    expect((await call('POST', `${ACC}/mapping_rules`, { match_field: 'merchant_name', match_value: 'Uber' })).status).toBe(422);
    const badVendor = await call('POST', `${ACC}/mapping_rules`, { match_field: 'vendor', match_value: randomUUID(), gl_account_id: a.glAccounts.active[0] });
    expect(badVendor.status).toBe(422);
    expect(badVendor.body.error_v2.errors).toHaveProperty('match_value');
    const broad = await call('POST', `${ACC}/mapping_rules`, { match_field: 'merchant_name', match_operator: 'contains', match_value: 'e', department_id: a.departments[2], priority: 5 });
    const uber = await call('POST', `${ACC}/mapping_rules`, { match_field: 'merchant_name', match_value: '  uber ', gl_account_id: a.glAccounts.active[0], priority: 1 });
    expect(uber.status, uber.text).toBe(201);
    const vendorRule = await call('POST', `${ACC}/mapping_rules`, { match_field: 'vendor', match_value: vendor, gl_account_id: a.glAccounts.active[1] });
    expect(vendorRule.status, vendorRule.text).toBe(201);
    const list = await call('GET', `${ACC}/mapping_rules`);
    expect(list.body.data.map((r: unknown) => mappingRuleSchema.parse(r).id)).toEqual([uber.body.id, broad.body.id, vendorRule.body.id]);
    expect(vendorRule.body.priority).toBe(6);
    // "u" also matches Uber, but the Uber rule comes first; Blue Bottle Coffee only matches this one.
    const replaced = await call('PUT', `${ACC}/mapping_rules/${broad.body.id}`, { match_field: 'merchant_name', match_operator: 'contains', match_value: 'U', gl_account_id: a.glAccounts.active[1] });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ priority: 5, match_value: 'U', department_id: null });

    const uncoded = async (merchant: string) =>
      (await t.db.query<{ id: string }>(
        `SELECT id::text FROM transactions WHERE business_id = $1 AND merchant_name = $2 AND gl_account_id IS NULL AND accounting_synced_at IS NULL`,
        [a.businessId, merchant],
      )).map((r) => r.id);
    const ubers = await uncoded('Uber');
    const coffees = await uncoded('Blue Bottle Coffee');
    expect(ubers.length).toBeGreaterThan(0);
    const applied = await call('POST', `${ACC}/mapping_rules/apply`, {});
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.updated).toBe(ubers.length + coffees.length);
    const gl = await t.db.query<{ gl: string }>('SELECT DISTINCT gl_account_id::text AS gl FROM transactions WHERE id = ANY($1::uuid[])', [ubers]);
    expect(gl.map((r) => r.gl)).toEqual([a.glAccounts.active[0]]);
    expect(await uncoded('Uber')).toEqual([]);
    expect((await call('POST', `${ACC}/mapping_rules/apply`, {})).body.updated).toBe(0);
  });

  it('matches a transaction to a bill of the same amount, or to a bank line, once', async () => {
    const [txn] = a.transactions.outsider;
    const [{ amount }] = await t.db.query<{ amount: number }>('SELECT amount FROM transactions WHERE id = $1', [txn]) as [{ amount: number }];
    const other = await call('POST', '/v1/auth/bill-pay', {
      vendor_id: vendor, invoice_number: 'INV-2002', invoice_date: '2026-11-05', due_date: '2026-11-30', currency: 'USD',
      line_items: [{ description: 'Card-paid', amount: Number(amount) }],
    });
    await t.db.query(`UPDATE bills SET status = 'PAID' WHERE id = $1`, [other.body.id]);
    const mismatch = await call('POST', `${ACC}/reconciliation/manual-match`, { transaction_id: txn, bill_id: bill });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error_v2.errors.bill_id).toMatch(/same amount and currency/);
    expect((await call('POST', `${ACC}/reconciliation/manual-match`, { transaction_id: txn, bill_id: other.body.id, bank_line_id: 'x' })).status).toBe(422);
    expect((await call('POST', `${ACC}/reconciliation/manual-match`, { transaction_id: txn, bill_id: randomUUID() })).status).toBe(404);
    const ok = await call('POST', `${ACC}/reconciliation/manual-match`, { transaction_id: txn, bill_id: other.body.id });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toMatchObject({ transaction_id: txn, bill_id: other.body.id, bank_line_id: null, created_by: a.users.admin });
    expect((await call('POST', `${ACC}/reconciliation/manual-match`, { transaction_id: txn, bank_line_id: 'STMT-1' })).status).toBe(422);
    const line = await call('POST', `${ACC}/reconciliation/manual-match`, { transaction_id: a.transactions.outsider[1], bank_line_id: ' STMT-2 ' });
    expect(line.status, line.text).toBe(201);
    expect(line.body.bank_line_id).toBe('STMT-2');
  });

  it('writes a generic CSV that parses back to the items committed, and unmarks bills and claims', async () => {
    const d = await makeBusiness(t.db, { transactions: 12 });
    const coded = d.allTransactions.slice(0, 7);
    await t.db.query('UPDATE transactions SET gl_account_id = $2, tracking = $3::jsonb WHERE id = ANY($1::uuid[])',
      [coded, d.glAccounts.active[1], JSON.stringify({ [d.tracking[0]!.categoryId]: d.tracking[0]!.options[1] })]);
    await t.db.query(`UPDATE transactions SET amount = -amount WHERE id = $1`, [coded[0]]);
    const admin = await signIn(t.app, d.email('admin'));
    expect((await request(t.app, 'POST', `${ACC}/providers/csv/connect`, { token: admin, body: {} })).status).toBe(200);
    const res = await request(t.app, 'POST', `${ACC}/providers/csv/sync_commit`, { token: admin, body: {} });
    expect(res.status, res.text).toBe(201);
    expect(res.body.item_count).toBe(7);
    const got = await request(t.app, 'GET', res.body.files[0].url, { token: admin });
    const parsed = { data: parse(got.text, { columns: true, skip_empty_lines: true }) as Record<string, string>[] };
    expect(parsed.data.map((r) => r['Ledgerline ID']).sort()).toEqual([...coded].sort());
    const [{ total }] = await t.db.query<{ total: number }>('SELECT sum(amount) AS total FROM transactions WHERE id = ANY($1::uuid[])', [coded]) as [{ total: number }];
    expect(parsed.data.reduce((s, r) => s + toMinorUnits(r['Line amount']!, 'USD')!, 0)).toBe(Number(total));
    expect(parsed.data.every((r) => r['GL account code'] === '6100' && r.Tracking === 'Project: Apollo 1' && r.Department !== '')).toBe(true);

    // A bill and a claim of A, synced by the first commit, are unmarked (and their docs say so).
    expect((await call('GET', `/v1/auth/bill-pay/${bill}`)).body.accounting_synced_at).not.toBeNull();
    const unsync = await call('POST', `${ACC}/mark-not-synced`, { items: [{ type: 'bill', id: bill }, { type: 'reimbursement', id: claim }] });
    expect(unsync.status, unsync.text).toBe(200);
    expect(unsync.body.updated).toBe(2);
    expect((await call('GET', `/v1/auth/bill-pay/${bill}`)).body.accounting_synced_at).toBeNull();
    expect(await syncedAt('reimbursements', claim)).toBeNull();
  });

  it('splits a Xero commit into files of at most 1,000 lines, each downloadable', async () => {
    const c = await makeBusiness(t.db, { transactions: 1_001 });
    await t.db.query('UPDATE transactions SET gl_account_id = $2 WHERE business_id = $1', [c.businessId, c.glAccounts.active[0]]);
    const admin = await signIn(t.app, c.email('admin'));
    expect((await request(t.app, 'POST', `${ACC}/providers/xero_csv/connect`, { token: admin, body: {} })).status).toBe(200);
    // A US organisation's Xero reads month first.
    const prefs = await request(t.app, 'PATCH', `${ACC}/preferences`, { token: admin, body: { xero_date_format: 'MM/DD/YYYY' } });
    expect(prefs.status, prefs.text).toBe(200);
    expect(prefs.body.xero_date_format).toBe('MM/DD/YYYY');
    const res = await request(t.app, 'POST', `${ACC}/providers/xero_csv/sync_commit`, { token: admin, body: {} });
    expect(res.status, res.text).toBe(201);
    const commit = syncCommitSchema.parse(res.body);
    expect(commit.item_count).toBe(1_001);
    expect(commit.files.map((f) => [f.name, f.currency, f.statement_account])).toEqual([
      ['ledgerline-xero-20261127-0400-corporate-card-USD_part-1.csv', 'USD', 'card'],
      ['ledgerline-xero-20261127-0400-corporate-card-USD_part-2.csv', 'USD', 'card'],
    ]);
    const counts: number[] = [];
    const dates = new Set<string>();
    for (const f of commit.files) {
      const got = await request(t.app, 'GET', f.url, { token: admin });
      expect(got.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const [header] = parse(got.text, { to_line: 1 }) as string[][];
      expect(header).toEqual(['Date', 'Amount', 'Payee', 'Description', 'Reference']);
      const parsed = { data: parse(got.text, { columns: true, skip_empty_lines: true }) as Record<string, string>[] };
      expect(parsed.data.every((r) => /^\d{2}\/\d{2}\/\d{4}$/.test(r.Date!) && r.Amount!.startsWith('-'))).toBe(true);
      for (const r of parsed.data) dates.add(r.Date!);
      counts.push(parsed.data.length);
    }
    expect(counts).toEqual([1_000, 1]);
    const stored = await t.db.query<{ d: string }>(
      `SELECT DISTINCT to_char(occurred_at AT TIME ZONE 'UTC', 'MM/DD/YYYY') AS d FROM transactions WHERE business_id = $1 AND accounting_synced_at IS NOT NULL`, [c.businessId],
    );
    expect([...dates].sort()).toEqual(stored.map((r) => r.d).sort());
  });
});
