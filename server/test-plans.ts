import type { ActingUser } from './core/actor.ts';
import type { Queryable } from './db/db.ts';
import type { TransactionFilter } from '../schema/transaction-query.ts';
import { queryTransactions } from './domain/transaction-sql.ts';
import { visibilityOf } from './domain/visibility.ts';

/**
 * Plan tests' shared parts (server/feed/first-page-plans.test.ts and any EXPLAIN test of the list):
 * a plan as EXPLAIN (FORMAT JSON) gives it, a person as the request path sees them, and the list's
 * page statement as `queryTransactions` sends it (captured, not run), so a test EXPLAINs exactly that SQL.
 */
export type PlanNode = { 'Node Type': string; 'Parent Relationship'?: string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };

/** The plan of a statement (the pg driver parses json, PGlite may not). */
export async function planOf(db: Queryable, sql: string, params: readonly unknown[]): Promise<PlanNode> {
  const [row] = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const value = row?.['QUERY PLAN'];
  return ((typeof value === 'string' ? JSON.parse(value) : value) as { Plan: PlanNode }[])[0]!.Plan;
}

export async function actingUser(db: Queryable, id: string): Promise<ActingUser> {
  const [user] = await db.query<ActingUser>(
    'SELECT id::text, business_id::text, role, is_manager, user_permissions, manager_id::text FROM spend_users WHERE id = $1', [id],
  );
  return user!;
}

/** The list's first page statement (50 newest first) for `filter`, as queryTransactions sends it; its plan. */
export async function listPagePlan(db: Queryable, user: ActingUser, filter: TransactionFilter = {}): Promise<PlanNode> {
  const sent: { sql: string; params: readonly unknown[] }[] = [];
  const capture: Queryable = {
    query: async <T,>(sql: string, params: readonly unknown[] = []) => {
      sent.push({ sql, params });
      return [] as T[];
    },
    exec: () => Promise.resolve(),
    notify: () => Promise.resolve(),
  };
  await queryTransactions(capture, user.business_id, await visibilityOf(db, user), { filter, sort: 'occurred_desc', pageSize: 50, includeCount: false });
  const page = sent.find((s) => /ORDER BY/.test(s.sql));
  if (!page) throw new Error('queryTransactions sent no page statement');
  return planOf(db, page.sql, page.params);
}
