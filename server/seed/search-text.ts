import type { Transaction } from '../../schema/entities/transaction.ts';
import type { DemoData } from './types.ts';

/**
 * The seed's copy of `ll_transaction_search_text` (migrations/001_init.sql): lower-cased merchant,
 * memo, cardholder name, GL code and name, department, location, and each tracking category with
 * its option, joined by spaces (concat_ws skips what is missing).
 *
 * Why a copy: the insert trigger evaluates that function per row with five subqueries, which
 * made 100k-row seeds several times slower. The seed supplies the same text itself (the trigger
 * then stands aside); seed.test.ts checks it against the SQL function so the two cannot drift.
 */
export type SearchTextBuilder = (t: Transaction) => string;

export function searchTextBuilder(data: DemoData): SearchTextBuilder {
  const users = new Map(data.users.map((u) => [u.id, `${u.first_name} ${u.last_name}`]));
  const gl = new Map(data.glAccounts.map((g) => [g.id, `${g.code} ${g.name}`]));
  const departments = new Map(data.departments.map((d) => [d.id, d.name]));
  const locations = new Map(data.locations.map((l) => [l.id, l.name]));
  const options = new Map<string, string>();
  for (const category of data.trackingCategories) {
    for (const option of category.options) options.set(`${category.id}:${option.id}`, `${category.name} ${option.name}`);
  }
  const lookup = (map: ReadonlyMap<string, string>, id: string | null) => (id === null ? undefined : map.get(id));

  return (t) => {
    const tracking = Object.entries(t.tracking)
      .map(([categoryId, optionId]) => options.get(`${categoryId}:${optionId}`))
      .filter((s): s is string => s !== undefined);
    const parts = [
      t.merchant_name,
      t.memo,
      users.get(t.user_id),
      lookup(gl, t.gl_account_id),
      lookup(departments, t.department_id),
      lookup(locations, t.location_id),
      tracking.length > 0 ? tracking.join(' ') : undefined,
    ];
    return parts
      .filter((p): p is string => p !== null && p !== undefined)
      .join(' ')
      .toLowerCase();
  };
}
