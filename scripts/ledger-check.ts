/**
 * `npm run ledger:check` (issue 30): proves the ledger from its rows (server/ledger/check.ts:
 * every entry balanced, postings summing to zero per currency, cached balances and daily closings
 * equal to the postings, no wallet account below zero) and prints the report. Opens the database
 * as server/main.ts does: DATABASE_URL (PostgreSQL), else DATA_DIR (PGlite, default ./data); does
 * not migrate. Optional argument: a business id, to check one business. Exits 1 when not ok.
 */
import { openDb } from '../server/db/db.ts';
import { checkLedger, type LedgerReport } from '../server/ledger/check.ts';
import { minorToDecimal } from '../schema/money.ts';

function formatLedgerReport(r: LedgerReport): string {
  const lines = [
    `Ledger ${r.ok ? 'OK' : 'NOT OK'}: ${r.entries} entries, ${r.postings} postings, ${r.accounts} accounts`,
    'Totals per currency (each must be 0):',
    ...(Object.keys(r.totals).length === 0 ? ['  (no postings)'] : Object.entries(r.totals).map(([c, t]) => `  ${c} ${minorToDecimal(t, c)}`)),
  ];
  const problems = [
    ...r.unbalancedEntries.map((u) => `  entry ${u.entry_id} does not balance in ${u.currency || '?'}: sum ${u.sum}, ${u.postings} postings`),
    ...r.wrongBalances.map((w) => `  account ${w.account_id}: cached balance ${w.cached}, postings sum to ${w.postings}`),
    ...r.wrongClosings.map((c) => `  account ${c.account_id}: last daily closing ${c.closing}, balance ${c.balance}`),
    ...r.overdrawn.map((o) => `  wallet account ${o.account_id} is below zero: ${o.balance}`),
  ];
  lines.push(problems.length === 0 ? 'Problems: none' : `Problems (${problems.length}, at most 100 of each kind):`, ...problems);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = process.env.DATA_DIR || './data';
  const businessId = process.argv[2];
  const db = await openDb(databaseUrl ? { databaseUrl } : { dataDir });
  try {
    console.log(`Storage: ${databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${dataDir}`}${businessId ? `, business ${businessId}` : ''}`);
    const report = await checkLedger(db, businessId);
    console.log(formatLedgerReport(report));
    process.exitCode = report.ok ? 0 : 1;
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
