/**
 * The missing-items call at scale (issue 29): seeds the demo as `npm start` does (PGlite, or
 * PostgreSQL with --database-url), prints each demo person's missing-items count under the demo's
 * "Company expense policy", then gives the demo employee 10,000 more card transactions (a third
 * missing something) and times the first page, a later page and the count, warm, median of 5.
 *
 *   npx tsx bench/missing-items.ts [--transactions 20000] [--extra 10000] [--database-url postgres://…]
 */
import { parseArgs } from 'node:util';
import { openDb } from '../server/db/db.ts';
import { listMissingItems, missingItemCount } from '../server/domain/expense-policies/missing-items.ts';
import { prepareDatabase } from '../server/startup.ts';
import { createPgDatabase, DEFAULT_PG_ADMIN_URL } from '../server/testing.ts';

const { values } = parseArgs({ options: {
  transactions: { type: 'string', default: '20000' }, extra: { type: 'string', default: '10000' }, 'database-url': { type: 'string' }, pg: { type: 'boolean' },
} });
const store = values.pg ? await createPgDatabase(values['database-url'] ?? DEFAULT_PG_ADMIN_URL) : null;
const db = await openDb(store ? store.open : {});
try {
  await prepareDatabase(db, { SEED_TRANSACTIONS: values.transactions }, () => {}, { scrypt: { N: 1024, r: 8, p: 1 } });
  const [biz] = await db.query<{ id: string }>('SELECT id::text FROM businesses LIMIT 1');
  const people = await db.query<{ id: string; email: string }>(
    `SELECT id::text, email FROM spend_users WHERE business_id = $1 AND email LIKE ANY (ARRAY['employee@%', 'manager@%', 'admin@%', 'bookkeeper@%']) ORDER BY email`,
    [biz!.id],
  );
  for (const p of people) console.log(`${p.email}: ${await missingItemCount(db, biz!.id, p.id)} missing items`);
  const employee = people.find((p) => p.email.startsWith('employee@'))!;
  const [card] = await db.query<{ id: string }>('SELECT id::text FROM cards WHERE user_id = $1 LIMIT 1', [employee.id]);
  const extra = Number(values.extra);
  await db.query(
    `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, merchant_category, amount, currency, occurred_at, state, memo, change_seq)
     SELECT gen_random_uuid(), $1, $2, $3, 'Bench merchant', 'Restaurants', 2000 + (i * 7919) % 20000, 'USD',
            now() - (i || ' minutes')::interval * 37, 'CLEARED', CASE WHEN i % 3 = 0 THEN NULL ELSE 'memo' END,
            (SELECT change_seq FROM businesses WHERE id = $1)
       FROM generate_series(1, $4::int) AS i`,
    [biz!.id, card!.id, employee.id, extra],
  );
  await db.exec('ANALYZE transactions');
  const time = async (label: string, fn: () => Promise<unknown>) => {
    const ms: number[] = [];
    let out: unknown;
    for (let i = 0; i < 6; i++) {
      const t0 = performance.now();
      out = await fn();
      if (i > 0) ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    console.log(`${label}: median ${ms[2]!.toFixed(1)} ms (min ${ms[0]!.toFixed(1)}, max ${ms.at(-1)!.toFixed(1)})`);
    return out;
  };
  const first = await time(`first page of 50 (with total_count), employee with ${extra} more transactions`, () =>
    listMissingItems(db, biz!.id, employee.id, { page_size: 50 })) as Awaited<ReturnType<typeof listMissingItems>>;
  console.log(`  total_count ${first.total_count}`);
  let start = first.page.next!;
  for (let i = 0; i < 20 && start; i++) start = (await listMissingItems(db, biz!.id, employee.id, { page_size: 50, start })).page.next!;
  await time('page 22 of 50', () => listMissingItems(db, biz!.id, employee.id, { page_size: 50, start }));
  await time('count only (page_size=0)', () => missingItemCount(db, biz!.id, employee.id));
} finally {
  await db.close();
  await store?.dispose();
}
