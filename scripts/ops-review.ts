/**
 * `npm run ops:review -- <application_id> [approve|reject]` (issue 31, lead's decision 4): with the id alone,
 * prints a financing application's document requests and what was uploaded for them; with an
 * action, clears an application waiting in MANUAL_REVIEW (server/domain/applications/ops-review.ts). Opens
 * the database as server/main.ts does: DATABASE_URL (PostgreSQL), else DATA_DIR (PGlite, default
 * ./data); does not migrate. Exits 1 with the reason when refused.
 */
import { openDb } from '../server/db/db.ts';
import { runOpsReview } from '../server/domain/applications/ops-review.ts';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = process.env.DATA_DIR || './data';
  const db = await openDb(databaseUrl ? { databaseUrl } : { dataDir });
  try {
    console.log(await runOpsReview(db, process.argv.slice(2), new Date()));
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
