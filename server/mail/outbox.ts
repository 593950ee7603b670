import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db.ts';
import { renderMail, type MailTemplateName, type MailTemplateValues } from './templates.ts';
import { messageIdDomain, processMailSettings, type MailSettings } from './settings.ts';

/** Notified inside the enqueuing transaction: delivered only if it commits, so it kicks the queue after commit. */
export const MAIL_CHANNEL = 'ledgerline_mail';

/** What enqueuing needs: the dev mailbox switch, the log, and (tests) settings other than the environment's. */
export type MailQueueDeps = { devOutbox: boolean; log?: (line: string) => void; mail?: MailSettings };

/** A template and its own typed values (one member per template, so `values` is checked against `template`). */
export type TemplatedMail = { [K in MailTemplateName]: { template: K; values: MailTemplateValues[K] } }[MailTemplateName];

export type MailRequest = TemplatedMail & {
  /** Folded already (auth/email-address.ts foldEmail): mail/ sits below auth/ and does not import it. */
  to: string;
  /** Added to the dev outbox copy only (debit check: the deposits themselves), after the mail's text. */
  devOutboxNote?: string;
};

/**
 * Enqueues one mail inside the caller's transaction `db` (issue 32). The template is rendered
 * first: a missing value throws MailTemplateError and the caller's transaction rolls back.
 * - With SMTP (SMTP_URL): a `queued` row with both bodies and its Message-ID, delivered by the
 *   mail job after commit (pg_notify on MAIL_CHANNEL kicks it; the sweeper retries). The log
 *   line names the mail, never its body (codes, sign-in links).
 * - Without: the server log is the delivery, one line per mail with the body, as before issue 32
 *   (the demo and tests read codes there); the row is recorded `logged` with no bodies, so codes
 *   never sit in the database.
 * The dev outbox (LEDGERLINE_DEV_OUTBOX=1) gets its copy in the same transaction either way.
 */
export async function enqueueMail(deps: MailQueueDeps, db: Queryable, req: MailRequest): Promise<{ id: string; messageId: string }> {
  const mail = renderMail(req.template, req.values as never);
  const settings = deps.mail ?? processMailSettings();
  const to = req.to;
  const id = randomUUID();
  const messageId = `<${id}@${messageIdDomain(settings.from)}>`;
  const log = deps.log ?? console.log;
  const viaSmtp = settings.smtpUrl !== null;
  await db.query(
    `INSERT INTO mail_outbox (id, recipient, template, subject, body_text, body_html, message_id, state, run_after, finished_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now(), CASE WHEN $8 = 'logged' THEN now() END)`,
    [id, to, mail.template, mail.subject, viaSmtp ? mail.text : null, viaSmtp ? mail.html : null, messageId, viaSmtp ? 'queued' : 'logged'],
  );
  if (viaSmtp) {
    log(`[ledgerline] mail to ${req.to}: ${mail.subject} (queued ${messageId})`);
    await db.notify(MAIL_CHANNEL, id);
  } else {
    log(`[ledgerline] mail to ${req.to}: ${mail.subject} — ${mail.text}`);
  }
  if (deps.devOutbox) {
    await db.query('INSERT INTO dev_outbox (recipient, subject, body) VALUES ($1, $2, $3)', [to, mail.subject, req.devOutboxNote ? `${mail.text}\n\n${req.devOutboxNote}` : mail.text]);
  }
  return { id, messageId };
}
