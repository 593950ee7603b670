import type { FinancingApplication } from '../../../../schema/entities/financing-application.ts';
import { rowCount, type FormValues, type ListSpec } from './step-fields.ts';

/**
 * Issue 31: a list step's rows typed here get the id of the row the server saved for them. The
 * server answers the whole application after each send; a row sent without an id was inserted,
 * and sending it again without one would insert it twice (and a removal could not name it). A row
 * is matched by what was typed (an owner's kind, name and share; an account's holder, type and the
 * last four digits of its number when typed) to a saved row no other row of the form names yet.
 */
type Key = (row: (name: string) => string) => string;

const OWNER_KEY: Key = (r) => `${r('kind')}|${r('name').trim()}|${Math.round(Number(r('percent_bp')) * 100)}`;
const ACCOUNT_KEY: Key = (r) => `${r('holder_name').trim()}|${r('type')}|${r('account_number').slice(-4)}`;

function savedKeys(app: FinancingApplication, list: ListSpec, typedLastFour: (i: number) => boolean): { id: string; key: (i: number) => string }[] {
  if (list.name === 'owners') return app.owners.map((o) => ({ id: o.id, key: () => `${o.kind}|${o.name}|${o.percent_bp}` }));
  return app.bank_accounts.map((a) => ({ id: a.id, key: (i) => `${a.holder_name}|${a.type}|${typedLastFour(i) ? a.account_last_four : ''}` }));
}

export function withSavedIds(values: FormValues, list: ListSpec, app: FinancingApplication): FormValues {
  const rowKey = list.name === 'owners' ? OWNER_KEY : list.name === 'accounts' ? ACCOUNT_KEY : null;
  if (!rowKey) return values;
  const field = (i: number) => (name: string) => values[`${list.name}.${i}.${name}`] ?? '';
  const n = rowCount(values, list);
  const claimed = new Set(Array.from({ length: n }, (_, i) => field(i)('id')).filter(Boolean));
  const saved = savedKeys(app, list, (i) => field(i)('account_number').length >= 4).filter((s) => !claimed.has(s.id));
  let out = values;
  for (let i = 0; i < n; i++) {
    if (field(i)('id')) continue;
    const match = saved.find((s) => !claimed.has(s.id) && s.key(i) === rowKey(field(i)));
    if (!match) continue;
    claimed.add(match.id);
    out = { ...out, [`${list.name}.${i}.id`]: match.id };
  }
  return out;
}
