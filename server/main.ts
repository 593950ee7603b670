/**
 * `npm start` / `npm run serve`: migrate, seed the demo business on first run, serve API and PWA.
 * Env: PORT (8787), HOST (127.0.0.1), DATA_DIR (./data, PGlite) or DATABASE_URL (PostgreSQL),
 * SEED_TRANSACTIONS (20000), SEED_REIMBURSEMENTS (one per five transactions; receipts are seeded for
 * ≈65 % of the card transactions older than a week), TOKEN_SECRET (else a shared random key in the database),
 * LEDGERLINE_DEV_OUTBOX=1 (keep sent mail readable at GET /v1/public/dev/outbox on loopback; off
 * by default whatever NODE_ENV says, since the mailbox hands out sign-in links and codes),
 * LEDGERLINE_SEED_DEMO=0 (leave an empty database empty), LEDGERLINE_SUPPORT_PASSWORD (the demo
 * seed's support identity; else a random one printed once at seeding), WEB_CONCURRENCY (1; N > 1
 * runs N processes on the one port, needs DATABASE_URL: cluster.ts), LEDGERLINE_DB_READ_POOL and
 * LEDGERLINE_DB_TX_POOL (PostgreSQL connections per process; by default a budget shared by the
 * processes: cluster.ts poolSizes). See startup.ts.
 */
import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { openDb, type Db } from './db/db.ts';
import { mailOrigin } from './http/mail-links.ts';
import { processMailSettings, type MailSettings } from './mail/settings.ts';
import { listen } from './serve.ts';
import { SUPPORT_EMAIL } from './seed/support.ts';
import { DEMO_PASSWORD } from './seed/types.ts';
import { surfaceAccounts } from './seed/surfaces-context.ts';
import { announceReady, poolSizes, superviseWorkers, webConcurrency } from './cluster.ts';
import { startServerJobs } from './cluster-jobs.ts';
import { envInt, prepareDatabase } from './startup.ts';

/** Where each surface's demo account lands (issue 31). */
const SURFACE_LANDING: Record<string, string> = {
  ADVISOR_CONSOLE: 'the advisor console, /console',
  VENDOR_PORTAL: 'the vendor portal, /vendor-portal',
  FINANCING_APPLICATION: 'the financing application, /application/start',
};

const DEMO_ROLES = ['owner', 'admin', 'bookkeeper', 'apclerk', 'manager', 'employee', 'auditor'];

type Settings = { port: number; host: string; databaseUrl: string | undefined; dataDir: string; processes: number; devOutbox: boolean };

function settings(env: NodeJS.ProcessEnv): Settings {
  return {
    port: envInt(env, 'PORT', 8787),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR || './data',
    processes: webConcurrency(env),
    devOutbox: env.LEDGERLINE_DEV_OUTBOX === '1',
  };
}

/** Migrates and seeds on first run; whether the demo accounts exist (to list them). */
async function prepare(db: Db): Promise<boolean> {
  const { seeded } = await prepareDatabase(db, process.env, (line) => console.log(line));
  const [demo] = await db.query<{ n: number }>("SELECT count(*) AS n FROM identities WHERE lower(email) LIKE '%@demo.test'");
  return seeded || Number(demo?.n ?? 0) > 0;
}

function printBanner(s: Settings, url: string, demo: boolean, mail: MailSettings): void {
  console.log(`Ledgerline is running at ${url}`);
  console.log(`Storage: ${s.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${s.dataDir}`}`);
  console.log(s.processes > 1
    ? `Processes: ${s.processes} (WEB_CONCURRENCY), sharing the port; each runs the API and the jobs.`
    : 'Processes: 1 (WEB_CONCURRENCY=N with DATABASE_URL runs N).');
  if (demo) {
    console.log(`Demo accounts (password ${DEMO_PASSWORD}):`);
    for (const role of DEMO_ROLES) console.log(`  ${role}@demo.test`);
    for (const a of surfaceAccounts('demo.test')) console.log(`  ${a.email}: ${a.name} (${SURFACE_LANDING[a.surface]}${a.password ? '' : '; no password: a code mailed to it'})`);
    console.log(`  ${SUPPORT_EMAIL}: support, with the password printed at seeding (or LEDGERLINE_SUPPORT_PASSWORD) and a second factor;`);
    console.log('    it may act as a person only while their business grants support access (Settings → Support access).');
  }
  console.log(s.devOutbox
    ? 'Development mailbox: on (GET /v1/public/dev/outbox, loopback only); codes and links also appear in this log.'
    : mail.smtpUrl
      ? 'Mail is sent over SMTP (SMTP_URL) from a queue in the database, retried until the mail server takes it.'
      : 'Mail (codes, sign-in links, invites) appears in this log; LEDGERLINE_DEV_OUTBOX=1 also keeps it readable over HTTP on loopback; SMTP_URL sends it.');
}

/** WEB_CONCURRENCY > 1: prepare the database once, then fork the workers and supervise them. */
async function runPrimary(s: Settings): Promise<void> {
  const db = await openDb({ databaseUrl: s.databaseUrl! });
  const demo = await prepare(db);
  await db.close();
  const workers = superviseWorkers({ count: s.processes, log: (line) => console.log(line) });
  const onSignal = (signal: string) => {
    console.log(`${signal}: draining ${s.processes} processes...`);
    void workers.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  printBanner(s, await workers.ready, demo, processMailSettings());
}

/** One server process: the API and the jobs (alone, or as a cluster worker of runPrimary). */
async function runServer(s: Settings): Promise<void> {
  const worker = cluster.isWorker;
  const db = await openDb(s.databaseUrl ? { databaseUrl: s.databaseUrl, ...poolSizes(process.env, s.processes), warm: true } : { dataDir: s.dataDir });
  // A worker's primary prepared the database before forking it.
  const demo = worker ? false : await prepare(db);
  const mail = processMailSettings();
  const server = await listen({ db, host: s.host, port: s.port, devOutbox: s.devOutbox, distDir: fileURLToPath(new URL('../dist/', import.meta.url)) });
  // Invite and chat links use PUBLIC_URL, else this server's address.
  const linkOrigin = mailOrigin(process.env.PUBLIC_URL || null, { url: server.url });
  const jobs = await startServerJobs(db, { linkOrigin, devOutbox: s.devOutbox, mail });
  if (worker) announceReady(server.url);
  else printBanner(s, server.url, demo, mail);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${worker ? `Worker ${process.pid}: ` : ''}${signal}: shutting down...`);
    await jobs.stop();
    await server.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

async function main(): Promise<void> {
  const s = settings(process.env);
  await (s.processes > 1 && cluster.isPrimary ? runPrimary(s) : runServer(s));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
