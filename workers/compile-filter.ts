import type { Transaction } from '../schema/entities/transaction.ts';
import type { TransactionFilter } from '../schema/transaction-query.ts';

/**
 * `matchesTransactionFilter` (schema/transaction-query.ts) compiled for a scan of 100k rows:
 * id lists become Sets and only the conditions present are tested. It must mean exactly the
 * same; the query engine's tests compare the two on every filter of their table.
 * Returns null when the filter has no structural condition (text `q` is matched elsewhere).
 */
export function compileFilter(f: TransactionFilter): ((t: Transaction) => boolean) | null {
  const checks: ((t: Transaction) => boolean)[] = [];
  if (f.user_ids?.length) {
    const ids = new Set(f.user_ids);
    checks.push((t) => ids.has(t.user_id));
  }
  if (f.department_ids?.length) {
    const ids = new Set(f.department_ids);
    checks.push((t) => t.department_id !== null && ids.has(t.department_id));
  }
  if (f.location_ids?.length) {
    const ids = new Set(f.location_ids);
    checks.push((t) => t.location_id !== null && ids.has(t.location_id));
  }
  if (f.states?.length) {
    const states = new Set<string>(f.states);
    checks.push((t) => states.has(t.state));
  }
  const { amount_min: min, amount_max: max, from, to, missing_coding: missing } = f;
  if (min !== undefined) checks.push((t) => t.amount >= min);
  if (max !== undefined) checks.push((t) => t.amount <= max);
  // occurred_at.slice(0, 10) < from  ⟺  occurred_at < from, as a date prefix sorts before its datetimes.
  if (from) checks.push((t) => t.occurred_at >= from);
  if (to) checks.push((t) => t.occurred_at.slice(0, 10) <= to);
  if (missing === true) checks.push((t) => t.gl_account_id === null);
  if (missing === false) checks.push((t) => t.gl_account_id !== null);
  if (checks.length === 0) return null;
  if (checks.length === 1) return checks[0]!;
  return (t) => {
    for (const check of checks) if (!check(t)) return false;
    return true;
  };
}
