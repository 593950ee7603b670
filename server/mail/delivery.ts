import nodemailer from 'nodemailer';
import type { Db, Queryable } from '../db/db.ts';
import { completeLeased, doublingBackoff, drainDue, failLeased, type LeasedQueue } from '../core/leased-queue.ts';
import { MAIL_CHANNEL } from './outbox.ts';
import { startKickedJob, type KickedJob } from '../core/periodic-job.ts';
import type { MailSettings } from './settings.ts';

/**
 * Delivers the mail_outbox (issue 32). Sent once across restarts and processes:
 * - a claim commits before the send (leased-queue.ts), so no other process takes the row while
 *   the lease lasts; the lease (2 min) outlasts the SMTP client's timeouts, so a live send never
 *   loses its row to another process;
 * - the Message-ID is fixed at enqueue, and `accepted_at` is written the moment the SMTP server
 *   accepts the mail (before completing). A row claimed again (its process died after the send)
 *   with accepted_at set completes without sending.
 * The remaining window: a process that dies between the server's "250 accepted" and the
 * accepted_at write (one UPDATE) sends that mail again after the lease ends, with the same
 * Message-ID, which mailbox providers commonly fold into one. Never a mail lost.
 */
export const MAIL_QUEUE: LeasedQueue = {
  table: 'mail_outbox',
  leaseMs: 120_000,
  maxAttempts: 8,
  backoffMs: doublingBackoff(30_000, 3_600_000),
};

export type OutgoingMail = { from: string; to: string; subject: string; text: string; html: string; messageId: string };

/** Sends one mail; throws on refusal. `permanent` on the error marks a refusal retrying cannot mend (SMTP 5xx). */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

type MailRow = {
  id: string; attempts: number; recipient: string; subject: string; body_text: string | null; body_html: string | null;
  message_id: string; accepted_at: Date | string | null;
};

/** nodemailer over SMTP_URL. Timeouts well inside MAIL_QUEUE.leaseMs (see above). */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({ url, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 });
  return {
    async send(m) {
      await transporter.sendMail({ from: m.from, to: m.to, subject: m.subject, text: m.text, html: m.html, messageId: m.messageId });
    },
    close: () => transporter.close(),
  };
}

/** An SMTP 5xx answer (mailbox unknown, refused) will not change by retrying. */
function isPermanent(err: unknown): boolean {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

const wipeBodies = (db: Queryable, id: string) =>
  db.query('UPDATE mail_outbox SET body_text = NULL, body_html = NULL WHERE id = $1', [id]);

export type DeliverOptions = { transport: MailTransport; settings: MailSettings; now: () => number; log?: (line: string) => void };

async function deliverOne(db: Queryable, row: MailRow, opts: DeliverOptions): Promise<'sent' | 'queued' | 'failed' | null> {
  const now = () => new Date(opts.now());
  if (row.accepted_at === null) {
    try {
      await opts.transport.send({
        from: opts.settings.from, to: row.recipient, subject: row.subject,
        text: row.body_text ?? '', html: row.body_html ?? '', messageId: row.message_id,
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return failLeased(db, MAIL_QUEUE, row, now(), message, { final: isPermanent(err) });
    }
    // Recorded at once, apart from completing: the fact a re-claim checks (see above).
    await db.query('UPDATE mail_outbox SET accepted_at = $2 WHERE id = $1 AND attempts = $3', [row.id, now().toISOString(), row.attempts]);
  }
  const done = await completeLeased(db, MAIL_QUEUE, row, now(), 'sent');
  if (done) await wipeBodies(db, row.id);
  return done ? 'sent' : null;
}

/** Claims and delivers due mail until none is left; answers how many were sent. */
export async function deliverDueMail(db: Queryable, opts: DeliverOptions): Promise<{ sent: number; retried: number; failed: number }> {
  const { sent, retried, failed } = await drainDue<MailRow>(db, MAIL_QUEUE, opts.now, (row) => deliverOne(db, row, opts), (row) =>
    (opts.log ?? console.error)(`[ledgerline] mail ${row.message_id} to ${row.recipient} failed for good after ${row.attempts} attempts`));
  return { sent, retried, failed };
}

export type MailJob = KickedJob;

export type MailJobOptions = {
  settings: MailSettings;
  now?: () => number;
  everyMs?: number;
  onError?: (err: unknown) => void;
  /** Tests: a transport of their own; otherwise SMTP from settings. */
  transport?: MailTransport;
};

/**
 * The mail job of one process (`npm start` starts it; null without SMTP_URL, where the log is
 * the delivery): kicked by every committed enqueue (LISTEN on MAIL_CHANNEL) and swept every
 * `everyMs` (30 s) for retries and rows a crashed process left. A kick during a run runs again
 * once it ends, so a mail committed while the last claim came back empty is not left to the sweep.
 */
export async function startMailJob(db: Db, opts: MailJobOptions): Promise<MailJob | null> {
  const url = opts.settings.smtpUrl;
  if (url === null && !opts.transport) return null;
  const transport = opts.transport ?? smtpTransport(url!);
  const now = opts.now ?? Date.now;
  const onError = opts.onError ?? ((err: unknown) => console.error('[ledgerline] mail job', err));
  const job = await startKickedJob(db, MAIL_CHANNEL, () => deliverDueMail(db, { transport, settings: opts.settings, now }), {
    everyMs: opts.everyMs ?? 30_000, onError,
  });
  return {
    runNow: job.runNow,
    async stop() {
      await job.stop();
      transport.close();
    },
  };
}
