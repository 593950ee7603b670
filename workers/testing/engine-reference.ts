import type { Transaction } from '../../schema/entities/transaction.ts';
import { compareTransactions, matchesTransactionFilter, queryTerms, type TransactionFilter, type TransactionSort } from '../../schema/transaction-query.ts';
import { matchesText } from '../search-index.ts';
import { testUuid } from './seeded.ts';

/** The query engine tests' names, text and reference implementation (query-engine.test.ts, query-engine-bodies.test.ts). */
export const NAMES: Record<string, string> = {
  [testUuid(2, 1)]: 'Ada Lovelace',
  [testUuid(2, 2)]: "Conan O'Brien",
  [testUuid(3, 1)]: 'Engineering',
  [testUuid(3, 2)]: 'Sales',
  [testUuid(5, 1)]: 'Meals and Entertainment',
  [testUuid(5, 2)]: 'Travel',
};
export const textOf = (t: Transaction) =>
  [t.merchant_name, t.memo, NAMES[t.user_id], t.gl_account_id && NAMES[t.gl_account_id], t.department_id && NAMES[t.department_id]]
    .filter(Boolean)
    .join(' ');

/** The obvious, slow implementation the engine must agree with. */
export function reference(rows: Transaction[], filter: TransactionFilter, sort: TransactionSort): string[] {
  const terms = queryTerms(filter.q);
  return rows
    .filter((t) => matchesTransactionFilter(t, filter))
    .filter((t) => terms.length === 0 || matchesText(textOf(t), terms))
    .sort(compareTransactions(sort))
    .map((t) => t.id);
}

export const FILTERS: [string, TransactionFilter][] = [
  ['no filter', {}],
  ['one user', { user_ids: [testUuid(2, 1)] }],
  ['departments', { department_ids: [testUuid(3, 1), testUuid(3, 2)] }],
  ['GL accounts', { gl_account_ids: [testUuid(5, 1), testUuid(5, 3)] }],
  ['one merchant, exactly', { merchant: 'Starbucks' }],
  ['amount range', { amount_min: 1000, amount_max: 50_000 }],
  ['dates', { from: '2025-01-01', to: '2025-03-31' }],
  ['missing coding', { missing_coding: true }],
  ['coded and pending', { missing_coding: false, states: ['PENDING'] }],
  ['one currency (issue 25)', { currency: 'EUR' }],
  ['one currency, uncoded', { currency: 'JPY', missing_coding: true }],
  ['text prefix', { q: 'star' }],
  ['text infix, as the server matches', { q: 'bucks' }],
  ['text of one or two characters', { q: 'e ub' }],
  ['text AND across fields', { q: 'uber ada' }],
  ['text with apostrophe', { q: "o'brien lunch" }],
  ['text on coding name', { q: 'meals' }],
  ['text accented', { q: 'écl' }],
  ['text and filter', { q: 'travel', department_ids: [testUuid(3, 2)] }],
  ['no match', { q: 'zzzz' }],
];
