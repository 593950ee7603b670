/**
 * Issue 33: the queued work of several server processes runs once. Two processes (two pools on one
 * PostgreSQL, as WEB_CONCURRENCY workers are) each run the mail job, kicked by the same NOTIFY of
 * every enqueue and swept at once: every mail reaches the transport exactly once (the leased queue,
 * core/leased-queue.ts, which chat posts, Web Push, async jobs and SFTP uploads share). The periodic
 * jobs have their own two-process races (server/CONTEXT.md "Several processes" lists each).
 */
import { describe, expect, it } from 'vitest';
import { sendMail } from './auth/email-otp.ts';
import { migrate } from './db/migrate.ts';
import { startMailJob, type MailTransport, type OutgoingMail } from './mail/delivery.ts';
import type { MailSettings } from './mail/settings.ts';
import { twoProcessesOnOnePg } from './test-app.ts';
import { pgAvailable } from './testing.ts';

const settings: MailSettings = { smtpUrl: 'smtp://unused.invalid:25', from: 'Ledgerline <no-reply@ledgerline.test>' };

/** A transport that takes a few ms per mail (so the two processes' passes overlap) and keeps what it got. */
function countingTransport(got: { process: string; mail: OutgoingMail }[], process: string): MailTransport {
  return {
    async send(mail) {
      await new Promise((r) => setTimeout(r, 3 + Math.random() * 5));
      got.push({ process, mail });
    },
    close: () => undefined,
  };
}

describe.skipIf(!(await pgAvailable()))('the jobs of two server processes on one PostgreSQL', () => {
  it('sends each queued mail once while both processes\' mail jobs are kicked and swept together', async () => {
    const procs = await twoProcessesOnOnePg();
    const { dbA, dbB } = procs;
    const got: { process: string; mail: OutgoingMail }[] = [];
    const jobs = [] as NonNullable<Awaited<ReturnType<typeof startMailJob>>>[];
    try {
      await migrate(dbA);
      for (const [name, db] of [['A', dbA], ['B', dbB]] as const) {
        jobs.push((await startMailJob(db, { settings, transport: countingTransport(got, name), everyMs: 50, onError: (err) => { throw err; } }))!);
      }
      const deps = { devOutbox: false, mail: settings, log: () => undefined };
      // 60 mails in 12 commits from both processes, each commit NOTIFYing both jobs.
      await Promise.all(Array.from({ length: 12 }, (_, c) => (c % 2 ? dbA : dbB).transaction(async (tx) => {
        for (let i = 0; i < 5; i++) await sendMail(deps, tx, `person${c * 5 + i}@example.com`, `Mail ${c * 5 + i}`, 'Body');
      })));
      // Extra kicks from both at once, as the sweep would.
      await Promise.all(jobs.flatMap((j) => [j.runNow(), j.runNow()]));
      const deadline = Date.now() + 20_000;
      for (;;) {
        const [open] = await dbA.query<{ n: number | string }>(`SELECT count(*) AS n FROM mail_outbox WHERE state <> 'sent'`);
        if (Number(open!.n) === 0 || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await Promise.all(jobs.map((j) => j.runNow()));
      const to = got.map((g) => g.mail.to).sort();
      expect(to).toEqual(Array.from({ length: 60 }, (_, i) => `person${i}@example.com`).sort());
      expect(new Set(got.map((g) => g.mail.messageId)).size).toBe(60);
      // Both processes took part (the proof is about two processes, not one doing everything).
      expect(new Set(got.map((g) => g.process))).toEqual(new Set(['A', 'B']));
      const rows = await dbB.query<{ state: string; attempts: number }>('SELECT state, attempts FROM mail_outbox');
      expect(rows).toHaveLength(60);
      expect(rows.every((r) => r.state === 'sent' && Number(r.attempts) === 1)).toBe(true);
    } finally {
      for (const j of jobs) await j.stop();
      await procs.close();
    }
  });
});
