import { ENTITIES } from '../../schema/collections.ts';
import type { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { syncChanges } from '../../schema/api/calls.ts';
import { backfillStageOf, type BackfillCursor, type Change, type ChangesResponse } from '../../schema/sync-feed.ts';
import { allocateSeqs } from '../db/change-seq.ts';
import { COLLECTIONS } from '../domain/collections.ts';
import { explainBackfill } from './changes.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type FixtureRole } from '../test-fixtures.ts';

/** Issue 8: the first mirror's backfill walk (newest first), schema/sync-feed.ts. */

const cursorQuery = (c: BackfillCursor | null) => (c ? `&top=${c.top}&stage=${c.stage}&before=${c.before}` : '');

async function backfillPage(app: Hono, token: string, cursor: BackfillCursor | null, limit: number): Promise<ChangesResponse> {
  const res = await request(app, 'GET', `/v1/auth/sync/changes?backfill=true&limit=${limit}${cursorQuery(cursor)}`, { token });
  expect(res.status).toBe(200);
  return syncChanges.response.parse(res.body);
}

type Walk = { pages: ChangesResponse[]; changes: Change[]; top: number; total: number | undefined };
async function walk(app: Hono, token: string, limit = 7, from: { cursor: BackfillCursor | null; pages: ChangesResponse[] } = { cursor: null, pages: [] }): Promise<Walk> {
  const pages = [...from.pages];
  let cursor = from.cursor;
  for (;;) {
    const page = await backfillPage(app, token, cursor, limit);
    pages.push(page);
    expect(page.backfill).toBeDefined();
    if (!page.has_more) break;
    cursor = page.backfill!;
  }
  return { pages, changes: pages.flatMap((p) => p.changes), top: pages[0]!.checkpoint, total: pages[0]!.total };
}

async function forward(app: Hono, token: string, after: number, limit = 7): Promise<Change[]> {
  const out: Change[] = [];
  for (let checkpoint = after; ; ) {
    const res = await request(app, 'GET', `/v1/auth/sync/changes?after=${checkpoint}&limit=${limit}`, { token });
    expect(res.status).toBe(200);
    const page = syncChanges.response.parse(res.body);
    out.push(...page.changes);
    checkpoint = page.checkpoint;
    if (!page.has_more) return out;
  }
}

/** What a mirror holds after applying changes in order (rows by collection and id). */
function mirrorOf(changes: Change[], into = new Map<string, unknown>()): Map<string, unknown> {
  for (const c of changes) {
    const key = `${c.collection}/${c.id}`;
    if (c.deleted) into.delete(key);
    else into.set(key, c.doc);
  }
  return into;
}
const sorted = (m: Map<string, unknown>) => [...m.entries()].sort(([a], [b]) => a.localeCompare(b));

describe.each(await testDatabases())('backfill walk on %s', (kind) => {
  const t = useTestApp(kind);

  it('sends every live row once, reference collections first, each stage newest first, then the forward feed goes on from its top', async () => {
    const f = await makeBusiness(t.db, { transactions: 30 });
    const token = await signIn(t.app, f.email('admin'));
    // A tombstone: the walk leaves it out, the forward feed from 0 carries it.
    const removed = await request(t.app, 'DELETE', `/v1/auth/businesses/departments/${f.departments[0]}`, { token });
    expect(removed.status).toBe(200);
    const w = await walk(t.app, token);
    const [{ change_seq: high }] = (await t.db.query<{ change_seq: number }>('SELECT change_seq FROM businesses WHERE id = $1', [f.businessId])) as [{ change_seq: number }];
    expect(w.top).toBe(high);
    for (const p of w.pages) expect(p.checkpoint).toBe(high);

    const stages = w.changes.map((c) => backfillStageOf(c.collection));
    const firstQueried = stages.indexOf('queried');
    expect(firstQueried).toBeGreaterThan(0);
    expect(stages.slice(firstQueried).every((s) => s === 'queried')).toBe(true);
    for (const part of [w.changes.slice(0, firstQueried), w.changes.slice(firstQueried)]) {
      const seqs = part.map((c) => c.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    }
    expect(w.changes.every((c) => !c.deleted && c.doc !== null && c.seq <= high)).toBe(true);
    expect(new Set(w.changes.map((c) => `${c.collection}/${c.id}`)).size).toBe(w.changes.length);
    expect(w.changes.some((c) => c.collection === 'departments' && c.id === f.departments[0])).toBe(false);
    // The newest transaction by seq arrives first among the queried rows.
    const [{ id: newest }] = (await t.db.query<{ id: string }>(
      'SELECT id::text FROM transactions WHERE business_id = $1 ORDER BY change_seq DESC LIMIT 1', [f.businessId],
    )) as [{ id: string }];
    expect(w.changes[firstQueried]).toMatchObject({ collection: 'transactions', id: newest });

    // The total is what the walk sends; the walk's rows are the forward feed's final state.
    expect(w.total).toBe(w.changes.length);
    expect(w.pages.slice(1).every((p) => p.total === undefined)).toBe(true);
    expect(sorted(mirrorOf(w.changes))).toEqual(sorted(mirrorOf(await forward(t.app, token, 0))));
    // Nothing changed since: the forward pull from the top is empty.
    expect(await forward(t.app, token, w.top)).toEqual([]);
  });

  it('ends in the server state when rows are created, updated and deleted during the walk', async () => {
    const f = await makeBusiness(t.db, { transactions: 30 });
    const token = await signIn(t.app, f.email('admin'));
    const limit = 5;
    const first = await backfillPage(t.app, token, null, limit);
    const second = await backfillPage(t.app, token, first.backfill!, limit);
    const sent = new Set([...first.changes, ...second.changes].map((c) => `${c.collection}/${c.id}`));
    const unsentTxns = f.allTransactions.filter((id) => !sent.has(`transactions/${id}`));
    // The walk is still in its reference stage: every transaction is yet to come.
    expect(unsentTxns).toHaveLength(30);
    const sentRef = second.changes[0]!;
    const unsentDepartment = f.departments.find((id) => !sent.has(`departments/${id}`));
    const sentDepartment = f.departments.find((id) => sent.has(`departments/${id}`));

    // Writes landing mid-walk, each with its own seq (as every mirrored write does).
    const patch = (id: string, memo: string) => request(t.app, 'PATCH', `/v1/auth/transactions/${id}`, { token, body: { memo } });
    expect((await patch(unsentTxns[0]!, 'updated mid-walk')).status).toBe(200);
    expect((await patch(unsentTxns[1]!, 'then deleted')).status).toBe(200);
    await tombstone('transactions', unsentTxns[1]!);
    await tombstone('transactions', unsentTxns[2]!);
    await tombstone(sentRef.collection, sentRef.id);
    if (unsentDepartment) expect((await request(t.app, 'DELETE', `/v1/auth/businesses/departments/${unsentDepartment}`, { token })).status).toBe(200);
    if (sentDepartment) {
      expect((await request(t.app, 'PATCH', `/v1/auth/businesses/departments/${sentDepartment}`, { token, body: { name: 'Renamed mid-walk' } })).status).toBe(200);
    }
    expect((await request(t.app, 'POST', '/v1/auth/businesses/departments', { token, body: { name: 'Created mid-walk' } })).status).toBe(201);

    const rest = await walk(t.app, token, limit, { cursor: second.backfill!, pages: [first, second] });
    expect(rest.changes.some((c) => c.seq > rest.top)).toBe(false);
    expect(rest.changes.some((c) => c.id === unsentTxns[1] || c.id === unsentTxns[2])).toBe(false);
    const device = mirrorOf(await forward(t.app, token, rest.top), mirrorOf(rest.changes));
    const server = mirrorOf(await forward(t.app, token, 0));
    expect(sorted(device)).toEqual(sorted(server));
    expect((server.get(`transactions/${unsentTxns[0]}`) as { memo: string }).memo).toBe('updated mid-walk');
    expect(server.has(`transactions/${unsentTxns[1]}`)).toBe(false);
    expect(server.has(`${sentRef.collection}/${sentRef.id}`)).toBe(false);
  });

  /** A write that deletes a row: a new seq, the tombstone flag. */
  async function tombstone(collection: keyof typeof COLLECTIONS, id: string) {
    await t.db.transaction(async (tx) => {
      const [{ business_id }] = (await tx.query<{ business_id: string }>(`SELECT business_id FROM ${COLLECTIONS[collection].table} WHERE id = $1`, [id])) as [{ business_id: string }];
      const seqs = await allocateSeqs(tx, business_id, 1);
      await tx.query(`UPDATE ${COLLECTIONS[collection].table} SET deleted = true, change_seq = $2 WHERE id = $1`, [id, seqs!.first]);
    });
  }

  it.each(['admin', 'manager', 'employee', 'outsider'] as FixtureRole[])('sends %s exactly the live rows the forward feed shows them', async (role) => {
    const f = await makeBusiness(t.db, { transactions: 25 });
    const other = await makeBusiness(t.db, { transactions: 5 });
    const token = await signIn(t.app, f.email(role));
    const w = await walk(t.app, token, 4);
    expect(sorted(mirrorOf(w.changes))).toEqual(sorted(mirrorOf(await forward(t.app, token, 0, 500))));
    expect(w.changes.some((c) => other.allTransactions.includes(c.id) || Object.values(other.users).includes(c.id))).toBe(false);
  });

  it('caps a top above the high water, and a finished walk answers an empty last page', async () => {
    const f = await makeBusiness(t.db, { transactions: 3 });
    const token = await signIn(t.app, f.email('admin'));
    const first = await backfillPage(t.app, token, null, 1000);
    expect(first.has_more).toBe(false);
    const bogus = await backfillPage(t.app, token, { top: first.checkpoint + 1_000, stage: 'reference', before: first.checkpoint + 1_001 }, 10);
    expect(bogus.checkpoint).toBe(first.checkpoint);
    expect(bogus.backfill?.top).toBe(first.checkpoint);
    const done = await backfillPage(t.app, token, { top: first.checkpoint, stage: 'queried', before: 0 }, 10);
    expect(done).toMatchObject({ changes: [], has_more: false, checkpoint: first.checkpoint });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=10001', 'limit'],
    ['limit=abc', 'limit'],
    ['backfill=maybe', 'backfill'],
    ['backfill=true&after=5', 'after'],
    ['backfill=true&top=10', 'stage'],
    ['backfill=true&top=10&stage=queried&before=-1', 'before'],
    ['backfill=true&top=10&stage=sideways&before=3', 'stage'],
    ['backfill=true&top=1.5&stage=queried&before=3', 'top'],
    ['top=10&stage=queried&before=3', 'top'],
  ])('refuses %s with a 422 REQUEST_7001 naming %s', async (query, field) => {
    const f = await makeBusiness(t.db, { transactions: 1 });
    const token = await signIn(t.app, f.email('admin'));
    const res = await request(t.app, 'GET', `/v1/auth/sync/changes?${query}`, { token });
    expect(res.status).toBe(422);
    expect(res.body.error_v2.error_code).toBe('REQUEST_7001');
    expect(Object.keys(res.body.error_v2.errors ?? {})).toContain(field);
  });

  it('walks each branch down its (business_id, change_seq) index, a limit per branch, with no sort of the table', async () => {
    const f = await makeBusiness(t.db, { transactions: 200 });
    await t.db.exec('ANALYZE');
    const token = await signIn(t.app, f.email('manager'));
    const page = await backfillPage(t.app, token, null, 5);
    const plan = await t.db.transaction(async (tx) => {
      // Tiny fixture tables: tell the planner a scan or a sort costs like on a big table, so the
      // plan shows whether each branch's order comes from its index (it must: no Sort under a Limit).
      for (const knob of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort']) await tx.exec(`SET LOCAL ${knob} = off`);
      return explainBackfill(tx, f.businessId, f.users.manager, page.checkpoint, 5);
    });
    // Issue 33: a manager's rows of a table with a per-person feed index (migration 088) are
    // walked person by person: each a Limit over that index, the branch a bounded Sort of those.
    const perPerson = (table: string) =>
      new RegExp(`Sort[^\\n]*\\n(?:\\s+(?:Disabled|Sort Key)[^\\n]*\\n)*\\s*->\\s+Nested Loop[^\\n]*\\n\\s*->\\s+Function Scan on unnest v[^\\n]*\\n\\s*->\\s+Limit[^\\n]*\\n\\s*->\\s+Index Scan Backward using ${table}_user_feed on ${table}`, 'g');
    for (const c of Object.keys(COLLECTIONS) as (keyof typeof COLLECTIONS)[]) {
      if (COLLECTIONS[c].feedByPerson) {
        expect(plan, c).toMatch(perPerson(COLLECTIONS[c].table));
        continue;
      }
      // The wallet (issue 30, visibility `treasury`) is the admins' alone: a manager's branch is
      // `AND false`, which the planner answers without touching the table.
      if (ENTITIES[c].visibility === 'treasury') {
        expect(plan, c).not.toMatch(new RegExp(`Index Scan Backward using ${COLLECTIONS[c].table}_feed`));
        continue;
      }
      expect(plan, c).toMatch(new RegExp(`Limit[^\\n]*\\n\\s*->\\s+Index Scan Backward using ${COLLECTIONS[c].table}_feed on ${COLLECTIONS[c].table}`));
    }
    // An admin's wallet branches walk their feed indexes like every other branch.
    const admin = await t.db.transaction(async (tx) => {
      for (const knob of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort']) await tx.exec(`SET LOCAL ${knob} = off`);
      return explainBackfill(tx, f.businessId, f.users.admin, page.checkpoint, 5);
    });
    const treasury = (Object.keys(COLLECTIONS) as (keyof typeof COLLECTIONS)[]).filter((c) => ENTITIES[c].visibility === 'treasury');
    expect(treasury).toEqual(['wallet_accounts', 'wallet_transfers', 'bank_accounts']);
    for (const c of treasury) {
      expect(admin, c).toMatch(new RegExp(`Limit[^\\n]*\\n\\s*->\\s+Index Scan Backward using ${COLLECTIONS[c].table}_feed on ${COLLECTIONS[c].table}`));
    }
    // A branch the viewer can see nothing of (`AND false`) sorts the planner's empty Result: zero rows, no table read.
    const empty = /->\s+Limit[^\n]*\n\s*->\s+Sort[^\n]*\n(?:\s+(?:Disabled|Sort Key)[^\n]*\n)*\s*->\s+Result[^\n]*\n\s*One-Time Filter: false/g;
    expect(plan.match(empty), 'the treasury branches (wallet accounts, transfers, linked bank accounts) are empty for a manager').toHaveLength(treasury.length);
    const byPerson = Object.values(COLLECTIONS).filter((c) => c.feedByPerson);
    const bounded = byPerson.reduce((p, c) => p.replace(perPerson(c.table), ''), plan.replace(empty, ''));
    expect(bounded).not.toMatch(/->\s+Limit[^\n]*\n\s*->\s+(Result[^\n]*\n\s*->\s+)?Sort/);
  });
});
