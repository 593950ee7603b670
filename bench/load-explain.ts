/**
 * Issue 33: the plans of the load test's two list calls, as the server runs them.
 *
 *   npx tsx bench/load-explain.ts <DATABASE_URL> [email (owner@demo.test)] [search word (uber)]
 *
 * Runs `queryTransactions` (server/domain/transaction-sql.ts) for the first keyset page, a page
 * 40 pages deep (through its cursor) and a text search, each as the given demo person sees it, with
 * a Queryable that runs `EXPLAIN (ANALYZE, BUFFERS)` of each statement and prints the plan.
 */
import { openDb, type Queryable } from '../server/db/db.ts';
import type { ActingUser } from '../server/core/actor.ts';
import { queryTransactions } from '../server/domain/transaction-sql.ts';
import { visibilityOf } from '../server/domain/visibility.ts';

const [databaseUrl, email = 'owner@demo.test', word = 'uber'] = process.argv.slice(2);
if (!databaseUrl) throw new Error('usage: npx tsx bench/load-explain.ts <DATABASE_URL> [email] [search word]');
const db = await openDb({ databaseUrl });
try {
  const [user] = await db.query<ActingUser>(
    `SELECT u.id::text, u.business_id::text, u.role, u.is_manager, u.user_permissions, u.manager_id::text
       FROM spend_users u JOIN identities i ON i.id = u.identity_id WHERE lower(i.email) = lower($1) LIMIT 1`, [email]);
  if (!user) throw new Error(`no spend user for ${email}`);
  const vis = await visibilityOf(db, user);
  const explaining: Queryable = {
    ...db,
    async query<T>(sql: string, params?: readonly unknown[]) {
      const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params as unknown[]);
      console.log(plan.map((p) => p['QUERY PLAN']).join('\n'));
      return (await db.query(sql, params as unknown[])) as T[];
    },
  };
  const page = (start?: string, q?: string) => queryTransactions(explaining, user.business_id, vis, {
    filter: q ? { q } : {}, sort: 'occurred_desc', pageSize: 50, start, includeCount: false,
  });
  console.log(`\n== first keyset page (${email})`);
  let next = (await page()).page.next ?? undefined;
  for (let i = 0; i < 39 && next; i++) next = (await queryTransactions(db, user.business_id, vis, { filter: {}, sort: 'occurred_desc', pageSize: 50, start: next, includeCount: false })).page.next ?? undefined;
  console.log(`\n== page 41 through its cursor`);
  await page(next);
  console.log(`\n== search "${word}"`);
  await page(undefined, word);
} finally {
  await db.close();
}
