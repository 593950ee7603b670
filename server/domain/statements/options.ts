import { canSeeAllTransactions } from '../../../schema/roles.ts';
import { STATEMENT_INCLUDES, lastClosedMonth, type StatementList, type StatementOption } from '../../../schema/statements.ts';
import type { ActingUser } from '../../core/actor.ts';
import type { Queryable } from '../../db/db.ts';
import { assertMonthEnded, monthActivity, monthBounds } from './data.ts';

/**
 * What statements `month` has for `user` (GET /v1/auth/statements): the business's (admins and
 * bookkeepers, when the month has activity) and each card the caller may have one for with cleared
 * charges in it; and the ended months of the last year with charges on those cards, for the picker.
 */
export async function listStatementOptions(db: Queryable, user: ActingUser, month: string | undefined, now: Date): Promise<StatementList> {
  const chosen = month ?? lastClosedMonth(now);
  assertMonthEnded(chosen, now);
  const all = canSeeAllTransactions(user);
  const mine = all ? '' : ' AND c.user_id = $4::uuid';
  const { start, end } = monthBounds(chosen);
  const params: unknown[] = [user.business_id, start.toISOString(), end.toISOString(), ...(all ? [] : [user.id])];
  const cards = await db.query<{ card_id: string; name: string; last_four: string | null; cardholder: string; currency: string; charges: number; transactions: number }>(
    `SELECT c.id::text AS card_id, c.display_name AS name, c.last_four, trim(u.first_name || ' ' || u.last_name) AS cardholder,
            t.currency, sum(t.amount)::bigint AS charges, count(*)::int AS transactions
       FROM transactions t JOIN cards c ON c.id = t.card_id JOIN spend_users u ON u.id = c.user_id
      WHERE t.business_id = $1 AND t.state = 'CLEARED' AND NOT t.deleted AND t.occurred_at >= $2 AND t.occurred_at < $3${mine}
      GROUP BY c.id, c.display_name, c.last_four, u.first_name, u.last_name, t.currency
      ORDER BY cardholder, name, t.currency`,
    params,
  );
  const statements: StatementOption[] = [];
  if (all && (await monthActivity(db, { businessId: user.business_id, cardId: null, month: chosen })) > 0) {
    const [b] = await db.query<{ name: string }>('SELECT name FROM businesses WHERE id = $1', [user.business_id]);
    const totals = new Map<string, { charges: number; transactions: number }>();
    for (const c of cards) {
      const t = totals.get(c.currency) ?? { charges: 0, transactions: 0 };
      totals.set(c.currency, { charges: t.charges + Number(c.charges), transactions: t.transactions + c.transactions });
    }
    statements.push({
      scope: 'business', card_id: null, name: b?.name ?? 'Business', cardholder: null, last_four: null,
      totals: [...totals].sort(([a], [b2]) => a.localeCompare(b2)).map(([currency, t]) => ({ currency, ...t })),
    });
  }
  const byCard = new Map<string, StatementOption>();
  for (const c of cards) {
    let o = byCard.get(c.card_id);
    if (!o) {
      o = { scope: 'card', card_id: c.card_id, name: c.name, cardholder: c.cardholder, last_four: c.last_four, totals: [] };
      byCard.set(c.card_id, o);
      statements.push(o);
    }
    o.totals.push({ currency: c.currency, charges: Number(c.charges), transactions: c.transactions });
  }
  return { month: chosen, months: await activeMonths(db, user, all, now), statements, includes: STATEMENT_INCLUDES };
}

async function activeMonths(db: Queryable, user: ActingUser, all: boolean, now: Date): Promise<string[]> {
  const end = monthBounds(lastClosedMonth(now)).end;
  const start = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 12, 1));
  const rows = await db.query<{ month: string }>(
    `SELECT to_char(t.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month
       FROM transactions t ${all ? '' : 'JOIN cards c ON c.id = t.card_id'}
      WHERE t.business_id = $1 AND t.state = 'CLEARED' AND NOT t.deleted AND t.occurred_at >= $2 AND t.occurred_at < $3
        ${all ? '' : 'AND c.user_id = $4::uuid'}
      GROUP BY 1 ORDER BY 1 DESC`,
    [user.business_id, start.toISOString(), end.toISOString(), ...(all ? [] : [user.id])],
  );
  return rows.map((r) => r.month);
}
