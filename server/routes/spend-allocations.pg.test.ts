/**
 * Budgets hold under racing authorizations (issue 28): two API processes on one PostgreSQL,
 * purchases on two cards of one budget at once pass only as far as the budget's limit goes, and
 * one spend intent lets exactly one blocked purchase through.
 */
import { describe, expect, it } from 'vitest';
import { simulateResponseSchema } from '../../schema/api/calls-cards.ts';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request } from '../test-fixtures.ts';

const CARDS = '/v1/auth/cards';
const RACERS = 10;
const usd = (amount: number) => ({ amount, currency: 'USD', interval: 'MONTHLY' });

describe.skipIf(!(await pgAvailable()))('budget races on PostgreSQL', () => {
  it('lets only what fits through a budget, and uses an intent once', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
      const made = await request(appA, 'POST', '/v1/auth/spend-allocations', { token: admin, body: { name: 'Race', limit: usd(10_000) } });
      expect(made.status, made.text).toBe(201);
      const issue = async (holder: string, over: Record<string, unknown> = {}) => {
        const res = await request(appA, 'POST', CARDS, { token: admin, body: { user_id: holder, display_name: 'Race', limit: usd(100_000), ...over } });
        expect(res.status, res.text).toBe(200);
        return res.body.id as string;
      };
      const cards = [await issue(f.users.employee, { spend_allocation_id: made.body.id }), await issue(f.users.teammate, { spend_allocation_id: made.body.id })];
      const spend = (i: number, card: string, amount: number, merchant_category = 'General') =>
        request(i % 2 === 0 ? appA : appB, 'POST', `${CARDS}/${card}/simulate`, { token: admin, body: { amount, merchant: 'Race', merchant_category } });

      // $100 budget: of ten $35 purchases on its two cards, two fit.
      const raced = (await Promise.all(Array.from({ length: RACERS }, (_, i) => spend(i, cards[i % 2]!, 3_500)))).map((r) => simulateResponseSchema.parse(r.body));
      expect(raced.filter((r) => r.approved).length).toBe(2);
      for (const r of raced) if (!r.approved) expect(r.decline_reason).toBe('SPEND_ALLOCATION_EXCEEDED');
      const [sum] = await dbA.query<{ s: number }>('SELECT sum(amount)::int8 AS s FROM transactions WHERE card_id = ANY($1::uuid[])', [cards]);
      expect(Number(sum!.s)).toBe(7_000);

      // One intent, ten blocked purchases racing for it: exactly one passes and uses it.
      const card = await issue(f.users.employee, { allowed_categories: ['Travel'] });
      const intent = await request(appA, 'POST', '/v1/auth/spend-intents', {
        token: admin, body: { card_id: card, amount: { amount: 5_000, currency: 'USD' }, merchant_category: 'Software' },
      });
      expect(intent.status, intent.text).toBe(201);
      const once = (await Promise.all(Array.from({ length: RACERS }, (_, i) => spend(i, card, 1_000, 'Software')))).map((r) => simulateResponseSchema.parse(r.body));
      expect(once.filter((r) => r.approved).length).toBe(1);
      const [used] = await dbA.query<{ status: string; transaction_id: string | null }>('SELECT status, transaction_id::text FROM spend_intents WHERE id = $1', [intent.body.id]);
      const approved = once.find((r) => r.approved);
      expect(used).toEqual({ status: 'USED', transaction_id: approved?.approved ? approved.transaction.id : null });
    });
  });
});
