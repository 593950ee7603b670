import { beforeAll, describe, expect, it } from 'vitest';
import { syncCommitSchema, syncPreviewSchema } from '../../schema/api/calls-accounting.ts';
import { seedReportRows } from '../domain/reporting/report-fixture.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';

/**
 * Issue 25 item 7: "Sync now" is previewed before it runs. The preview (GET …/sync_preview) names,
 * per source and currency, the count and the sum of what the commit would export and lock; the
 * commit that follows then exports and locks exactly that (read back from its items), and the
 * preview itself locks and marks nothing.
 */
const ACC = '/v1/auth/accounting';

describe.each(await testDatabases())('sync preview on %s', (kind) => {
  const t = useTestApp(kind);
  let f: Fixture;
  let admin: string;

  beforeAll(async () => {
    f = await makeBusiness(t.db, { transactions: 0 });
    // Three currencies, every transaction state, claims and bills in every status, some uncoded.
    await seedReportRows(t.db, f, { transactions: 150, seed: 25 });
    admin = await signIn(t.app, f.email('admin'));
  });

  /** What a commit exported and locked, per source and currency, from its recorded items. */
  async function committed(commitId: string) {
    const rows = await t.db.query<{ type: string; currency: string; n: number; amount: string }>(
      `SELECT i.object_type AS type, x.currency, count(*)::int AS n, sum(x.amount)::text AS amount
         FROM accounting_sync_items i
         JOIN (SELECT id, currency, amount, accounting_sync_commit_id FROM transactions
               UNION ALL SELECT id, currency, amount, accounting_sync_commit_id FROM reimbursements
               UNION ALL SELECT id, currency, amount, accounting_sync_commit_id FROM bills) x
           ON x.id = i.object_id AND x.accounting_sync_commit_id = i.commit_id
        WHERE i.commit_id = $1 GROUP BY 1, 2`,
      [commitId],
    );
    return rows.map((r) => ({ type: r.type, currency: r.currency, count: r.n, amount: Number(r.amount) }));
  }
  const byKey = <T extends { type: string; currency: string }>(xs: T[]) => [...xs].sort((a, b) => `${a.type}${a.currency}`.localeCompare(`${b.type}${b.currency}`));

  it('is refused to an employee, and for a provider that is not connected', async () => {
    const employee = await signIn(t.app, f.email('employee'));
    expect((await request(t.app, 'GET', `${ACC}/providers/csv/sync_preview`, { token: employee })).status).toBe(403);
    const unconnected = await request(t.app, 'GET', `${ACC}/providers/csv/sync_preview`, { token: admin });
    expect(unconnected.status).toBe(422);
    expect(unconnected.text).toContain('ACCOUNTING_7304');
  });

  it('shows per source and currency exactly what the commit then exports and locks, and locks nothing itself', async () => {
    expect((await request(t.app, 'POST', `${ACC}/providers/csv/connect`, { token: admin, body: {} })).status).toBe(200);
    const res = await request(t.app, 'GET', `${ACC}/providers/csv/sync_preview`, { token: admin });
    expect(res.status, res.text).toBe(200);
    const preview = syncPreviewSchema.parse(res.body);
    // The fixture makes the preview non-trivial: every source, more than one currency.
    expect(new Set(preview.groups.map((g) => g.type))).toEqual(new Set(['transaction', 'reimbursement', 'bill']));
    expect(new Set(preview.groups.map((g) => g.currency)).size).toBeGreaterThan(1);
    expect(preview.item_count).toBe(preview.groups.reduce((n, g) => n + g.count, 0));
    // Nothing is marked by a preview.
    const [marked] = await t.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM transactions WHERE business_id = $1 AND accounting_synced_at IS NOT NULL)
            + (SELECT count(*) FROM bills WHERE business_id = $1 AND accounting_synced_at IS NOT NULL)
            + (SELECT count(*) FROM reimbursements WHERE business_id = $1 AND accounting_synced_at IS NOT NULL) AS n`,
      [f.businessId],
    );
    expect(Number(marked!.n)).toBe(0);

    const commit = await request(t.app, 'POST', `${ACC}/providers/csv/sync_commit`, { token: admin, body: {} });
    expect(commit.status, commit.text).toBe(201);
    const c = syncCommitSchema.parse(commit.body);
    expect(c.item_count).toBe(preview.item_count);
    expect(byKey(await committed(c.id))).toEqual(byKey(preview.groups));

    // Afterwards nothing is left to sync: the preview says so (and the commit would refuse).
    const after = syncPreviewSchema.parse((await request(t.app, 'GET', `${ACC}/providers/csv/sync_preview`, { token: admin })).body);
    expect(after).toEqual({ provider_type: 'csv', item_count: 0, groups: [] });
  });

  it('previews a Xero statement commit with its own selection: only money that moved, exactly what the commit takes', async () => {
    const g = await makeBusiness(t.db, { transactions: 0 });
    await seedReportRows(t.db, g, { transactions: 120, seed: 26 });
    const owner = await signIn(t.app, g.email('admin'));
    const previewOf = async (provider: 'csv' | 'xero_csv') => {
      expect((await request(t.app, 'POST', `${ACC}/providers/${provider}/connect`, { token: owner, body: {} })).status).toBe(200);
      return syncPreviewSchema.parse((await request(t.app, 'GET', `${ACC}/providers/${provider}/sync_preview`, { token: owner })).body);
    };
    // Approved but unpaid bills and claims, pending charges: in the ledger's preview, never in a bank statement's.
    const ledger = await previewOf('csv');
    const preview = await previewOf('xero_csv');
    expect(preview.item_count).toBeGreaterThan(0);
    expect(preview.item_count).toBeLessThan(ledger.item_count);
    const commit = await request(t.app, 'POST', `${ACC}/providers/xero_csv/sync_commit`, { token: owner, body: {} });
    expect(commit.status, commit.text).toBe(201);
    const c = syncCommitSchema.parse(commit.body);
    expect(c.item_count).toBe(preview.item_count);
    expect(byKey(await committed(c.id))).toEqual(byKey(preview.groups));
  });
});
