/**
 * What does the field-change history (issue 24, migration 033) cost a bulk writer?
 * `npx tsx bench/conflict-history.ts --transactions 1000 [--rounds 7] [--pg]`: bulk-codes N
 * transactions (memo + department, every row really changing) in one request-like transaction
 * (actor and device set, as register.ts does), alternating rounds with the history trigger on and
 * off (`ALTER TABLE … DISABLE TRIGGER`), and prints the median of each. `--seed N` instead times
 * seedDemo with N transactions (add `--without-history` for the same without migration 033's triggers).
 * Not part of `npm test`.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { migrate } from '../server/db/migrate.ts';
import { bulkCode } from '../server/domain/coding.ts';
import { applyActing } from '../server/http/acting.ts';
import { seedDemo } from '../server/seed/seed.ts';
import { makeBusiness } from '../server/test-fixtures.ts';
import { openBenchDb } from './open-db.ts';
import { median, roundMs } from './stats.ts';

const { values } = parseArgs({
  options: {
    transactions: { type: 'string' }, rounds: { type: 'string' }, pg: { type: 'boolean' }, seed: { type: 'string' },
    'without-history': { type: 'boolean' },
  },
});
const n = Number(values.transactions ?? 1000);
const rounds = Number(values.rounds ?? 7);

const { db, close } = await openBenchDb(values.pg);
try {
  await migrate(db);
  if (values.seed) {
    if (values['without-history']) {
      // The "before": migration 033's triggers dropped.
      const triggers = await db.query<{ tgname: string; relname: string }>(
        `SELECT t.tgname, c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname LIKE '%field_changes'`,
      );
      for (const t of triggers) await db.exec(`DROP TRIGGER ${t.tgname} ON ${t.relname}`);
    }
    const t0 = performance.now();
    await seedDemo(db, { transactions: Number(values.seed) });
    const seedMs = Math.round(performance.now() - t0);
    const [history] = await db.query<{ rows: number }>('SELECT count(*)::int AS rows FROM field_changes');
    console.log(JSON.stringify({ engine: db.kind, seed_transactions: Number(values.seed), history: !values['without-history'], seed_ms: seedMs, history_rows: history?.rows }));
  } else {
    const f = await makeBusiness(db, { transactions: n });
    const acting = { userId: f.users.bookkeeper, device: randomUUID() };
    const samples: Record<'on' | 'off', number[]> = { on: [], off: [] };
    for (let i = 0; i < rounds * 2 + 1; i++) {
      const mode = i % 2 === 0 ? 'on' : 'off';
      await db.exec(`ALTER TABLE transactions ${mode === 'on' ? 'ENABLE' : 'DISABLE'} TRIGGER transactions_field_changes`);
      const t0 = performance.now();
      await db.transaction(async (tx) => {
        await applyActing(tx, acting);
        await bulkCode(tx, f.businessId, { all: true }, {
          transaction_ids: f.allTransactions,
          patch: { memo: `Round ${i}`, department_id: f.departments[i % f.departments.length] },
        });
      });
      const ms = performance.now() - t0;
      if (i > 0) samples[mode].push(ms); // the first round warms the caches
    }
    await db.exec('ALTER TABLE transactions ENABLE TRIGGER transactions_field_changes');
    const [history] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM field_changes WHERE business_id = $1', [f.businessId]);
    const on = median(samples.on);
    const off = median(samples.off);
    console.log(JSON.stringify({
      engine: db.kind, transactions: n, rounds, median_ms_trigger_on: roundMs(on), median_ms_trigger_off: roundMs(off),
      overhead_ms: roundMs(on - off), overhead_pct: Math.round(((on - off) / off) * 100), history_rows: history?.count,
    }));
  }
} finally {
  await close();
}
