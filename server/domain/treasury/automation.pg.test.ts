/**
 * Issue 30: an automation policy moves money at most once per day however its runs race. Two API
 * processes on one PostgreSQL run the job twice each at once (and the on-demand sweep-status on
 * both) for the same day: exactly one transfer per policy, one run row, the ledger checks out; a
 * second transfer of that policy and day is refused by the table's key by itself.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../../test-pg-race.ts';
import { pgAvailable } from '../../testing.ts';
import { request } from '../../test-fixtures.ts';
import { checkLedger } from '../../ledger/check.ts';
import { fund, openWalletAccount } from '../../ledger/ledger.ts';
import { runDuePolicies } from './automation-job.ts';

describe.skipIf(!(await pgAvailable()))('automation policy runs race on PostgreSQL', () => {
  it('makes one transfer per policy per day when job runs on two processes race', async () => {
    await withPgBusiness({ transactions: 0, operating: {} }, async ({ dbA, dbB, appA, appB, f, admin }) => {
      const at = new Date();
      const businessId = f.businessId;
      const [operating, reserve, savings] = await dbA.transaction(async (tx) => {
        const ids = [
          await openWalletAccount(tx, { businessId, kind: 'OPERATING', currency: 'USD', name: 'Operating', primary: true }),
          await openWalletAccount(tx, { businessId, kind: 'RESERVE', currency: 'USD', name: 'Reserve' }),
          await openWalletAccount(tx, { businessId, kind: 'RESERVE', currency: 'USD', name: 'Savings' }),
        ];
        await fund(tx, { businessId, account: ids[0]!, amount: 1_000_000, currency: 'USD', key: 'race-opening', at });
        return ids;
      });
      const put = async (body: Record<string, unknown>) => {
        const res = await request(appA, 'PUT', '/v1/auth/wallet/automation-policy', { token: admin, body });
        expect(res.status, res.text).toBe(201);
        return res.body.id as string;
      };
      const sweep = await put({ kind: 'SWEEP_ABOVE', account_id: operating, target_account_id: reserve, threshold: { amount: 200_000, currency: 'USD' }, target: { amount: 100_000, currency: 'USD' } });
      const topUp = await put({ kind: 'TOP_UP_BELOW', account_id: savings, target_account_id: reserve, threshold: { amount: 1_000, currency: 'USD' }, target: { amount: 50_000, currency: 'USD' } });

      const status = (app: typeof appA) => request(app, 'POST', '/v1/auth/wallet/automation-policy/sweep-status', { token: admin, body: { run: true } });
      const outcomes = await Promise.all([
        runDuePolicies(dbA, at), runDuePolicies(dbB, at), runDuePolicies(dbA, at), runDuePolicies(dbB, at), status(appA), status(appB), status(appA), status(appB),
      ]);
      for (const o of outcomes.slice(0, 4)) expect((o as { errors: unknown[] }).errors).toEqual([]);
      for (const o of outcomes.slice(4)) expect((o as { status: number; text: string }).status, (o as { text: string }).text).toBe(200);

      const transfers = await dbA.query<{ automation_policy_id: string; amount: string }>(
        'SELECT automation_policy_id::text, amount::text FROM wallet_transfers WHERE business_id = $1 ORDER BY amount', [businessId]);
      // The sweep moved 900,000 out to the reserve; the top-up drew on the reserve only if the sweep
      // had not yet left money there (both ways: one transfer or one FAILED run).
      const runs = await dbA.query<{ policy_id: string; status: string; n: number }>(
        'SELECT policy_id::text, status, count(*)::int AS n FROM automation_runs WHERE business_id = $1 GROUP BY 1, 2', [businessId]);
      expect(runs.filter((r) => r.policy_id === sweep)).toEqual([{ policy_id: sweep, status: 'MOVED', n: 1 }]);
      expect(runs.filter((r) => r.policy_id === topUp)).toHaveLength(1);
      expect(runs.find((r) => r.policy_id === topUp)!.n).toBe(1);
      expect(transfers.filter((t) => t.automation_policy_id === sweep)).toEqual([{ automation_policy_id: sweep, amount: '900000' }]);
      expect(transfers.filter((t) => t.automation_policy_id === topUp).length).toBe(runs.find((r) => r.policy_id === topUp)!.status === 'MOVED' ? 1 : 0);
      const report = await checkLedger(dbA, businessId);
      expect(report.ok, JSON.stringify(report)).toBe(true);

      // The key holds without the code: a second transfer of the sweep on that day.
      const day = at.toISOString().slice(0, 10);
      await expect(dbB.query(
        `INSERT INTO wallet_transfers (id, business_id, from_account_id, to_account_id, amount, fee, currency, status, expected_settlement_date,
                                       automation_policy_id, automation_run_day, change_seq)
         VALUES ($1, $2, $3, $4, 1, 0, 'USD', 'PENDING', $5::date, $6, $5::date, 1)`,
        [randomUUID(), businessId, operating, reserve, day, sweep],
      )).rejects.toMatchObject({ code: '23505' });
      await expect(dbB.query(
        `INSERT INTO automation_runs (id, business_id, policy_id, run_day, status, currency) VALUES ($1, $2, $3, $4::date, 'NOTHING_TO_DO', 'USD')`,
        [randomUUID(), businessId, sweep, day],
      )).rejects.toMatchObject({ code: '23505' });
    });
  });

  it('makes one policy when the same create races on two processes: the others answer it', async () => {
    await withPgBusiness({ transactions: 0, operating: {} }, async ({ dbA, appA, appB, f, admin }) => {
      const businessId = f.businessId;
      const [operating, reserve] = await dbA.transaction(async (tx) => [
        await openWalletAccount(tx, { businessId, kind: 'OPERATING', currency: 'USD', name: 'Operating', primary: true }),
        await openWalletAccount(tx, { businessId, kind: 'RESERVE', currency: 'USD', name: 'Reserve' }),
      ]);
      const body = { kind: 'SWEEP_ABOVE', account_id: operating, target_account_id: reserve, threshold: { amount: 200_000, currency: 'USD' }, target: { amount: 100_000, currency: 'USD' } };
      const answers = await Promise.all([appA, appB, appA, appB, appA, appB].map((app) =>
        request(app, 'PUT', '/v1/auth/wallet/automation-policy', { token: admin, body })));
      expect(answers.map((r) => r.status).sort(), answers.map((r) => r.text).join('\n')).toEqual([200, 200, 200, 200, 200, 201]);
      expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
      const rows = await dbA.query('SELECT id FROM automation_policies WHERE business_id = $1', [businessId]);
      expect(rows).toHaveLength(1);
    });
  });
});
