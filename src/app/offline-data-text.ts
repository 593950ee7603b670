import { formatCount } from '../lib/format.ts';

/** "12,345 transactions, 3 reimbursements and 210 other records" from the worker's row counts. */
export function rowsText(rows: Record<string, number>): string {
  const n = formatCount;
  const { transactions = 0, reimbursements = 0, ...rest } = rows;
  const other = Object.values(rest).reduce((a, b) => a + b, 0);
  return `${n(transactions)} ${transactions === 1 ? 'transaction' : 'transactions'}, ${n(reimbursements)} ${reimbursements === 1 ? 'reimbursement' : 'reimbursements'} and ${n(other)} other ${other === 1 ? 'record' : 'records'} (accounts, people, cards, coding lists)`;
}
