/**
 * Money moves once (issue 9): concurrent pay-ach calls on one approved claim, through two API
 * processes sharing one PostgreSQL (each with its own pool), write exactly one ledger payment —
 * with no Idempotency-Key (the claim's lock and status decide), with one shared key (the key's
 * lock and stored answer), and mixed.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request, signIn } from '../test-fixtures.ts';

const BASE = '/v1/auth/reimbursements';
const RACERS = 10;

describe.skipIf(!(await pgAvailable()))('pay-ach races on PostgreSQL', () => {
  it('writes exactly one ledger payment however 10 concurrent calls arrive', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
      const employee = await signIn(appA, f.email('employee'));
      const owner = await signIn(appB, f.email('owner'));
      const approvedClaim = async () => {
        const c = await request(appA, 'POST', `${BASE}/out_of_pocket`, {
          token: employee, body: { merchant: 'Race', amount: 4200, currency: 'USD', transaction_date: '2026-03-01' },
        });
        expect(c.status, c.text).toBe(200);
        const [approval] = await dbA.query<{ id: string }>('SELECT id::text FROM approvals WHERE object_id = $1', [c.body.id]);
        const ok = await request(appB, 'POST', `/v1/auth/approvals/${approval!.id}/approve`, { token: admin });
        expect(ok.status, ok.text).toBe(200);
        return c.body.id as string;
      };
      const payments = async (id: string) =>
        Number((await dbA.query<{ n: number }>(`SELECT count(*) AS n FROM ledger_entries WHERE reimbursement_id = $1 AND kind = 'PAYMENT'`, [id]))[0]!.n);
      const race = (id: string, key: (i: number) => string | undefined) =>
        Promise.all(Array.from({ length: RACERS }, (_, i) => {
          const k = key(i);
          return request(i % 2 === 0 ? appA : appB, 'PATCH', `${BASE}/${id}/pay-ach`, {
            token: i % 3 === 0 ? owner : admin, body: {}, headers: k ? { 'Idempotency-Key': k } : {},
          });
        }));

      // No key: one payment; every other call is refused naming PAID.
      const plain = await approvedClaim();
      const r1 = await race(plain, () => undefined);
      expect(r1.filter((r) => r.status === 200).length).toBe(1);
      for (const r of r1.filter((x) => x.status !== 200)) {
        expect([r.status, r.body.error_v2.error_code]).toEqual([422, 'REQUEST_7001']);
        expect(r.body.error_v2.message).toContain('status PAID');
      }
      expect(await payments(plain)).toBe(1);

      // One key for all (per identity: the owner's and the admin's keys are distinct scopes):
      // answers are the payment, its replay, a 409 "in progress" or the other scope's refusal.
      const keyed = await approvedClaim();
      const key = randomUUID();
      const r2 = await race(keyed, () => key);
      expect(r2.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') !== 'true').length).toBe(1);
      for (const r of r2) expect([200, 409, 422]).toContain(r.status);
      expect(await payments(keyed)).toBe(1);
      // A retry with the key after the race replays the stored answer, paying nothing more.
      const retry = await request(appA, 'PATCH', `${BASE}/${keyed}/pay-ach`, { token: admin, body: {}, headers: { 'Idempotency-Key': key } });
      expect([200, 422]).toContain(retry.status);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await payments(keyed)).toBe(1);

      // Mixed: half with one key, half without.
      const mixed = await approvedClaim();
      const r3 = await race(mixed, (i) => (i % 2 === 0 ? key + '-m' : undefined));
      expect(r3.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') !== 'true').length).toBe(1);
      expect(await payments(mixed)).toBe(1);
      const [row] = await dbA.query<{ status: string }>('SELECT status FROM reimbursements WHERE id = $1', [mixed]);
      expect(row!.status).toBe('PAID');
    });
  });
});
