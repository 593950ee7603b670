import { describe, expect, it } from 'vitest';
import { dueText, isOverdue, localDay } from './bill-labels.ts';

const TODAY = '2026-11-26';

describe('bill due words', () => {
  it.each([
    ['APPROVED', '2026-11-23', true, 'Overdue by 3 days'],
    ['PENDING_APPROVAL', '2026-11-25', true, 'Overdue by 1 day'],
    ['SCHEDULED', TODAY, false, 'Due today'],
    ['DRAFT', '2026-11-27', false, 'Due tomorrow'],
    ['PAYMENT_FAILED', '2026-12-03', false, 'Due in 7 days'],
    ['APPROVED', '2027-01-30', false, null],
    // Nothing is owed any more: never overdue.
    ['PAID', '2026-01-01', false, null],
    ['RECONCILED', '2026-01-01', false, null],
    ['CANCELED', '2026-01-01', false, null],
  ] as const)('%s due %s: overdue %s, "%s"', (status, due_date, overdue, text) => {
    expect(isOverdue({ status, due_date }, TODAY)).toBe(overdue);
    expect(dueText({ status, due_date }, TODAY)).toBe(text);
  });

  it('takes the local calendar day', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});
