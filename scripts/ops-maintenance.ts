/**
 * `npm run ops:maintenance -- on --until <iso> [--message <text>] | off | status` (issue 32): the
 * instance's scheduled maintenance window (server/domain/maintenance.ts). While on, every write
 * under /v1/auth answers 503 INFRA_7001 with Retry-After. Opens the database as server/main.ts
 * does: DATABASE_URL (PostgreSQL), else DATA_DIR (PGlite, default ./data); does not migrate.
 */
import { openDb } from '../server/db/db.ts';
import { runMaintenanceCommand } from '../server/domain/maintenance.ts';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = process.env.DATA_DIR || './data';
  const db = await openDb(databaseUrl ? { databaseUrl } : { dataDir });
  try {
    console.log(await runMaintenanceCommand(db, process.argv.slice(2), new Date()));
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
