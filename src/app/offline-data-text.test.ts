import { describe, expect, it } from 'vitest';
import { rowsText } from './offline-data-text.ts';

describe('rowsText (Settings → Offline data)', () => {
  it('names transactions and reimbursements and counts the rest together', () => {
    expect(rowsText({ transactions: 12_345, reimbursements: 3, gl_accounts: 200, departments: 9, users: 1 })).toBe(
      '12,345 transactions, 3 reimbursements and 210 other records (accounts, people, cards, coding lists)',
    );
    expect(rowsText({ transactions: 1, reimbursements: 1, cards: 1 })).toBe(
      '1 transaction, 1 reimbursement and 1 other record (accounts, people, cards, coding lists)',
    );
    expect(rowsText({})).toBe('0 transactions, 0 reimbursements and 0 other records (accounts, people, cards, coding lists)');
  });
});
