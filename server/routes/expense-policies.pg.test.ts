/**
 * Missing-item reminders under a race (issue 29), through two API processes sharing one
 * PostgreSQL: two admins remind the same person at once, round after round (a new UTC day each
 * round). Whatever the interleaving, one request reminds them and mails once, the other answers
 * POLICY_7004 for them; one `missing_item_reminders` row per day.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request, signIn } from '../test-fixtures.ts';
import { insertTx, policyBody } from './expense-policies-test-kit.ts';

const ROUNDS = 4;

describe.skipIf(!(await pgAvailable()))('missing-item reminder races on PostgreSQL', () => {
  afterEach(() => vi.restoreAllMocks());

  it('mails a person once a day whoever asks at the same time', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
      const owner = await signIn(appB, f.email('owner'));
      expect((await request(appA, 'POST', '/v1/auth/expense-policies', { token: admin, body: policyBody() })).status).toBe(201);
      await insertTx(dbA, f, 'employee', { amount: 10000, at: '2026-11-18T09:00:00Z' });
      await insertTx(dbA, f, 'employee', { amount: 12000, at: '2026-11-18T10:00:00Z', memo: 'Dinner' });
      const log = vi.spyOn(console, 'log').mockImplementation(() => {});
      const mailsTo = (email: string) => log.mock.calls.filter((c) => String(c[0]).startsWith(`[ledgerline] mail to ${email}:`)).length;

      for (let round = 0; round < ROUNDS; round++) {
        // Each round is a new UTC day: yesterday's row does not stand in the way.
        await dbA.query(`UPDATE missing_item_reminders SET day = day - 1 WHERE business_id = $1`, [f.businessId]);
        const body = { user_ids: [f.users.employee] };
        const answers = await Promise.all([
          request(appA, 'POST', '/v1/auth/expense-policies/reminders', { token: admin, body }),
          request(appB, 'POST', '/v1/auth/expense-policies/reminders', { token: owner, body }),
        ]);
        for (const r of answers) expect(r.status, r.text).toBe(200);
        const reminded = answers.flatMap((r) => r.body.reminded);
        const skipped = answers.flatMap((r) => r.body.skipped);
        expect(reminded, `round ${round}`).toEqual([{ user_id: f.users.employee, item_count: 2 }]);
        expect(skipped.map((s: { code: string }) => s.code), `round ${round}`).toEqual(['POLICY_7004']);
        expect(mailsTo(f.email('employee')), `round ${round}`).toBe(round + 1);
      }
      const rows = await dbA.query<{ n: number; days: number }>(
        'SELECT count(*)::int AS n, count(DISTINCT day)::int AS days FROM missing_item_reminders WHERE business_id = $1', [f.businessId],
      );
      expect(rows[0]).toEqual({ n: ROUNDS, days: ROUNDS });
    });
  });
});
