/**
 * The world of the cards route tests (cards.test.ts, cards-list.test.ts): a settable clock, two
 * fixture businesses (every role of `a` signed in, b's owner) and the calls they make.
 * Reporting line in the fixture: employee → manager, teammate → employee (only `manager` is a
 * manager).
 */
import { expect } from 'vitest';
import { cardSchema, type LimitInterval } from '../../schema/entities/card.ts';
import type { Hono } from 'hono';
import type { Queryable } from '../db/db.ts';
import { request, useTwoBusinesses, type FixtureRole } from '../test-fixtures.ts';

export const CARDS = '/v1/auth/cards';
export const usd = (amount: number, interval: LimitInterval = 'MONTHLY', per_transaction: number | null = null) =>
  ({ amount, currency: 'USD', interval, per_transaction });

/** The app's settable now (`useTestApp(kind, { now: () => clock.ms })`), at the files' start. */
export const cardsClock = () => ({ ms: Date.parse('2026-03-10T12:00:00Z') });

/**
 * Registers the businesses' hook on the file's app `t` (after its useTestApp, which stays in the
 * test file: routes/ never imports the app); read what it answers inside hooks and tests.
 */
export function useCardsApi(t: { db: Queryable; app: Hono }) {
  const biz = useTwoBusinesses(t, ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'teammate', 'outsider', 'auditor']);
  const { tokens } = biz;

  const issue = async (holder: FixtureRole = 'employee', over: Record<string, unknown> = {}, by: FixtureRole = 'admin') => {
    const res = await request(t.app, 'POST', CARDS, {
      token: tokens[by], body: { user_id: biz.a.users[holder], display_name: 'Team card', limit: usd(100_000), ...over },
    });
    expect(res.status, res.text).toBe(200);
    return cardSchema.parse(res.body);
  };
  const act = (role: FixtureRole, id: string, action: string, body?: unknown) =>
    request(t.app, 'POST', `${CARDS}/${id}/${action}`, { token: tokens[role], body });
  const unsuspend = (role: FixtureRole, id: string) => request(t.app, 'DELETE', `/v1/auth/rules/suspend-card/${id}`, { token: tokens[role] });
  const stored = async (id: string) =>
    (await t.db.query<{ status: string; is_primary: boolean }>('SELECT status, is_primary FROM cards WHERE id = $1', [id]))[0];
  const cardCount = async () => Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM cards WHERE business_id = $1', [biz.a.businessId]))[0]!.n);
  const refusal = (res: { status: number; body: { error_v2?: { error_code: string; message: string } } }) =>
    [res.status, res.body.error_v2?.error_code];

  return { biz, tokens, issue, act, unsuspend, stored, cardCount, refusal };
}
