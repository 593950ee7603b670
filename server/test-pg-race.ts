/**
 * The harness of the PostgreSQL race tests (`*.pg.test.ts`): two API processes on one fresh
 * database (each with its own pool, as separate server processes would), migrated, with one
 * fixture business and its admin signed in; closed whatever the test did.
 */
import { migrate } from './db/migrate.ts';
import { twoProcessesOnOnePg, type TwoProcesses } from './test-app.ts';
import { makeBusiness, signIn, type Fixture } from './test-fixtures.ts';

export type PgRace = Omit<TwoProcesses, 'close'> & {
  f: Fixture;
  /** The fixture admin's token, signed in on process A. */
  admin: string;
};

export async function withPgBusiness<T>(opts: { transactions?: number; operating?: Record<string, number> }, run: (ctx: PgRace) => Promise<T>): Promise<T> {
  const procs = await twoProcessesOnOnePg();
  try {
    await migrate(procs.dbA);
    const f = await makeBusiness(procs.dbA, { transactions: opts.transactions ?? 0, ...(opts.operating && { operating: opts.operating }) });
    const admin = await signIn(procs.appA, f.email('admin'));
    return await run({ ...procs, f, admin });
  } finally {
    await procs.close();
  }
}

