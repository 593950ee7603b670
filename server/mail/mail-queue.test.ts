import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { claimDue } from '../core/leased-queue.ts';
import { openTestDb, testDatabases, type TestDb } from '../test-db.ts';
import { sendMail } from '../auth/email-otp.ts';
import { deliverDueMail, MAIL_QUEUE, smtpTransport, startMailJob, type MailTransport } from './delivery.ts';
import { enqueueMail } from './outbox.ts';
import { MailTemplateError } from './templates.ts';
import type { MailSettings } from './settings.ts';

type Received = { to: string; raw: string };

/** A real SMTP server (smtp-server) on a free loopback port, keeping every message it accepts. */
async function startSmtp(port = 0): Promise<{ server: SMTPServer; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true, allowInsecureAuth: true, disabledCommands: ['STARTTLS'], logger: false,
    onAuth: (auth, _s, cb) => cb(null, { user: auth.username }),
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return { server, port: (server.server.address() as { port: number }).port, received };
}

const stopSmtp = (s: SMTPServer) => new Promise<void>((resolve) => s.close(() => resolve()));

async function freePort(): Promise<number> {
  const probe: Server = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const settingsFor = (port: number): MailSettings => ({ smtpUrl: `smtp://robot:pw@127.0.0.1:${port}`, from: 'Ledgerline <no-reply@ledgerline.test>' });
const quiet = { log: () => undefined };

describe.each(await testDatabases())('mail queue over SMTP (%s)', (kind) => {
  let t: TestDb;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let settings: MailSettings;
  let clock: number;
  const now = () => clock;
  beforeAll(async () => {
    t = await openTestDb(kind, { poolSize: 4 });
    smtp = await startSmtp();
    settings = settingsFor(smtp.port);
  });
  afterAll(async () => {
    await stopSmtp(smtp.server);
    await t.close();
  });
  beforeEach(async () => {
    clock = Date.now() + 1000;
    smtp.received.length = 0;
    await t.db.query('DELETE FROM mail_outbox');
  });

  const enqueue = (to: string, subject = 'Hello', body = 'Your code is 123456.') =>
    t.db.transaction((tx) => sendMail({ devOutbox: false, mail: settings, ...quiet }, tx, to, subject, body));
  const rows = () => t.db.query<{ state: string; attempts: number; body_text: string | null; accepted_at: unknown; last_error: string | null }>(
    'SELECT state, attempts, body_text, accepted_at, last_error FROM mail_outbox ORDER BY created_at');

  it('delivers with the right headers and bodies, then empties the stored bodies', async () => {
    await t.db.transaction((tx) => enqueueMail({ devOutbox: false, mail: settings, ...quiet }, tx, {
      to: 'maya@example.com', template: 'approval_waiting',
      values: { title: 'Maya Chen’s claim for $42.00 is waiting for your approval', details: 'Team lunch', link: 'https://app.test/approvals?open=a1' },
    }));
    const transport = smtpTransport(settings.smtpUrl!);
    expect(await deliverDueMail(t.db, { transport, settings, now })).toEqual({ sent: 1, retried: 0, failed: 0 });
    transport.close();
    expect(smtp.received).toHaveLength(1);
    const { raw, to } = smtp.received[0]!;
    expect(to).toBe('maya@example.com');
    expect(raw).toMatch(/^From: Ledgerline <no-reply@ledgerline\.test>/m);
    expect(raw).toMatch(/^To: maya@example\.com/m);
    expect(raw).toMatch(/^Subject: /m);
    expect(raw).toMatch(/^Message-ID: <[0-9a-f-]{36}@ledgerline\.test>/m);
    expect(raw).toContain('multipart/alternative');
    expect(raw).toContain('text/html');
    expect(raw).toContain('Team lunch');
    expect(raw).toMatch(/https:\/\/app\.test\/approvals\?open=(3D)?a1/);
    expect(await rows()).toMatchObject([{ state: 'sent', attempts: 1, body_text: null }]);
  });

  it('refuses a template with a missing value at enqueue, and the transaction leaves nothing', async () => {
    await enqueue('a@example.com');
    const attempt = t.db.transaction(async (tx) => {
      await sendMail({ devOutbox: false, mail: settings, ...quiet }, tx, 'c@example.com', 'Hi', 'Body');
      await enqueueMail({ devOutbox: false, mail: settings, ...quiet }, tx, { to: 'b@example.com', template: 'invite', values: {
        business: 'Acme', invited_by: 'Dana Lee', via: 'person', link: undefined as unknown as string, expires: '7 December 2026',
      } });
    });
    await expect(attempt).rejects.toThrow(MailTemplateError);
    await expect(attempt).rejects.toThrow('Mail template "invite" needs a value for "link"');
    await expect(t.db.transaction((tx) => enqueueMail({ devOutbox: false, mail: settings, ...quiet }, tx, {
      to: 'b@example.com', template: 'sign_in_code', values: { code: 'undefined' },
    }))).rejects.toThrow(MailTemplateError);
    // The first enqueue committed on its own; the failing transaction rolled back entirely (its first mail too).
    expect((await rows()).length).toBe(1);
  });

  it('a rolled-back request sends nothing', async () => {
    await expect(t.db.transaction(async (tx) => {
      await sendMail({ devOutbox: false, mail: settings, ...quiet }, tx, 'x@example.com', 'Hi', 'Body');
      throw new Error('request failed');
    })).rejects.toThrow('request failed');
    const transport = smtpTransport(settings.smtpUrl!);
    expect((await deliverDueMail(t.db, { transport, settings, now })).sent).toBe(0);
    transport.close();
    expect(smtp.received).toHaveLength(0);
  });

  it('SMTP down: retried with doubling backoff, then delivered once it answers', async () => {
    const port = await freePort();
    const down = settingsFor(port);
    await t.db.transaction((tx) => sendMail({ devOutbox: false, mail: down, ...quiet }, tx, 'ops@example.com', 'Retry me', 'Body'));
    const transport = smtpTransport(down.smtpUrl!);
    expect(await deliverDueMail(t.db, { transport, settings: down, now })).toMatchObject({ sent: 0, retried: 1 });
    const [first] = await t.db.query<{ run_after: Date; last_error: string }>('SELECT run_after, last_error FROM mail_outbox');
    expect(new Date(first!.run_after).getTime() - clock).toBe(30_000);
    expect(first!.last_error).toMatch(/ECONNREFUSED|connect/i);
    // Not due yet: nothing is tried.
    clock += 29_000;
    expect(await deliverDueMail(t.db, { transport, settings: down, now })).toEqual({ sent: 0, retried: 0, failed: 0 });
    clock += 1_000;
    expect((await deliverDueMail(t.db, { transport, settings: down, now })).retried).toBe(1);
    const [second] = await t.db.query<{ run_after: Date }>('SELECT run_after FROM mail_outbox');
    expect(new Date(second!.run_after).getTime() - clock).toBe(60_000);
    // The server comes up on that port.
    const late = await startSmtp(port);
    clock += 60_000;
    expect((await deliverDueMail(t.db, { transport, settings: down, now })).sent).toBe(1);
    transport.close();
    await stopSmtp(late.server);
    expect(late.received).toHaveLength(1);
    expect(await rows()).toMatchObject([{ state: 'sent', attempts: 3 }]);
  });

  it('a permanent refusal (5xx) fails at once; spent attempts end as failed', async () => {
    await enqueue('nobody@example.com');
    const refusing: MailTransport = {
      send: () => Promise.reject(Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550 })), close: () => undefined,
    };
    expect(await deliverDueMail(t.db, { transport: refusing, settings, now, ...quiet })).toMatchObject({ failed: 1 });
    expect(await rows()).toMatchObject([{ state: 'failed', attempts: 1, last_error: '550 mailbox unavailable' }]);
  });

  it('a restart after the claim: the new process delivers it exactly once', async () => {
    await enqueue('restart@example.com');
    // The first process claims the row and dies before sending.
    expect(await claimDue(t.db, MAIL_QUEUE, new Date(clock), 10)).toHaveLength(1);
    const transport = smtpTransport(settings.smtpUrl!);
    expect((await deliverDueMail(t.db, { transport, settings, now })).sent).toBe(0);
    clock += MAIL_QUEUE.leaseMs;
    expect((await deliverDueMail(t.db, { transport, settings, now })).sent).toBe(1);
    clock += MAIL_QUEUE.leaseMs * 10;
    expect((await deliverDueMail(t.db, { transport, settings, now })).sent).toBe(0);
    transport.close();
    expect(smtp.received).toHaveLength(1);
  });

  it('a restart after the SMTP server accepted it (before completing): never sent again', async () => {
    await enqueue('accepted@example.com');
    // The first process sends and records the acceptance, then dies before completing the row.
    const real = smtpTransport(settings.smtpUrl!);
    const dying: MailTransport = { send: (m) => real.send(m), close: () => undefined };
    const claimed = await claimDue<{ id: string; attempts: number }>(t.db, MAIL_QUEUE, new Date(clock), 10);
    const [row] = await t.db.query<{ recipient: string; subject: string; body_text: string; body_html: string; message_id: string }>(
      'SELECT recipient, subject, body_text, body_html, message_id FROM mail_outbox WHERE id = $1', [claimed[0]!.id]);
    await dying.send({ from: settings.from, to: row!.recipient, subject: row!.subject, text: row!.body_text, html: row!.body_html, messageId: row!.message_id });
    await t.db.query('UPDATE mail_outbox SET accepted_at = now() WHERE id = $1', [claimed[0]!.id]);
    clock += MAIL_QUEUE.leaseMs;
    expect((await deliverDueMail(t.db, { transport: real, settings, now })).sent).toBe(1);
    real.close();
    expect(smtp.received).toHaveLength(1);
    expect(await rows()).toMatchObject([{ state: 'sent', attempts: 2, body_text: null }]);
  });

  it('two mail jobs on one database never send one mail twice, kicked by the commit', async () => {
    const [a, b] = await Promise.all([startMailJob(t.db, { settings, now }), startMailJob(t.db, { settings, now })]);
    for (let i = 0; i < 12; i++) await enqueue(`p${i}@example.com`, `Mail ${i}`);
    // Kicked after each commit (LISTEN): no timer needed; wait for both jobs to drain.
    for (let i = 0; i < 100 && smtp.received.length < 12; i++) await new Promise((r) => setTimeout(r, 50));
    await Promise.all([a!.runNow(), b!.runNow()]);
    await Promise.all([a!.stop(), b!.stop()]);
    expect(smtp.received).toHaveLength(12);
    expect(new Set(smtp.received.map((m) => m.to)).size).toBe(12);
    expect((await rows()).every((r) => r.state === 'sent')).toBe(true);
  });
});
