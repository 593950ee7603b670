import { describe, expect, it } from 'vitest';
import { simulateResponseSchema } from '../../schema/api/calls-cards.ts';
import { DECLINE_MESSAGES } from '../../schema/card-rules.ts';
import type { Card } from '../../schema/entities/card.ts';
import { testDatabases } from '../test-db.ts';
import { request } from '../test-fixtures.ts';
import { useTestApp } from '../test-app.ts';
import { CARDS, cardsClock, useCardsApi } from './cards-test-kit.ts';

/** Issue 29: `PUT /v1/auth/businesses/merchant-restrictions` and every card's authorization. */
describe.each(await testDatabases())('merchant restrictions on %s', (kind) => {
  const clock = cardsClock();
  const t = useTestApp(kind, { now: () => clock.ms });
  const { biz, tokens, issue, refusal } = useCardsApi(t);
  const PATH = '/v1/auth/businesses/merchant-restrictions';
  const put = (token: string, categories: unknown) => request(t.app, 'PUT', PATH, { token, body: { blocked_merchant_categories: categories } });
  const spend = async (card: Card, category: string) => {
    const res = await request(t.app, 'POST', `${CARDS}/${card.id}/simulate`, { token: tokens.admin, body: { amount: 500, merchant: 'Lucky 7', merchant_category: category } });
    expect(res.status, res.text).toBe(200);
    return simulateResponseSchema.parse(res.body);
  };
  const transactionsAt = async (category: string) =>
    Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM transactions WHERE business_id = $1 AND merchant_category = $2', [biz.a.businessId, category]))[0]!.n);

  it('admins replace the list (normalised); everyone reads it; the rest are refused', async () => {
    expect((await request(t.app, 'GET', PATH, { token: tokens.employee })).body).toEqual({ blocked_merchant_categories: [], updated_at: null });
    const res = await put(tokens.admin, [' Gambling', 'Bars', 'gambling', 'Bars ']);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ blocked_merchant_categories: ['Bars', 'Gambling'], updated_at: new Date(clock.ms).toISOString() });
    expect((await request(t.app, 'GET', PATH, { token: tokens.employee })).body.blocked_merchant_categories).toEqual(['Bars', 'Gambling']);
    for (const role of ['manager', 'bookkeeper', 'employee', 'auditor'] as const) {
      expect(refusal(await put(tokens[role], []))).toEqual([403, 'FORBIDDEN_7003']);
    }
    expect(refusal(await put(tokens.admin, ['']))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await put(tokens.admin, Array.from({ length: 101 }, (_, i) => `C${i}`)))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await put(tokens.admin, 'Gambling'))).toEqual([422, 'REQUEST_7001']);
    // Another business's list is its own.
    const other = await request(t.app, 'GET', PATH, { token: biz.bOwner });
    expect(other.body.blocked_merchant_categories).toEqual([]);
    expect((await put(tokens.admin, [])).body.blocked_merchant_categories).toEqual([]);
  });

  it('declines every card at a blocked category, naming the business rule, even where the card allows it', async () => {
    const anyCategory = await issue('employee');
    const coffeeOnly = await issue('manager', { allowed_categories: ['Gambling', 'Coffee'] });
    expect((await put(tokens.admin, ['gambling'])).status).toBe(200);
    for (const card of [anyCategory, coffeeOnly]) {
      expect(await spend(card, 'Gambling')).toEqual({
        approved: false, decline_reason: 'BUSINESS_MERCHANT_CATEGORY_BLOCKED', message: DECLINE_MESSAGES.BUSINESS_MERCHANT_CATEGORY_BLOCKED,
      });
    }
    expect(DECLINE_MESSAGES.BUSINESS_MERCHANT_CATEGORY_BLOCKED).toContain('business');
    expect(await transactionsAt('Gambling')).toBe(0);
    expect((await spend(anyCategory, 'Coffee')).approved).toBe(true);
    // b's cards are not restricted by a's list.
    expect((await request(t.app, 'GET', PATH, { token: biz.bOwner })).body.blocked_merchant_categories).toEqual([]);
    // Lifted: the purchase goes through again.
    expect((await put(tokens.admin, [])).status).toBe(200);
    expect((await spend(anyCategory, 'Gambling')).approved).toBe(true);
    expect(await transactionsAt('Gambling')).toBe(1);
  });
});
