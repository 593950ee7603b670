/**
 * The periodic and queued jobs every server process runs (`npm start`, one process or each of
 * WEB_CONCURRENCY workers, cluster.ts). Each is safe to run in several processes against one
 * PostgreSQL at once: the periodic ones claim their work by row locks taken first and unique
 * claims (a bill per template and period, an automation run per policy and day, a yield accrual
 * per account and day, a ledger entry key per settlement), the queues by leased rows
 * (core/leased-queue.ts: mail, chat, push, async jobs, SFTP uploads), the HRIS drop watcher by
 * an import row unique per business and file hash. server/CONTEXT.md "Several processes" lists each
 * with its two-process test (`cluster-jobs.pg.test.ts` is the mail queue's).
 */
import type { Db } from './db/db.ts';
import { startBillSettlementJob } from './domain/bill-settlement.ts';
import { startCardSettlementJob } from './domain/card-settlement.ts';
import { startRecurringBillJob } from './domain/recurring-bills.ts';
import { startFlexInstallmentJob } from './domain/flex/installment-job.ts';
import { startAllocationRolloverJob } from './domain/procurement/allocation-rollover.ts';
import { startAutomationJob } from './domain/treasury/automation-job.ts';
import { startTransferSettlementJob } from './domain/treasury/settlement-job.ts';
import { startYieldJob } from './domain/treasury/yield.ts';
import { pruneKeys } from './http/idempotency.ts';
import { absoluteLink } from './http/mail-links.ts';
import { startMailJob } from './mail/delivery.ts';
import type { MailSettings } from './mail/settings.ts';
import { startChatJob } from './chat/job.ts';
import { startPushJob } from './push/job.ts';
import { loadTokenKey } from './auth/tokens.ts';
import { resolveSsoSettings } from './auth/sso/settings.ts';
import { startAsyncJobs } from './jobs/work.ts';
import { hrisDropWatching, startHrisDropWatcher } from './domain/hris/drop-watcher.ts';
import { startSftpUploads } from './domain/sftp-uploads/uploader.ts';
import { envInt } from './startup.ts';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
/** Idempotency-Keys older than their window are pruned every 6 hours. */
const PRUNE_EVERY_MS = 6 * HOUR;
/** Recurring bill templates are billed on their period's day: a quarter-hour check is prompt enough. */
const RECURRING_BILLS_EVERY_MS = 15 * MINUTE;
/** Issue 25: scheduled bill payments are sent, and sent ones settled, on their bank day; every 5 minutes keeps the day's turn prompt. */
const BILL_SETTLEMENT_EVERY_MS = 5 * MINUTE;
/** Issue 30: a card day settles once it is three days old; hourly is prompt enough. */
const CARD_SETTLEMENT_EVERY_MS = HOUR;
/** Issue 28: a budget whose month (day, week, year) turned is re-stamped so mirrors show the new interval's "left"; within 5 minutes. */
const ALLOCATION_ROLLOVER_EVERY_MS = 5 * MINUTE;
/** Issue 30: flex installments due today are collected from the primary operating account; hourly. */
const FLEX_INSTALLMENTS_EVERY_MS = HOUR;
/** Issue 30: automation policies (sweeps) run once a UTC day each (their run row is the claim); hourly catches each new day within the hour. */
const AUTOMATION_EVERY_MS = HOUR;
/** Issue 30: wallet transfers settle on their bank day (every 5 minutes, as bill payments). */
const TRANSFER_SETTLEMENT_EVERY_MS = 5 * MINUTE;
/** Issue 30: the investment accounts' daily yield, once per account and day; hourly picks a new day up within the hour. */
const YIELD_EVERY_MS = HOUR;
/** Issue 32: async jobs (statements) start when enqueued; the sweep retries and picks up what a stopped process left. */
const ASYNC_JOBS_EVERY_MS = MINUTE;

export interface ServerJobs { stop(): Promise<void> }

/** Starts every job of a server process; `linkOrigin` is where mailed and posted links point. */
export async function startServerJobs(db: Db, opts: { linkOrigin: string; devOutbox: boolean; mail: MailSettings }): Promise<ServerJobs> {
  const now = () => Date.now();
  const periodic = (everyMs: number, what: string) => ({ now, everyMs, onError: (err: unknown) => console.error(`${what}:`, err) });
  await pruneKeys(db).catch(() => 0);
  const prune = setInterval(() => void pruneKeys(db).catch(() => 0), PRUNE_EVERY_MS);
  prune.unref();
  const sso = resolveSsoSettings();
  const periodicJobs = [
    startRecurringBillJob(db, periodic(RECURRING_BILLS_EVERY_MS, 'Recurring bills')),
    startBillSettlementJob(db, periodic(BILL_SETTLEMENT_EVERY_MS, 'Bill payment settlement')),
    startCardSettlementJob(db, periodic(CARD_SETTLEMENT_EVERY_MS, 'Card settlement')),
    startAllocationRolloverJob(db, periodic(ALLOCATION_ROLLOVER_EVERY_MS, 'Budget interval rollover')),
    startAutomationJob(db, periodic(AUTOMATION_EVERY_MS, 'Automation policies (sweeps)')),
    startFlexInstallmentJob(db, periodic(FLEX_INSTALLMENTS_EVERY_MS, 'Flex installments')),
    startTransferSettlementJob(db, periodic(TRANSFER_SETTLEMENT_EVERY_MS, 'Transfer settlement')),
    startYieldJob(db, periodic(YIELD_EVERY_MS, 'Investment yield')),
    // Issue 32: the HRIS drop folder (HRIS_DROP_DIR), looked at every HRIS_DROP_POLL_SECONDS.
    ...(hrisDropWatching() ? [startHrisDropWatcher(db, {
      ...periodic(envInt(process.env, 'HRIS_DROP_POLL_SECONDS', 30) * 1000, 'HRIS drop folder'),
      dir: process.env.HRIS_DROP_DIR!.trim(),
      mail: { deps: { devOutbox: opts.devOutbox }, link: (path: string) => absoluteLink(opts.linkOrigin, path) },
    })] : []),
    // Issue 32: scheduled SFTP transaction uploads (and "Upload now", heard through NOTIFY).
    await startSftpUploads(db, {
      ...periodic(envInt(process.env, 'SFTP_UPLOAD_POLL_SECONDS', 60) * 1000, 'SFTP uploads'),
      net: { allowLoopback: sso.allowLoopbackHttp, dnsServer: sso.dnsServer },
    }),
  ];
  const asyncJobs = await startAsyncJobs(db, periodic(ASYNC_JOBS_EVERY_MS, 'Async jobs'));
  // Issue 32: with SMTP_URL, queued mail is sent after each commit and retried with backoff (else it is written to this log).
  const mailJob = await startMailJob(db, { settings: opts.mail });
  // Issue 32: Slack / Teams posts, kicked after each commit that queued one and retried with backoff.
  let chatKey: Promise<Uint8Array> | undefined;
  const chatJob = await startChatJob(db, {
    net: { allowLoopbackHttp: sso.allowLoopbackHttp, dnsServer: sso.dnsServer }, tokenKey: () => (chatKey ??= loadTokenKey(db)), origin: opts.linkOrigin,
  });
  // Issue 32: Web Push of new notifications (VAPID subject: LEDGERLINE_PUSH_SUBJECT, else PUBLIC_URL when https).
  const pushJob = await startPushJob(db, {
    net: { allowLoopbackHttp: sso.allowLoopbackHttp, dnsServer: sso.dnsServer },
    subject: process.env.LEDGERLINE_PUSH_SUBJECT || (opts.linkOrigin.startsWith('https://') ? opts.linkOrigin : 'mailto:push@ledgerline.invalid'),
  });
  return {
    async stop() {
      clearInterval(prune);
      await Promise.all(periodicJobs.map((job) => job.stop()));
      await asyncJobs.stop();
      await mailJob?.stop();
      await chatJob.stop();
      await pushJob.stop();
    },
  };
}
