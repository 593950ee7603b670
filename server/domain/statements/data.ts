import type { StatementRequest } from '../../../schema/statements.ts';
import { monthLabel } from '../../../schema/statements.ts';
import { canSeeAllTransactions } from '../../../schema/roles.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * A month's statement, read from the ledger of card spend: the cleared charges (refunds are
 * negative charges) dated in the month, the card payments settled in it (card_settlements,
 * migration 059/067: what paid those charges off), and per currency the balance before and after.
 * Opening balance = cleared charges before the month − payments settled before it; closing =
 * opening + the month's charges − its payments. A card statement counts that card's charges and
 * the payments of those charges.
 */
export type StatementScope = { businessId: string; cardId: string | null; month: string };

export type StatementCharge = {
  id: string; occurred_at: string; merchant: string; amount: number; currency: string;
  card_id: string; card_name: string; last_four: string | null; cardholder: string;
};
export type StatementPayment = { settled_at: string; currency: string; amount: number; charges: number };
export type CurrencySummary = { currency: string; opening: number; charges: number; payments: number; closing: number; count: number };
export type CardTotal = { card_id: string; card_name: string; last_four: string | null; cardholder: string; currency: string; total: number; count: number };

export type StatementData = {
  businessName: string;
  title: string;
  month: string;
  monthLabel: string;
  card: { name: string; last_four: string | null; cardholder: string } | null;
  period: { start: string; end: string };
  summaries: CurrencySummary[];
  cardTotals: CardTotal[];
  charges: StatementCharge[];
  payments: StatementPayment[];
};

/** [start, end) of a `YYYY-MM` month, UTC. */
export function monthBounds(month: string): { start: Date; end: Date } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return { start: new Date(Date.UTC(y, m - 1, 1)), end: new Date(Date.UTC(y, m, 1)) };
}

const noStatement = (month: string, why: string) => new ApiError('BILLING_7003', `No statement is available for ${monthLabel(month)}: ${why}`);

/** Refuses a month that has not ended (BILLING_7003). */
export function assertMonthEnded(month: string, now: Date): void {
  if (monthBounds(month).end.getTime() > now.getTime()) {
    throw noStatement(month, 'a statement is made once the month has ended.');
  }
}

/**
 * Whether `user` may have this statement: the business's for those who see every card
 * (admins, bookkeepers); a card's for them and its cardholder. Another business's card, or a card
 * the caller may not see, is 404.
 */
export async function statementScopeFor(db: Queryable, user: ActingUser, req: StatementRequest): Promise<StatementScope> {
  if (req.scope === 'business') {
    if (!canSeeAllTransactions(user)) {
      throw new ApiError('FORBIDDEN_7003', 'Only admins and bookkeepers can get the business statement. You can get your own cards’ statements.');
    }
    return { businessId: user.business_id, cardId: null, month: req.month };
  }
  const [card] = await db.query<{ user_id: string }>(
    'SELECT user_id::text FROM cards WHERE business_id = $1 AND id = $2 AND NOT deleted', [user.business_id, req.card_id],
  );
  if (!card || (!canSeeAllTransactions(user) && card.user_id !== user.id)) throw new ApiError('REQUEST_7004', 'No such card.');
  return { businessId: user.business_id, cardId: req.card_id, month: req.month };
}

const CARD_FILTER = (param: string) => `AND ($${param}::uuid IS NULL OR t.card_id = $${param}::uuid)`;

/** Charges and payments in the month (the activity test): zero for both means no statement. */
export async function monthActivity(db: Queryable, scope: StatementScope): Promise<number> {
  const { start, end } = monthBounds(scope.month);
  const [row] = await db.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM transactions t WHERE t.business_id = $1 ${CARD_FILTER('2')}
               AND t.state = 'CLEARED' AND NOT t.deleted AND t.occurred_at >= $3 AND t.occurred_at < $4)
          + (SELECT count(*) FROM card_settlement_items i JOIN card_settlements s ON s.id = i.settlement_id
               JOIN transactions t ON t.id = i.transaction_id
              WHERE i.business_id = $1 ${CARD_FILTER('2')} AND s.status = 'SETTLED' AND s.settled_at >= $3 AND s.settled_at < $4) AS n`,
    [scope.businessId, scope.cardId, start.toISOString(), end.toISOString()],
  );
  return Number(row?.n ?? 0);
}

export async function assertActivity(db: Queryable, scope: StatementScope): Promise<void> {
  if ((await monthActivity(db, scope)) === 0) throw noStatement(scope.month, 'there were no settled card charges or payments that month.');
}

const CARDHOLDER = `trim(u.first_name || ' ' || u.last_name)`;

/** Everything the statement shows, in one consistent read (the caller's transaction or db). */
export async function readStatement(db: Queryable, scope: StatementScope): Promise<StatementData> {
  const { start, end } = monthBounds(scope.month);
  const p = [scope.businessId, scope.cardId, start.toISOString(), end.toISOString()];
  const [business] = await db.query<{ name: string }>('SELECT name FROM businesses WHERE id = $1', [scope.businessId]);
  const charges = await db.query<StatementCharge>(
    `SELECT t.id::text, ll_iso(t.occurred_at) AS occurred_at, t.merchant_name AS merchant, t.amount, t.currency,
            c.id::text AS card_id, c.display_name AS card_name, c.last_four, ${CARDHOLDER} AS cardholder
       FROM transactions t JOIN cards c ON c.id = t.card_id JOIN spend_users u ON u.id = c.user_id
      WHERE t.business_id = $1 ${CARD_FILTER('2')} AND t.state = 'CLEARED' AND NOT t.deleted
        AND t.occurred_at >= $3 AND t.occurred_at < $4
      ORDER BY t.occurred_at, t.id`,
    p,
  );
  const payments = await db.query<StatementPayment>(
    `SELECT ll_iso(s.settled_at) AS settled_at, s.currency, sum(i.amount)::bigint AS amount, count(*)::int AS charges
       FROM card_settlement_items i JOIN card_settlements s ON s.id = i.settlement_id JOIN transactions t ON t.id = i.transaction_id
      WHERE i.business_id = $1 ${CARD_FILTER('2')} AND s.status = 'SETTLED' AND s.settled_at >= $3 AND s.settled_at < $4
      GROUP BY s.id, s.settled_at, s.currency ORDER BY s.settled_at, s.id`,
    p,
  );
  const before = await db.query<{ currency: string; charges: number; payments: number }>(
    `SELECT currency, sum(charges)::bigint AS charges, sum(payments)::bigint AS payments FROM (
       SELECT t.currency, t.amount AS charges, 0 AS payments FROM transactions t
        WHERE t.business_id = $1 ${CARD_FILTER('2')} AND t.state = 'CLEARED' AND NOT t.deleted AND t.occurred_at < $3
       UNION ALL
       SELECT s.currency, 0, i.amount FROM card_settlement_items i JOIN card_settlements s ON s.id = i.settlement_id
         JOIN transactions t ON t.id = i.transaction_id
        WHERE i.business_id = $1 ${CARD_FILTER('2')} AND s.status = 'SETTLED' AND s.settled_at < $3) x
     GROUP BY currency`,
    p.slice(0, 3),
  );
  const summaries = summarise(charges, payments, before);
  const cardTotals = totalsPerCard(charges);
  const card = scope.cardId ? await cardOf(db, scope.cardId) : null;
  return {
    businessName: business?.name ?? '',
    title: card ? 'Card statement' : 'Business card statement',
    month: scope.month,
    monthLabel: monthLabel(scope.month),
    card,
    period: { start: start.toISOString().slice(0, 10), end: new Date(end.getTime() - 86_400_000).toISOString().slice(0, 10) },
    summaries, cardTotals, charges, payments,
  };
}

async function cardOf(db: Queryable, cardId: string): Promise<StatementData['card']> {
  const [row] = await db.query<{ name: string; last_four: string | null; cardholder: string }>(
    `SELECT c.display_name AS name, c.last_four, ${CARDHOLDER} AS cardholder FROM cards c JOIN spend_users u ON u.id = c.user_id WHERE c.id = $1`,
    [cardId],
  );
  return row ?? null;
}

function summarise(
  charges: StatementCharge[], payments: StatementPayment[], before: { currency: string; charges: number; payments: number }[],
): CurrencySummary[] {
  const by = new Map<string, CurrencySummary>();
  const of = (currency: string) => {
    let s = by.get(currency);
    if (!s) by.set(currency, (s = { currency, opening: 0, charges: 0, payments: 0, closing: 0, count: 0 }));
    return s;
  };
  for (const b of before) of(b.currency).opening = Number(b.charges) - Number(b.payments);
  for (const c of charges) {
    const s = of(c.currency);
    s.charges += Number(c.amount);
    s.count += 1;
  }
  for (const p of payments) of(p.currency).payments += Number(p.amount);
  for (const s of by.values()) s.closing = s.opening + s.charges - s.payments;
  // A currency with nothing before, in or after the month says nothing.
  return [...by.values()].filter((s) => s.count > 0 || s.payments !== 0 || s.opening !== 0).sort((a, b) => a.currency.localeCompare(b.currency));
}

function totalsPerCard(charges: StatementCharge[]): CardTotal[] {
  const by = new Map<string, CardTotal>();
  for (const c of charges) {
    const key = `${c.card_id}:${c.currency}`;
    let t = by.get(key);
    if (!t) by.set(key, (t = { card_id: c.card_id, card_name: c.card_name, last_four: c.last_four, cardholder: c.cardholder, currency: c.currency, total: 0, count: 0 }));
    t.total += Number(c.amount);
    t.count += 1;
  }
  return [...by.values()].sort((a, b) => a.cardholder.localeCompare(b.cardholder) || a.card_name.localeCompare(b.card_name) || a.currency.localeCompare(b.currency));
}
