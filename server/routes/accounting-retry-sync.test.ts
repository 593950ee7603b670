import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { bulkBillResponseSchema } from '../../schema/api/calls-bill-bulk.ts';
import { syncCommitSchema } from '../../schema/api/calls-accounting.ts';
import type { Bill } from '../../schema/entities/bill.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';

/**
 * retry-accounting-sync (§7 bill bulk action) on issue 12's sync commits: an approved bill not yet
 * synced is committed alone to the connected provider, exactly once (a repeat, with or without the
 * same Idempotency-Key, exports nothing twice); a synced bill answers ACCOUNTING_7301, no provider
 * ACCOUNTING_7304, an uncoded bill or (Xero) an unpaid one ACCOUNTING_7303 with the reason.
 */
const ACC = '/v1/auth/accounting';
const RETRY = '/v1/auth/bill-pay/bulk-actions/retry-accounting-sync';
const NOW = '2026-11-27T04:00:00Z';

type Result = { id: string; ok: boolean; bill?: Bill; error_v2?: { error_code: string; message: string } };

describe.each(await testDatabases())('retry-accounting-sync on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.parse(NOW) });
  let f: Fixture;
  let admin: string;
  let vendor: string;

  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>, token = admin) =>
    request(t.app, method, path, { token, ...(body !== undefined && { body }), ...(headers && { headers }) });
  const retry = async (ids: string[], headers?: Record<string, string>): Promise<Result[]> => {
    const res = await call('POST', RETRY, { bill_ids: ids }, headers);
    expect(res.status, res.text).toBe(200);
    return bulkBillResponseSchema.parse(res.body).results as Result[];
  };
  const approvedBill = async (coded = true) => {
    const res = await call('POST', '/v1/auth/bill-pay', {
      vendor_id: vendor, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-02', due_date: '2026-11-30', currency: 'USD',
      line_items: [{ description: 'Paper', amount: 6_000, ...(coded && { gl_account_id: f.glAccounts.active[0] }) }],
    });
    expect(res.status, res.text).toBe(200);
    await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [res.body.id]);
    return res.body.id as string;
  };
  const commitsOf = async (billId: string) =>
    (await t.db.query<{ commit_id: string }>(`SELECT commit_id::text FROM accounting_sync_items WHERE object_type = 'bill' AND object_id = $1`, [billId]))
      .map((r) => r.commit_id);

  beforeAll(async () => {
    f = await makeBusiness(t.db, { transactions: 3 });
    admin = await signIn(t.app, f.email('admin'));
    vendor = (await call('POST', '/v1/auth/vendors', { name: 'Retry Supplies' })).body.id;
  });

  it('with no provider connected, refuses each bill with ACCOUNTING_7304', async () => {
    const id = await approvedBill();
    const [r] = await retry([id]);
    expect(r).toMatchObject({ ok: false, error_v2: { error_code: 'ACCOUNTING_7304' } });
    expect(r!.error_v2!.message).toContain('No accounting provider is connected');
    expect(await commitsOf(id)).toEqual([]);
  });

  it('commits an unsynced approved bill alone, once; a repeat answers ACCOUNTING_7301 and exports nothing twice', async () => {
    expect((await call('POST', `${ACC}/providers/csv/connect`, {})).status).toBe(200);
    const id = await approvedBill();
    const other = await approvedBill();
    const [first] = await retry([id], { 'Idempotency-Key': `retry-${id}` });
    expect(first).toMatchObject({ ok: true, bill: { id } });
    expect(first!.bill!.accounting_synced_at).toBeTruthy();
    const commits = await commitsOf(id);
    expect(commits).toHaveLength(1);
    const commit = syncCommitSchema.parse((await call('GET', `${ACC}/sync_commits/${commits[0]}`)).body);
    expect(commit).toMatchObject({ provider_type: 'csv', item_count: 1 });
    // Only the bill asked for: the other approved bill and the cleared transactions are left for a full commit.
    expect(await commitsOf(other)).toEqual([]);
    // The same request replayed answers the stored answer; a new one refuses: nothing failed.
    const replay = await retry([id], { 'Idempotency-Key': `retry-${id}` });
    expect(replay).toEqual([first]);
    const [again] = await retry([id]);
    expect(again).toMatchObject({ ok: false, error_v2: { error_code: 'ACCOUNTING_7301' } });
    expect(again!.error_v2!.message).toContain('no failed sync to retry');
    expect(await commitsOf(id)).toEqual(commits);
  });

  it('retries a bill marked not synced (a new commit) and refuses, in their places, an uncoded bill, a draft and a missing one', async () => {
    const id = await approvedBill();
    expect((await retry([id]))[0]!.ok).toBe(true);
    const unsync = await call('POST', `${ACC}/mark-not-synced`, { items: [{ type: 'bill', id }] });
    expect(unsync.status, unsync.text).toBe(200);
    const uncoded = await approvedBill(false);
    const draft = (await call('POST', '/v1/auth/bill-pay', {
      vendor_id: vendor, invoice_number: 'INV-DRAFT-R', invoice_date: '2026-11-02', due_date: '2026-11-30', currency: 'USD',
      line_items: [{ description: 'x', amount: 100, gl_account_id: f.glAccounts.active[0] }],
    })).body.id as string;
    const missing = randomUUID();
    const res = await retry([id, uncoded, draft, missing]);
    expect(res[0]).toMatchObject({ ok: true, bill: { id } });
    expect(await commitsOf(id)).toHaveLength(2);
    expect(res[1]).toMatchObject({ ok: false, error_v2: { error_code: 'ACCOUNTING_7303' } });
    expect(res[1]!.error_v2!.message).toContain('give every line a GL account');
    expect(res[2]!.error_v2!.message).toContain('(status DRAFT)');
    expect(res[3]).toMatchObject({ ok: false, error_v2: { error_code: 'REQUEST_7004' } });
    expect(await commitsOf(uncoded)).toEqual([]);
  });

  it('with Xero (money that moved only), refuses an approved bill not yet paid, saying why', async () => {
    const g = await makeBusiness(t.db, { transactions: 0 });
    const gAdmin = await signIn(t.app, g.email('admin'));
    expect((await request(t.app, 'POST', `${ACC}/providers/xero_csv/connect`, { token: gAdmin, body: {} })).status).toBe(200);
    const v = (await request(t.app, 'POST', '/v1/auth/vendors', { token: gAdmin, body: { name: 'Xero Supplies' } })).body.id;
    const created = await request(t.app, 'POST', '/v1/auth/bill-pay', {
      token: gAdmin,
      body: {
        vendor_id: v, invoice_number: 'INV-X1', invoice_date: '2026-11-02', due_date: '2026-11-30', currency: 'USD',
        line_items: [{ description: 'Paper', amount: 6_000, gl_account_id: g.glAccounts.active[0] }],
      },
    });
    await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [created.body.id]);
    const res = await request(t.app, 'POST', RETRY, { token: gAdmin, body: { bill_ids: [created.body.id] } });
    expect(res.body.results[0]).toMatchObject({ ok: false, error_v2: { error_code: 'ACCOUNTING_7303' } });
    expect(res.body.results[0].error_v2.message).toContain('books only money that moved');
    expect(res.body.results[0].error_v2.message).toContain('once its payment has settled');

    // Marked paid outside Ledgerline: no payment of ours will ever settle, and the refusal says so.
    await t.db.query(`UPDATE bills SET status = 'PAID', paid_manually = true WHERE id = $1`, [created.body.id]);
    const manual = await request(t.app, 'POST', RETRY, { token: gAdmin, body: { bill_ids: [created.body.id] } });
    expect(manual.body.results[0]).toMatchObject({ ok: false, error_v2: { error_code: 'ACCOUNTING_7303' } });
    expect(manual.body.results[0].error_v2.message).toContain('marked paid outside it is not exported');
  });

  it('refuses an employee (403) and another business\'s bill (404 in its place)', async () => {
    const id = await approvedBill();
    const employee = await signIn(t.app, f.email('employee'));
    expect((await call('POST', RETRY, { bill_ids: [id] }, undefined, employee)).status).toBe(403);
    const g = await makeBusiness(t.db, { transactions: 0 });
    const gAdmin = await signIn(t.app, g.email('admin'));
    const res = await request(t.app, 'POST', RETRY, { token: gAdmin, body: { bill_ids: [id] } });
    expect(res.body.results[0]).toMatchObject({ ok: false, error_v2: { error_code: 'REQUEST_7004' } });
    expect(await commitsOf(id)).toEqual([]);
  });
});
