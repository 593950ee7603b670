/**
 * What `npm start` does to its database before serving: migrate, and seed the demo business (with
 * its support identity) on a database without businesses. Kept apart from main.ts so tests can
 * run it on a real database. Nothing here creates an identity on a database that already holds a
 * business, or when LEDGERLINE_SEED_DEMO=0: no account with a known password, ever.
 */
import type { Db } from './db/db.ts';
import { migrate } from './db/migrate.ts';
import { hashPassword, type ScryptParams } from './auth/password.ts';
import { defaultBills } from './seed/bills.ts';
import { defaultReimbursements } from './seed/reimbursements.ts';
import { seedDemo } from './seed/seed.ts';
import { seedSupportIdentity, SUPPORT_EMAIL, supportPassword } from './seed/support.ts';

export type StartupEnv = Partial<Record<
  'SEED_TRANSACTIONS' | 'SEED_REIMBURSEMENTS' | 'SEED_BILLS' | 'LEDGERLINE_SEED_DEMO' | 'LEDGERLINE_SUPPORT_PASSWORD', string
>>;

export function envInt(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return n;
}

/** Migrates and, on a database without businesses, seeds the demo. Returns whether it seeded. */
export async function prepareDatabase(
  db: Db,
  env: StartupEnv,
  log: (line: string) => void,
  /** Tests: no receipts, a cheap scrypt. */
  opts: { receipts?: boolean; scrypt?: ScryptParams } = {},
): Promise<{ seeded: boolean }> {
  const applied = await migrate(db);
  if (applied.length > 0) log(`Applied migrations: ${applied.join(', ')}`);
  const [{ n }] = (await db.query<{ n: number }>('SELECT count(*) AS n FROM businesses')) as [{ n: number }];
  if (Number(n) > 0) return { seeded: false };
  if (env.LEDGERLINE_SEED_DEMO === '0') {
    log('LEDGERLINE_SEED_DEMO=0: the database is left empty (no demo business, no accounts).');
    return { seeded: false };
  }
  // Checked before seeding anything: a refused LEDGERLINE_SUPPORT_PASSWORD leaves the database empty.
  const support = supportPassword(env.LEDGERLINE_SUPPORT_PASSWORD);
  const transactions = envInt(env, 'SEED_TRANSACTIONS', 20_000);
  const reimbursements = envInt(env, 'SEED_REIMBURSEMENTS', defaultReimbursements(transactions));
  const bills = envInt(env, 'SEED_BILLS', defaultBills(transactions));
  log(`Seeding the demo business with ${transactions} transactions, ${reimbursements} reimbursements and ${bills} bills...`);
  const result = await seedDemo(db, {
    transactions, reimbursements, bills, receipts: opts.receipts ?? true,
    ...(opts.scrypt && { hashPassword: (password: string) => hashPassword(password, opts.scrypt) }),
  });
  log(`Seeded business ${result.businessId}.`);
  await seedSupportIdentity(db, support.password, opts.scrypt);
  log(support.generated
    ? `Support identity ${SUPPORT_EMAIL}: password ${support.password} (shown this once; set LEDGERLINE_SUPPORT_PASSWORD to choose it). ` +
      'Its first sign-in must enrol a second factor; it can act as a person only while their business grants support access.'
    : `Support identity ${SUPPORT_EMAIL}: password from LEDGERLINE_SUPPORT_PASSWORD. ` +
      'Its first sign-in must enrol a second factor; it can act as a person only while their business grants support access.');
  return { seeded: true };
}
