/**
 * `npm start` / `npm run serve`: migrate, seed the demo business on first run, serve API and PWA.
 * Env: PORT (8787), HOST (127.0.0.1), DATA_DIR (./data, PGlite) or DATABASE_URL (PostgreSQL),
 * SEED_TRANSACTIONS (20000), SEED_REIMBURSEMENTS (one per five transactions; receipts are seeded for
 * ≈65 % of the card transactions older than a week), TOKEN_SECRET (else a shared random key in the database),
 * LEDGERLINE_DEV_OUTBOX=1 (keep sent mail readable at GET /v1/public/dev/outbox on loopback; off
 * by default whatever NODE_ENV says, since the mailbox hands out sign-in links and codes).
 */
import { fileURLToPath } from 'node:url';
import { openDb } from './db/db.ts';
import { migrate } from './db/migrate.ts';
import { startRecurringBillJob } from './domain/recurring-bills.ts';
import { pruneKeys } from './http/idempotency.ts';
import { listen } from './serve.ts';
import { ensureSupportIdentity, SUPPORT_EMAIL } from './auth/support.ts';
import { defaultBills } from './seed/bills.ts';
import { defaultReimbursements } from './seed/reimbursements.ts';
import { seedDemo } from './seed/seed.ts';
import { DEMO_PASSWORD } from './seed/types.ts';

const DEMO_ROLES = ['owner', 'admin', 'bookkeeper', 'apclerk', 'manager', 'employee', 'auditor'];
const PRUNE_EVERY_MS = 6 * 60 * 60 * 1000;
/** Recurring bill templates are billed on their period's day: a quarter-hour check is prompt enough. */
const RECURRING_BILLS_EVERY_MS = 15 * 60 * 1000;

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return n;
}

async function main(): Promise<void> {
  const port = envInt('PORT', 8787);
  const host = process.env.HOST || '127.0.0.1';
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = process.env.DATA_DIR || './data';
  const db = await openDb(databaseUrl ? { databaseUrl } : { dataDir });
  const applied = await migrate(db);
  if (applied.length > 0) console.log(`Applied migrations: ${applied.join(', ')}`);

  const [{ n }] = (await db.query<{ n: number }>('SELECT count(*) AS n FROM businesses')) as [{ n: number }];
  if (Number(n) === 0) {
    const transactions = envInt('SEED_TRANSACTIONS', 20_000);
    const reimbursements = envInt('SEED_REIMBURSEMENTS', defaultReimbursements(transactions));
    const bills = envInt('SEED_BILLS', defaultBills(transactions));
    console.log(`Seeding the demo business with ${transactions} transactions, ${reimbursements} reimbursements and ${bills} bills...`);
    const result = await seedDemo(db, { transactions, reimbursements, bills, receipts: true });
    console.log(`Seeded business ${result.businessId}.`);
  }
  // The admin-support identity that may impersonate users (idempotent; demo password).
  await ensureSupportIdentity(db, DEMO_PASSWORD);
  await pruneKeys(db).catch(() => 0);
  const prune = setInterval(() => void pruneKeys(db).catch(() => 0), PRUNE_EVERY_MS);
  prune.unref();
  const recurringBills = startRecurringBillJob(db, {
    now: () => Date.now(), everyMs: RECURRING_BILLS_EVERY_MS, onError: (err) => console.error('Recurring bills:', err),
  });

  const devOutbox = process.env.LEDGERLINE_DEV_OUTBOX === '1';
  const server = await listen({ db, host, port, devOutbox, distDir: fileURLToPath(new URL('../dist/', import.meta.url)) });
  console.log(`Ledgerline is running at ${server.url}`);
  console.log(`Storage: ${databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${dataDir}`}`);
  console.log(`Demo accounts (password ${DEMO_PASSWORD}):`);
  for (const role of DEMO_ROLES) console.log(`  ${role}@demo.test`);
  console.log(`  ${SUPPORT_EMAIL} (support: may impersonate)`);
  console.log(devOutbox
    ? 'Development mailbox: on (GET /v1/public/dev/outbox, loopback only); codes and links also appear in this log.'
    : 'Mail (codes, sign-in links, invites) appears in this log; LEDGERLINE_DEV_OUTBOX=1 also keeps it readable over HTTP on loopback.');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down...`);
    clearInterval(prune);
    recurringBills.stop();
    await server.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
