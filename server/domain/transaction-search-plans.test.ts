import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActingUser } from '../core/actor.ts';
import type { Queryable } from '../db/db.ts';
import { openTestDb, testDatabases, type TestDb } from '../test-db.ts';
import { makeBusiness, type Fixture } from '../test-fixtures.ts';
import { actingUser, listPagePlan, type PlanNode } from '../test-plans.ts';
import { queryTerms } from '../../schema/transaction-query.ts';
import { queryTransactions } from './transaction-sql.ts';

/**
 * Issue 33, search under load: the list's text search (`search_text LIKE '%term%'`) of a word
 * that is rare or absent reads the trigram index of migration 089 (transactions_search_trgm),
 * not every live row's search_text. Without it the planner walks the newest-first index and
 * filters row by row, and a word that never matches reads the whole business before answering
 * (21.5 ms at 20k, ≈ 100 ms at 100k). The plans are the planner's own on a seeded, analysed
 * database; the answers are checked against the rows whose search_text holds the word.
 */


const ROWS = 20_000;
const RARE = 'quillfeather';
const RARE_ROWS = 7;

/** Every node of a plan, depth first. */
const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];

/** How a plan reads transactions: each scan's node type and index. */
export function transactionReads(plan: PlanNode): string[] {
  return nodesOf(plan)
    .filter((n) => /Scan/.test(n['Node Type']) && (n['Relation Name'] === 'transactions' || /^transactions_/.test(n['Index Name'] ?? '')))
    .map((n) => `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''}`);
}

/** ROWS transactions of the admin (search_text filled by the insert trigger); RARE_ROWS of them name RARE in their memo. */
async function addSpend(db: Queryable, f: Fixture): Promise<void> {
  await db.query(
    `WITH b AS (SELECT change_seq AS s FROM businesses WHERE id = $1)
     INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, merchant_category, memo, amount, currency, occurred_at, state, department_id, change_seq)
     SELECT gen_random_uuid(), $1, $2::uuid, $3::uuid, 'Vendor ' || (g % 97), 'General',
            CASE WHEN g % ($6::int / $7::int) = 0 THEN 'Paid by ' || initcap($8) ELSE 'Lunch ' || (g % 13) END,
            1000 + g % 5000, 'USD', timestamptz '2026-02-01' + g * interval '1 minute', 'CLEARED', $4::uuid, b.s + g
       FROM b, generate_series(1, $5::int) AS g`,
    [f.businessId, f.cards.admin, f.users.admin, f.departments[0], ROWS, ROWS, RARE_ROWS, RARE],
  );
  await db.query('UPDATE businesses SET change_seq = change_seq + $2 WHERE id = $1', [f.businessId, ROWS]);
}

describe.each(await testDatabases())('the transactions search on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let owner: ActingUser;
  beforeAll(async () => {
    t = await openTestDb(kind);
    f = await makeBusiness(t.db, { transactions: 50 });
    await addSpend(t.db, f);
    // No VACUUM: the rows' trigrams may still sit in GIN's pending list, as after a seed on PGlite.
    await t.db.exec('ANALYZE');
    owner = await actingUser(t.db, f.users.owner);
  }, 240_000);
  afterAll(async () => t?.close());

  it('names how a plan reads transactions (the check can fail)', () => {
    const scanAll: PlanNode = { 'Node Type': 'Limit', Plans: [{ 'Node Type': 'Index Scan', 'Relation Name': 'transactions', 'Index Name': 'transactions_newest' }] };
    const seq: PlanNode = { 'Node Type': 'Seq Scan', 'Relation Name': 'transactions' };
    expect(transactionReads(scanAll)).toEqual(['Index Scan transactions_newest']);
    expect(transactionReads(seq)).toEqual(['Seq Scan']);
    expect(transactionReads(scanAll)).not.toContain('Bitmap Index Scan transactions_search_trgm');
  });

  it.each([
    ['a rare word', RARE],
    ['a word no row holds', 'qqxzv'],
    ['two words, one rare', `${RARE} paid`],
  ])('%s reads the trigram index, never every row', async (_what, q) => {
    const plan = await listPagePlan(t.db, owner, { q });
    const reads = transactionReads(plan);
    expect(reads).toContain('Bitmap Index Scan transactions_search_trgm');
    expect(reads).not.toContain('Seq Scan');
    expect(reads).not.toContain('Index Scan transactions_newest');
  });

  it('answers exactly the rows whose search_text holds the word (substring, any case), newest first', async () => {
    for (const q of [RARE, RARE.toUpperCase().slice(2, 9), 'qqxzv', 'lunch 1', 'vendor 9']) {
      // queryTerms splits the words; each must appear in search_text (lower-cased), anywhere.
      const terms = queryTerms(q);
      const expected = await t.db.query<{ id: string }>(
        `SELECT id::text FROM transactions WHERE business_id = $1 AND NOT deleted
            AND (SELECT bool_and(strpos(search_text, term) > 0) FROM unnest($2::text[]) AS term)
          ORDER BY occurred_at DESC, id DESC LIMIT 50`, [f.businessId, terms]);
      expect(terms.length).toBeGreaterThan(0);
      const got = await queryTransactions(t.db, f.businessId, { all: true }, { filter: { q }, sort: 'occurred_desc', pageSize: 50, includeCount: false });
      expect(got.data.map((d) => (d as { id: string }).id), q).toEqual(expected.map((r) => r.id));
    }
    const rare = await queryTransactions(t.db, f.businessId, { all: true }, { filter: { q: RARE }, sort: 'occurred_desc', pageSize: 50, includeCount: true });
    expect(rare.total_count).toBe(RARE_ROWS);
  });
});
