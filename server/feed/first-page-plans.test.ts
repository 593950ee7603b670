import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../db/db.ts';
import { highWater } from '../db/change-seq.ts';
import { actingUser, listPagePlan, planOf, type PlanNode } from '../test-plans.ts';
import { openTestDb, testDatabases, type TestDb } from '../test-db.ts';
import { makeBusiness, type Fixture, type FixtureRole } from '../test-fixtures.ts';
import { backfillFirstPageSql } from './changes.ts';

/**
 * Issue 33, the first page in a second for every person: the newest-first page of each visibility
 * rule (business-wide roles, a manager and their recursive reports, one's own) reads transactions
 * down an index, never a Seq Scan of the table nor a Sort of every row the rule lets through. The
 * plans are the planner's own choice on a seeded, analysed database (no enable_* knobs): 20,000
 * transactions of people outside the manager's team, newer than the team's 180, so filtering the
 * business's feed index would read the whole table and a bitmap of the team's rows would sort them.
 */


const OTHERS = 20_000;
const PERSONAS: FixtureRole[] = ['owner', 'admin', 'manager', 'employee'];

/** What is wrong with a plan for transactions: Seq Scans of it, and Sorts fed by an unbounded read of it. */
export function transactionPlanProblems(root: PlanNode): string[] {
  const problems: string[] = [];
  // A lookup by primary key reads one row per row of its outer side: bounded by that side.
  const readsTransactions = (n: PlanNode) => n['Relation Name'] === 'transactions' && /Scan/.test(n['Node Type']) && n['Index Name'] !== 'transactions_pkey';
  /**
   * A read of transactions feeding `n`'s rows with no Limit between them (its rows are not bounded
   * by a page). Subplans and init plans run per row or once beside the rows: not the rows sorted.
   */
  const unboundedRead = (n: PlanNode): PlanNode | null => {
    if (readsTransactions(n)) return n;
    if (n['Node Type'] === 'Limit') return null;
    for (const c of n.Plans ?? []) {
      if (c['Parent Relationship'] === 'SubPlan' || c['Parent Relationship'] === 'InitPlan') continue;
      const hit = unboundedRead(c);
      if (hit) return hit;
    }
    return null;
  };
  const visit = (n: PlanNode) => {
    if (n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'transactions') problems.push('Seq Scan on transactions');
    if (n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort') {
      const read = (n.Plans ?? []).map(unboundedRead).find((r) => r !== null);
      if (read) problems.push(`Sort of every ${read['Node Type']}${read['Index Name'] ? ` (${read['Index Name']})` : ''} row of transactions`);
    }
    for (const c of n.Plans ?? []) visit(c);
  };
  visit(root);
  return problems;
}

/** 20,000 transactions of the admin and the outsider (outside the manager's team), newer seqs than the fixture's. */
async function addOthersSpend(db: Queryable, f: Fixture, n: number): Promise<void> {
  await db.query(
    `WITH b AS (SELECT change_seq AS s FROM businesses WHERE id = $1)
     INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, merchant_category, amount, currency, occurred_at, state, department_id, change_seq)
     SELECT gen_random_uuid(), $1, CASE WHEN g % 2 = 0 THEN $2::uuid ELSE $3::uuid END, CASE WHEN g % 2 = 0 THEN $4::uuid ELSE $5::uuid END,
            'Vendor ' || (g % 97), 'General', 1000 + g % 5000, 'USD', timestamptz '2026-02-01' + g * interval '1 minute', 'CLEARED', $6::uuid, b.s + g
       FROM b, generate_series(1, $7::int) AS g`,
    [f.businessId, f.cards.admin, f.cards.outsider, f.users.admin, f.users.outsider, f.departments[0], n],
  );
  await db.query('UPDATE businesses SET change_seq = change_seq + $2 WHERE id = $1', [f.businessId, n]);
}

describe.each(await testDatabases())('the first page of every persona on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  beforeAll(async () => {
    t = await openTestDb(kind);
    f = await makeBusiness(t.db, { transactions: 300 });
    await addOthersSpend(t.db, f, OTHERS);
    await t.db.exec('ANALYZE');
  }, 240_000);
  afterAll(async () => t?.close());

  it('finds a Seq Scan and an unbounded Sort of transactions (the check can fail)', () => {
    const scan: PlanNode = { 'Node Type': 'Seq Scan', 'Relation Name': 'transactions' };
    const sorted: PlanNode = { 'Node Type': 'Limit', Plans: [{ 'Node Type': 'Sort', Plans: [{ 'Node Type': 'Bitmap Heap Scan', 'Relation Name': 'transactions' }] }] };
    const bounded: PlanNode = {
      'Node Type': 'Sort',
      Plans: [{ 'Node Type': 'Nested Loop', Plans: [{ 'Node Type': 'Function Scan' }, { 'Node Type': 'Limit', Plans: [{ 'Node Type': 'Index Scan', 'Relation Name': 'transactions' }] }] }],
    };
    expect(transactionPlanProblems(scan)).toEqual(['Seq Scan on transactions']);
    expect(transactionPlanProblems(sorted)).toEqual(['Sort of every Bitmap Heap Scan row of transactions']);
    expect(transactionPlanProblems(bounded)).toEqual([]);
  });

  it.each(PERSONAS)('%s: the backfill walk\'s first page reads transactions down an index, with no Seq Scan or full Sort', async (role) => {
    const top = await highWater(t.db, f.businessId);
    const q = await backfillFirstPageSql(t.db, f.businessId, f.users[role], top, 2_001);
    const plan = await planOf(t.db, q.sql, q.params);
    expect(transactionPlanProblems(plan)).toEqual([]);
    expect(JSON.stringify(plan)).toMatch(/"Relation Name":"transactions"/);
  });

  it.each(PERSONAS)('%s: the transactions list\'s first keyset page (newest first) reads down an index, with no Seq Scan or full Sort', async (role) => {
    const plan = await listPagePlan(t.db, await actingUser(t.db, f.users[role]));
    expect(transactionPlanProblems(plan)).toEqual([]);
    expect(JSON.stringify(plan)).toMatch(/"Relation Name":"transactions"/);
  });
});
