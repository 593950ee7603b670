/**
 * Issue 29: bulk-approval under races, through two API processes sharing one PostgreSQL. The
 * manager and the delegate they named (COPILOT) bulk-approve the same claims at once, each on
 * their own process. Every approval is decided exactly once: one of the two answers approves it,
 * the other is refused with its reason; the claim is APPROVED once and its chain completes once.
 */
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request, signIn } from '../test-fixtures.ts';

const CLAIMS = 6;
const ROUNDS = 3;
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
type Answer = { results: { id: string; ok: boolean; error_code?: string }[] };

describe.skipIf(!(await pgAvailable()))('bulk approval races with a delegate on PostgreSQL', () => {
  it('decides each approval exactly once when the manager and their delegate bulk-approve together', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f }) => {
      const employee = await signIn(appA, f.email('employee'));
      const manager = await signIn(appA, f.email('manager'));
      const delegate = await signIn(appB, f.email('outsider'));
      await dbA.query(`UPDATE spend_users SET user_permissions = '["COPILOT"]'::jsonb WHERE id = $1`, [f.users.outsider]);
      const put = await request(appA, 'PUT', '/v1/auth/copilot', { token: manager, body: { delegate_id: f.users.outsider, starts_on: day(0), ends_on: day(3) } });
      expect(put.status, put.text).toBe(200);

      for (let round = 0; round < ROUNDS; round++) {
        const claims: string[] = [];
        for (let i = 0; i < CLAIMS; i++) {
          const c = await request(appA, 'POST', '/v1/auth/reimbursements/out_of_pocket', {
            token: employee, body: { merchant: `Race ${round}.${i}`, amount: 1_000 + i, currency: 'USD', transaction_date: day(0) },
          });
          expect(c.status, c.text).toBe(200);
          claims.push(c.body.id);
        }
        const approvals = await dbA.query<{ id: string }>(
          `SELECT id::text FROM approvals WHERE object_id = ANY($1::uuid[]) AND status = 'PENDING' ORDER BY id`, [claims],
        );
        expect(approvals).toHaveLength(CLAIMS);
        const ids = approvals.map((a) => a.id);
        const [byManager, byDelegate] = await Promise.all([
          request<Answer>(appA, 'POST', '/v1/auth/approval_policy/bulk-approval', { token: manager, body: { approval_ids: ids, decision: 'APPROVE' } }),
          request<Answer>(appB, 'POST', '/v1/auth/approval_policy/bulk-approval', { token: delegate, body: { approval_ids: [...ids].reverse(), decision: 'APPROVE' } }),
        ]);
        expect(byManager.status, byManager.text).toBe(200);
        expect(byDelegate.status, byDelegate.text).toBe(200);
        for (const id of ids) {
          const oks = [byManager.body, byDelegate.body].filter((b) => b.results.find((r) => r.id === id)?.ok);
          expect(oks, `approval ${id} decided once`).toHaveLength(1);
        }
        const [state] = await dbA.query<{ approved: number; claims: number; chains: number; for_manager: number; delegated: number }>(
          `SELECT (SELECT count(*)::int FROM approvals WHERE id = ANY($1::uuid[]) AND status = 'APPROVED') AS approved,
                  (SELECT count(*)::int FROM reimbursements WHERE id = ANY($2::uuid[]) AND status = 'APPROVED') AS claims,
                  (SELECT count(*)::int FROM approval_instances WHERE object_id = ANY($2::uuid[]) AND status = 'APPROVED'
                      AND jsonb_array_length(steps -> 0 -> 'approved_by') = 1) AS chains,
                  (SELECT count(*)::int FROM approvals WHERE id = ANY($1::uuid[]) AND on_behalf_of IS NOT NULL) AS for_manager,
                  (SELECT count(*)::int FROM approvals WHERE id = ANY($1::uuid[]) AND decided_by = $3) AS delegated`,
          [ids, claims, f.users.outsider],
        );
        expect(state).toMatchObject({ approved: CLAIMS, claims: CLAIMS, chains: CLAIMS });
        // What the delegate decided is recorded for the manager, and only that.
        expect(Number(state!.for_manager)).toBe(Number(state!.delegated));
      }
    });
  });
});
