/**
 * Fraud answers happen once (issue 24): the same NOT_RECOGNIZED sent many times at once through
 * two API processes sharing one PostgreSQL (each with its own pool) locks the card once and opens
 * exactly one dispute; every caller is answered with that dispute.
 */
import { describe, expect, it } from 'vitest';
import { simulateResponseSchema } from '../../schema/api/calls-cards.ts';
import { fraudResponseResultSchema } from '../../schema/api/calls-fraud.ts';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request, signIn } from '../test-fixtures.ts';

const RACERS = 10;

describe.skipIf(!(await pgAvailable()))('fraud answer races on PostgreSQL', () => {
  it('one dispute and one lock however many identical answers race', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
    const employee = await signIn(appA, f.email('employee'));
    const issued = await request(appA, 'POST', '/v1/auth/cards', {
      token: admin, body: { user_id: f.users.employee, display_name: 'Race card', limit: { amount: 1_000_000, currency: 'USD', interval: 'MONTHLY' } },
    });
    expect(issued.status, issued.text).toBe(200);
    const card = issued.body.id as string;
    const buy = async (amount: number, merchant: string) => {
      const res = await request(appA, 'POST', `/v1/auth/cards/${card}/simulate`, { token: employee, body: { amount, merchant } });
      const sim = simulateResponseSchema.parse(res.body);
      if (!sim.approved) throw new Error(sim.message);
      return sim.transaction;
    };
    // Three at one merchant within minutes: the third is held.
    await buy(500, 'Kiosk');
    await buy(500, 'Kiosk');
    const held = await buy(500, 'Kiosk');
    expect(held.fraud_status).toBe('FLAGGED');

    const raced = await Promise.all(Array.from({ length: RACERS }, (_, i) =>
      request(i % 2 === 0 ? appA : appB, 'POST', `/v1/auth/transactions/${held.id}/fraud-response`, { token: employee, body: { response: 'NOT_RECOGNIZED' } })));
    for (const r of raced) expect(r.status, r.text).toBe(200);
    const answers = raced.map((r) => fraudResponseResultSchema.parse(r.body));
    expect(new Set(answers.map((a) => a.dispute?.id)).size).toBe(1);
    expect(answers.every((a) => a.card.status === 'LOCKED' && a.card_locked)).toBe(true);
    const [count] = await dbA.query<{ n: number }>('SELECT count(*)::int AS n FROM transaction_disputes WHERE transaction_id = $1', [held.id]);
    expect(count!.n).toBe(1);
    const [row] = await dbA.query<{ status: string }>('SELECT status FROM cards WHERE id = $1', [card]);
    expect(row!.status).toBe('LOCKED');
    });
  });
});
