/**
 * `npm run seed -- --transactions N [--reimbursements M] [--bills B] [--without-receipts] [--now ISO] [--business-name X]
 *   [--email-domain D] [--seed S] [--reset]`
 *
 * Reimbursements: `--reimbursements`, else env SEED_REIMBURSEMENTS, else one per five
 * transactions (at most 100,000). Bills likewise: `--bills`, else env SEED_BILLS, else one per five
 * transactions (at most 100,000), with the suppliers they need. Receipts for ≈65 % of the card transactions older than a week
 * unless `--without-receipts`.
 *
 * Opens the database the way server/main.ts does (DATABASE_URL → PostgreSQL, else PGlite in
 * DATA_DIR, default ./data), applies migrations, and seeds the demo business. It refuses when the
 * business is already there, unless --reset wipes the business data first.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { openDb } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { defaultBills } from './bills.ts';
import { defaultReimbursements } from './reimbursements.ts';
import { DemoAlreadySeededError, seedDemo, wipeBusinessData } from './seed.ts';
import type { SeedDemoResult } from './seed.ts';
import { DEMO_PASSWORD } from './types.ts';
import { surfaceAccounts } from './surfaces-context.ts';

const USAGE =
  'Usage: npm run seed -- --transactions N [--reimbursements N] [--bills N] [--without-receipts] [--now ISO-8601] [--business-name NAME] [--email-domain DOMAIN] [--seed INT] [--reset]';

const argsSchema = z.object({
  transactions: z.coerce.number().int().min(0).max(5_000_000).default(20_000),
  reimbursements: z.coerce.number().int().min(0).max(1_000_000).optional(),
  bills: z.coerce.number().int().min(0).max(1_000_000).optional(),
  'without-receipts': z.boolean().default(false),
  now: z.iso.datetime({ offset: true }).or(z.iso.date()).transform((s) => new Date(s)).optional(),
  'business-name': z.string().trim().min(1).max(200).optional(),
  'email-domain': z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/i, 'must be a domain like demo.test')
    .optional(),
  seed: z.coerce.number().int().min(0).max(0xffffffff).optional(),
  reset: z.boolean().default(false),
  help: z.boolean().default(false),
});
export type SeedCliArgs = z.infer<typeof argsSchema>;

/**
 * Parses argv (without node and script) into validated options, or a message for the user.
 * `--reimbursements` falls back to env SEED_REIMBURSEMENTS (checked the same way), then to
 * `defaultReimbursements(transactions)`: after parsing it is always set.
 */
export function parseSeedArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = {},
): { ok: true; args: SeedCliArgs & { reimbursements: number; bills: number } } | { ok: false; message: string } {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        transactions: { type: 'string', short: 'n' },
        reimbursements: { type: 'string' },
        bills: { type: 'string' },
        'without-receipts': { type: 'boolean' },
        now: { type: 'string' },
        'business-name': { type: 'string' },
        'email-domain': { type: 'string' },
        seed: { type: 'string' },
        reset: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    return { ok: false, message: `${(err as Error).message}\n${USAGE}` };
  }
  const fromEnv = { reimbursements: 'SEED_REIMBURSEMENTS', bills: 'SEED_BILLS' } as const;
  const tookEnv = new Set<string>();
  for (const [key, name] of Object.entries(fromEnv)) {
    if (values[key] === undefined && env[name]) {
      values[key] = env[name];
      tookEnv.add(key);
    }
  }
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue?.path[0] ?? 'arguments');
    const name = tookEnv.has(key) ? `${key} (env ${fromEnv[key as keyof typeof fromEnv]})` : key;
    return { ok: false, message: `--${name}: ${issue?.message ?? 'invalid'}\n${USAGE}` };
  }
  const args = parsed.data;
  return {
    ok: true,
    args: { ...args, reimbursements: args.reimbursements ?? defaultReimbursements(args.transactions), bills: args.bills ?? defaultBills(args.transactions) },
  };
}

function report(result: SeedDemoResult, storage: string, totalMs: number): string {
  const c = result.counts;
  const { generateMs, hashMs, insertMs } = result.timings;
  const lines = [
    `Seeded business ${result.businessId} into ${storage} in ${(totalMs / 1000).toFixed(1)} s`,
    `  (generate ${Math.round(generateMs)} ms, waiting for password hashes ${Math.round(hashMs)} ms, insert ${Math.round(insertMs)} ms)`,
    `  ${c.transactions} transactions, ${c.users} users, ${c.cards} cards (${c.cardRequests} card requests), ${c.departments} departments, ` +
      `${c.locations} locations, ${c.glAccounts} GL accounts, ${c.trackingCategories} tracking categories, ` +
      `${c.reimbursements} reimbursements (${c.approvals} approvals, ${c.payments} payments), ${c.vendors} vendors, ${c.bills} bills, ` +
      `${c.receipts} receipts (${(result.receiptBytes / 1_048_576).toFixed(1)} MiB of files), ` +
      `${c.spendRequests} spend requests, ${c.spendAllocations} budgets, ${c.purchaseOrders} purchase orders`,
    `  change_seq 1..${result.maxChangeSeq}`,
    '',
    `Demo accounts (password ${DEMO_PASSWORD}):`,
    ...result.accounts.map((a) => `  ${a.email.padEnd(28)} ${a.role}${a.is_manager ? ' (manager)' : ''}  ${a.name}`),
    ...surfaceAccounts(result.accounts[0]?.email.split('@')[1] ?? 'demo.test')
      .map((a) => `  ${a.email.padEnd(28)} ${a.surface}  ${a.name}${a.password ? '' : ' (no password: a mailed code)'}`),
  ];
  return lines.join('\n');
}

async function runSeedCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parseSeedArgs(argv, env);
  if (!parsed.ok) {
    console.error(parsed.message);
    return 2;
  }
  const { args } = parsed;
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  const dataDir = env.DATA_DIR || './data';
  const storage = databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${dataDir}`;
  const db = await openDb(databaseUrl ? { databaseUrl } : { dataDir });
  try {
    await migrate(db);
    if (args.reset) {
      await wipeBusinessData(db);
      console.log(`Wiped all business data in ${storage}.`);
    }
    const started = performance.now();
    const result = await seedDemo(db, {
      transactions: args.transactions,
      reimbursements: args.reimbursements,
      bills: args.bills,
      receipts: !args['without-receipts'],
      now: args.now,
      businessName: args['business-name'],
      emailDomain: args['email-domain'],
      seed: args.seed,
    });
    console.log(report(result, storage, performance.now() - started));
    return 0;
  } catch (err) {
    if (err instanceof DemoAlreadySeededError) {
      console.error(`Nothing to do: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await db.close();
  }
}

// Run only when executed (`tsx server/seed/cli.ts`), not when a test imports the module.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runSeedCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
