/**
 * Cards happen once (issue 10): concurrent calls through two API processes sharing one
 * PostgreSQL (each with its own pool). Issuing with one client id, or with one Idempotency-Key,
 * makes one card; purchases racing for the last of a limit pass only as far as the limit goes.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { simulateResponseSchema } from '../../schema/api/calls-cards.ts';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request } from '../test-fixtures.ts';

const CARDS = '/v1/auth/cards';
const RACERS = 10;

describe.skipIf(!(await pgAvailable()))('card races on PostgreSQL', () => {
  it('issues one card per client id and per Idempotency-Key, and lets only what fits through a limit', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
    const body = (over: Record<string, unknown> = {}) => ({
      user_id: f.users.employee, display_name: 'Race card', limit: { amount: 10_000, currency: 'USD', interval: 'MONTHLY' }, ...over,
    });
    const issueRace = (make: (i: number) => { body: unknown; headers: Record<string, string> }) =>
      Promise.all(Array.from({ length: RACERS }, (_, i) => request(i % 2 === 0 ? appA : appB, 'POST', CARDS, { token: admin, ...make(i) })));
    const cardsNamed = async (name: string) =>
      Number((await dbA.query<{ n: number }>('SELECT count(*) AS n FROM cards WHERE business_id = $1 AND display_name = $2', [f.businessId, name]))[0]!.n);

    // One client id: every answer is the same card.
    const id = randomUUID();
    const byId = await issueRace(() => ({ body: body({ id, display_name: 'By id' }), headers: {} }));
    for (const r of byId) expect(r.status, r.text).toBe(200);
    expect(new Set(byId.map((r) => r.body.id))).toEqual(new Set([id]));
    expect(new Set(byId.map((r) => r.body.last_four)).size).toBe(1);
    expect(await cardsNamed('By id')).toBe(1);

    // One Idempotency-Key, no client id: one card; the rest replay it or are told it is in progress.
    const key = randomUUID();
    const byKey = await issueRace(() => ({ body: body({ display_name: 'By key' }), headers: { 'Idempotency-Key': key } }));
    for (const r of byKey) expect([200, 409]).toContain(r.status);
    expect(new Set(byKey.filter((r) => r.status === 200).map((r) => r.body.id)).size).toBe(1);
    expect(await cardsNamed('By key')).toBe(1);

    // Last fours stay unique among the business's live cards however issues race.
    const many = await issueRace(() => ({ body: body({ display_name: 'Many' }), headers: {} }));
    for (const r of many) expect(r.status).toBe(200);
    const fours = await dbA.query<{ last_four: string }>(
      `SELECT last_four FROM cards WHERE business_id = $1 AND status <> 'TERMINATED' AND display_name <> 'Race card' AND last_four <> '4242'`,
      [f.businessId],
    );
    expect(new Set(fours.map((r) => r.last_four)).size).toBe(fours.length);

    // A limit of 10,000 with 3,000 spent: of ten purchases of 3,500, two fit — exactly two pass.
    const card = byId[0]!.body.id as string;
    const spend = (app: typeof appA, amount: number) =>
      request(app, 'POST', `${CARDS}/${card}/simulate`, { token: admin, body: { amount, merchant: 'Race' } });
    expect((await spend(appA, 3_000)).status).toBe(200);
    const raced = await Promise.all(Array.from({ length: RACERS }, (_, i) => spend(i % 2 === 0 ? appA : appB, 3_500)));
    const answers = raced.map((r) => simulateResponseSchema.parse(r.body));
    expect(answers.filter((r) => r.approved).length).toBe(2);
    for (const r of answers) if (!r.approved) expect(r.decline_reason).toBe('SPENDING_LIMIT_EXCEEDED');
    const [spent] = await dbA.query<{ s: number }>('SELECT sum(amount)::int8 AS s FROM transactions WHERE card_id = $1', [card]);
    expect(Number(spent!.s)).toBe(10_000);
    });
  });
});
