/**
 * `npm start` / `npm run serve`: migrate, seed the demo business on first run, serve API and PWA.
 * Env: PORT (8787), HOST (127.0.0.1), DATA_DIR (./data, PGlite) or DATABASE_URL (PostgreSQL),
 * SEED_TRANSACTIONS (20000), SEED_REIMBURSEMENTS (one per five transactions; receipts are seeded for
 * ≈65 % of the card transactions older than a week), TOKEN_SECRET (else a shared random key in the database),
 * LEDGERLINE_DEV_OUTBOX=1 (keep sent mail readable at GET /v1/public/dev/outbox on loopback; off
 * by default whatever NODE_ENV says, since the mailbox hands out sign-in links and codes),
 * LEDGERLINE_SEED_DEMO=0 (leave an empty database empty), LEDGERLINE_SUPPORT_PASSWORD (the demo
 * seed's support identity; else a random one printed once at seeding). See startup.ts.
 */
import { fileURLToPath } from 'node:url';
import { openDb } from './db/db.ts';
import { startBillSettlementJob } from './domain/bill-settlement.ts';
import { startCardSettlementJob } from './domain/card-settlement.ts';
import { startRecurringBillJob } from './domain/recurring-bills.ts';
import { startFlexInstallmentJob } from './domain/flex/installment-job.ts';
import { startAllocationRolloverJob } from './domain/procurement/allocation-rollover.ts';
import { startAutomationJob } from './domain/treasury/automation-job.ts';
import { startTransferSettlementJob } from './domain/treasury/settlement-job.ts';
import { startYieldJob } from './domain/treasury/yield.ts';
import { pruneKeys } from './http/idempotency.ts';
import { absoluteLink, mailOrigin } from './http/mail-links.ts';
import { startMailJob } from './mail/delivery.ts';
import { startChatJob } from './chat/job.ts';
import { startPushJob } from './push/job.ts';
import { loadTokenKey } from './auth/tokens.ts';
import { resolveSsoSettings } from './auth/sso/settings.ts';
import { processMailSettings } from './mail/settings.ts';
import { startAsyncJobs } from './jobs/work.ts';
import { hrisDropWatching, startHrisDropWatcher } from './domain/hris/drop-watcher.ts';
import { startSftpUploads } from './domain/sftp-uploads/uploader.ts';
import { listen } from './serve.ts';
import { SUPPORT_EMAIL } from './seed/support.ts';
import { DEMO_PASSWORD } from './seed/types.ts';
import { surfaceAccounts } from './seed/surfaces-context.ts';

/** Where each surface's demo account lands (issue 31). */
const SURFACE_LANDING: Record<string, string> = {
  ADVISOR_CONSOLE: 'the advisor console, /console',
  VENDOR_PORTAL: 'the vendor portal, /vendor-portal',
  FINANCING_APPLICATION: 'the financing application, /application/start',
};
import { envInt, prepareDatabase } from './startup.ts';

const DEMO_ROLES = ['owner', 'admin', 'bookkeeper', 'apclerk', 'manager', 'employee', 'auditor'];
const PRUNE_EVERY_MS = 6 * 60 * 60 * 1000;
/** Recurring bill templates are billed on their period's day: a quarter-hour check is prompt enough. */
const RECURRING_BILLS_EVERY_MS = 15 * 60 * 1000;
/** Issue 25: scheduled bill payments are sent, and sent ones settled, on their bank day; every 5 minutes keeps the day's turn prompt. */
const BILL_SETTLEMENT_EVERY_MS = 5 * 60 * 1000;
/** Issue 30: a card day settles once it is three days old; hourly is prompt enough. */
const CARD_SETTLEMENT_EVERY_MS = 60 * 60 * 1000;
/** Issue 28: a budget whose month (day, week, year) turned is re-stamped so mirrors show the new interval's "left"; within 5 minutes. */
const ALLOCATION_ROLLOVER_EVERY_MS = 5 * 60 * 1000;
/** Issue 30: flex installments due today are collected from the primary operating account; hourly. */
const FLEX_INSTALLMENTS_EVERY_MS = 60 * 60 * 1000;
/** Issue 30: automation policies (sweeps) run once a UTC day each (their run row is the claim); hourly catches each new day within the hour. */
const AUTOMATION_EVERY_MS = 60 * 60 * 1000;
/** Issue 30: wallet transfers settle on their bank day (every 5 minutes, as bill payments). */
const TRANSFER_SETTLEMENT_EVERY_MS = 5 * 60 * 1000;
/** Issue 30: the investment accounts' daily yield, once per account and day; hourly picks a new day up within the hour. */
const YIELD_EVERY_MS = 60 * 60 * 1000;
/** Issue 32: async jobs (statements) start when enqueued; the sweep retries and picks up what a stopped process left. */
const ASYNC_JOBS_EVERY_MS = 60 * 1000;

async function main(): Promise<void> {
  const port = envInt(process.env, 'PORT', 8787);
  const host = process.env.HOST || '127.0.0.1';
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = process.env.DATA_DIR || './data';
  const db = await openDb(databaseUrl ? { databaseUrl } : { dataDir });
  const { seeded } = await prepareDatabase(db, process.env, (line) => console.log(line));
  const [demo] = await db.query<{ n: number }>("SELECT count(*) AS n FROM identities WHERE lower(email) LIKE '%@demo.test'");
  await pruneKeys(db).catch(() => 0);
  const prune = setInterval(() => void pruneKeys(db).catch(() => 0), PRUNE_EVERY_MS);
  prune.unref();
  const recurringBills = startRecurringBillJob(db, {
    now: () => Date.now(), everyMs: RECURRING_BILLS_EVERY_MS, onError: (err) => console.error('Recurring bills:', err),
  });
  const billSettlement = startBillSettlementJob(db, {
    now: () => Date.now(), everyMs: BILL_SETTLEMENT_EVERY_MS, onError: (err) => console.error('Bill payment settlement:', err),
  });
  const cardSettlement = startCardSettlementJob(db, {
    now: () => Date.now(), everyMs: CARD_SETTLEMENT_EVERY_MS, onError: (err) => console.error('Card settlement:', err),
  });
  const allocationRollover = startAllocationRolloverJob(db, {
    now: () => Date.now(), everyMs: ALLOCATION_ROLLOVER_EVERY_MS, onError: (err) => console.error('Budget interval rollover:', err),
  });
  const automation = startAutomationJob(db, {
    now: () => Date.now(), everyMs: AUTOMATION_EVERY_MS, onError: (err) => console.error('Automation policies (sweeps):', err),
  });

  const flexInstallments = startFlexInstallmentJob(db, {
    now: () => Date.now(), everyMs: FLEX_INSTALLMENTS_EVERY_MS, onError: (err) => console.error('Flex installments:', err),
  });

  const transferSettlement = startTransferSettlementJob(db, {
    now: () => Date.now(), everyMs: TRANSFER_SETTLEMENT_EVERY_MS, onError: (err) => console.error('Transfer settlement:', err),
  });
  const yieldAccrual = startYieldJob(db, {
    now: () => Date.now(), everyMs: YIELD_EVERY_MS, onError: (err) => console.error('Investment yield:', err),
  });

  const asyncJobs = await startAsyncJobs(db, {
    now: () => Date.now(), everyMs: ASYNC_JOBS_EVERY_MS, onError: (err) => console.error('Async jobs:', err),
  });
  // Issue 32: with SMTP_URL, queued mail is sent after each commit and retried with backoff (else it is written to this log).
  const mailSettings = processMailSettings();
  const mailJob = await startMailJob(db, { settings: mailSettings });

  const devOutbox = process.env.LEDGERLINE_DEV_OUTBOX === '1';
  const server = await listen({ db, host, port, devOutbox, distDir: fileURLToPath(new URL('../dist/', import.meta.url)) });
  // Issue 32: the HRIS drop folder (HRIS_DROP_DIR), looked at every HRIS_DROP_POLL_SECONDS; its invite links use PUBLIC_URL, else this server's address.
  const linkOrigin = mailOrigin(process.env.PUBLIC_URL || null, { url: server.url });
  // The outbound rule's loopback opt-in and DNS resolver, shared by the chat posts and SFTP uploads.
  const sso = resolveSsoSettings();
  // Issue 32: Slack / Teams posts, kicked after each commit that queued one and retried with backoff.
  let chatKey: Promise<Uint8Array> | undefined;
  const chatJob = await startChatJob(db, {
    net: { allowLoopbackHttp: sso.allowLoopbackHttp, dnsServer: sso.dnsServer }, tokenKey: () => (chatKey ??= loadTokenKey(db)), origin: linkOrigin,
  });
  // Issue 32: Web Push of new notifications to the person's subscribed browsers (VAPID subject: LEDGERLINE_PUSH_SUBJECT, else PUBLIC_URL when https).
  const pushJob = await startPushJob(db, {
    net: { allowLoopbackHttp: sso.allowLoopbackHttp, dnsServer: sso.dnsServer },
    subject: process.env.LEDGERLINE_PUSH_SUBJECT || (linkOrigin.startsWith('https://') ? linkOrigin : 'mailto:push@ledgerline.invalid'),
  });
  const hrisDrop = hrisDropWatching() ? startHrisDropWatcher(db, {
    dir: process.env.HRIS_DROP_DIR!.trim(), now: () => Date.now(),
    everyMs: envInt(process.env, 'HRIS_DROP_POLL_SECONDS', 30) * 1000,
    onError: (err) => console.error('HRIS drop folder:', err),
    mail: { deps: { devOutbox }, link: (path) => absoluteLink(linkOrigin, path) },
  }) : null;
  // Issue 32: scheduled SFTP transaction uploads (and "Upload now", heard through NOTIFY); the outbound rule's loopback opt-in and resolver.
  const sftpUploads = await startSftpUploads(db, {
    now: () => Date.now(), everyMs: envInt(process.env, 'SFTP_UPLOAD_POLL_SECONDS', 60) * 1000,
    net: { allowLoopback: sso.allowLoopbackHttp, dnsServer: sso.dnsServer }, onError: (err) => console.error('SFTP uploads:', err),
  });
  console.log(`Ledgerline is running at ${server.url}`);
  console.log(`Storage: ${databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${dataDir}`}`);
  if (seeded || Number(demo?.n ?? 0) > 0) {
    console.log(`Demo accounts (password ${DEMO_PASSWORD}):`);
    for (const role of DEMO_ROLES) console.log(`  ${role}@demo.test`);
    for (const a of surfaceAccounts('demo.test')) console.log(`  ${a.email}: ${a.name} (${SURFACE_LANDING[a.surface]}${a.password ? '' : '; no password: a code mailed to it'})`);
    console.log(`  ${SUPPORT_EMAIL}: support, with the password printed at seeding (or LEDGERLINE_SUPPORT_PASSWORD) and a second factor;`);
    console.log('    it may act as a person only while their business grants support access (Settings → Support access).');
  }
  console.log(devOutbox
    ? 'Development mailbox: on (GET /v1/public/dev/outbox, loopback only); codes and links also appear in this log.'
    : mailSettings.smtpUrl
      ? 'Mail is sent over SMTP (SMTP_URL) from a queue in the database, retried until the mail server takes it.'
      : 'Mail (codes, sign-in links, invites) appears in this log; LEDGERLINE_DEV_OUTBOX=1 also keeps it readable over HTTP on loopback; SMTP_URL sends it.');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down...`);
    clearInterval(prune);
    recurringBills.stop();
    billSettlement.stop();
    cardSettlement.stop();
    allocationRollover.stop();
    flexInstallments.stop();
    automation.stop();
    transferSettlement.stop();
    yieldAccrual.stop();
    hrisDrop?.stop();
    sftpUploads.stop();
    await asyncJobs.stop();
    await mailJob?.stop();
    await chatJob.stop();
    await pushJob.stop();
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
