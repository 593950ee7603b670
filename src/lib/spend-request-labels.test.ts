import { describe, expect, it } from 'vitest';
import type { SpendRequest } from '../../schema/entities/spend-request.ts';
import {
  approvalOutcomeText, budgetLeftText, budgetOpen, budgetTone, budgetUsed, requestAmountText, requestOutcome, requestSubject, requestTimeline,
} from './spend-request-labels.ts';

const names = { user: (id: string) => (id === 'ana' ? 'Ana Ruiz' : ''), vendor: (id: string) => (id === 'acme' ? 'Acme' : ''), budget: (id: string) => (id === 'mkt' ? 'Marketing' : '') };
const request = (patch: Partial<SpendRequest>) => ({
  type: 'GENERAL_EXPENSE', status: 'PENDING_APPROVAL', amount: { amount: 50000, currency: 'USD' }, interval: 'TOTAL', user_id: 'ana', vendor_id: null,
  line_items: [], spend_allocation_id: null, description: 'Offsite', card_id: null, purchase_order_id: null,
  created_at: '2026-11-01T10:00:00.000Z', submitted_at: null, decided_at: null, fulfilled_at: null, canceled_at: null, ...patch,
}) as SpendRequest;
const line = { id: 'l', description: 'Chair', quantity: 1, unit_price: 100 };

describe('approvalOutcomeText', () => {
  it.each([
    [request({}), 'Approving issues a $500.00 virtual card to Ana Ruiz (limit $500.00 in total).'],
    [request({ spend_allocation_id: 'mkt' }), 'Approving adds $500.00 to the Marketing budget for Ana Ruiz.'],
    [request({ type: 'PRODUCT_OR_SERVICE', vendor_id: 'acme', line_items: [line, line, line] }), 'Approving creates a purchase order to Acme for 3 lines ($500.00).'],
    [request({ type: 'PHYSICAL_CARD', interval: 'MONTHLY' }), 'Approving issues a physical card to Ana Ruiz with a $500.00 a month limit, shipped to them.'],
  ])('%#', (r, text) => expect(approvalOutcomeText(r, names)).toBe(text));
});

describe('request words', () => {
  it('amounts: a card-like request with its interval, a purchase plain', () => {
    expect(requestAmountText(request({ interval: 'MONTHLY' }))).toBe('$500.00 a month');
    expect(requestAmountText(request({ type: 'PRODUCT_OR_SERVICE' }))).toBe('$500.00');
  });
  it('subject: vendor and lines, the budget, or the description', () => {
    expect(requestSubject(request({ type: 'PRODUCT_OR_SERVICE', vendor_id: 'acme', line_items: [line] }), names)).toBe('Acme · 1 line');
    expect(requestSubject(request({ spend_allocation_id: 'mkt' }), names)).toBe('More room in Marketing');
    expect(requestSubject(request({}), names)).toBe('Offsite');
  });
  it('outcome: the card, the PO, the budget, else what it waits for', () => {
    const refs = { budget: names.budget, poNumber: (id: string) => (id === 'po' ? 'PO-000123' : '') };
    expect(requestOutcome(request({ status: 'FULFILLED', card_id: 'c1' }), refs)).toEqual({ kind: 'card', label: 'Virtual card', href: '/cards?open=c1' });
    expect(requestOutcome(request({ status: 'FULFILLED', purchase_order_id: 'po' }), refs)).toMatchObject({ kind: 'purchase_order', label: 'PO-000123' });
    expect(requestOutcome(request({ status: 'FULFILLED', spend_allocation_id: 'mkt' }), refs)).toMatchObject({ kind: 'budget', label: 'Marketing', href: '/budgets?open=mkt' });
    expect(requestOutcome(request({ status: 'PENDING_APPROVAL', spend_allocation_id: 'mkt' }), refs)).toEqual({ kind: 'none', label: 'Waiting for approval' });
    expect(requestOutcome(request({ status: 'REJECTED' }), refs).label).toBe('Nothing issued');
  });
  it('timeline: the steps that happened, in order', () => {
    const r = request({ status: 'FULFILLED', submitted_at: '2026-11-01T10:00:01.000Z', decided_at: '2026-11-02T09:00:00.000Z', fulfilled_at: '2026-11-02T09:00:00.000Z' });
    expect(requestTimeline(r).map((s) => s.label)).toEqual(['Created', 'Submitted for approval', 'Approved', 'Fulfilled']);
    expect(requestTimeline(request({ status: 'REJECTED', decided_at: '2026-11-03T00:00:00.000Z' })).map((s) => s.key)).toEqual(['created', 'rejected']);
  });
});

describe('budgets', () => {
  const budget = (amount: number, spent: number) => ({ limit: { amount, currency: 'USD', interval: 'MONTHLY' as const }, spent, left: Math.max(0, amount - spent) });
  it('left text, share spent and tone', () => {
    expect(budgetLeftText(budget(50000, 12000))).toBe('$380.00 left of $500.00 this month');
    expect(budgetUsed(budget(50000, 12000))).toBeCloseTo(0.24);
    expect(budgetTone(budget(50000, 12000))).toBe('ok');
    expect(budgetTone(budget(50000, 46000))).toBe('warn');
    expect(budgetTone(budget(50000, 60000))).toBe('danger');
    expect(budgetUsed(budget(0, 0))).toBe(0);
  });
  it('open: not archived, end date today or later', () => {
    expect(budgetOpen({ archived: false, end_date: '2026-11-29' }, '2026-11-29')).toBe(true);
    expect(budgetOpen({ archived: false, end_date: '2026-11-28' }, '2026-11-29')).toBe(false);
    expect(budgetOpen({ archived: true, end_date: null }, '2026-11-29')).toBe(false);
  });
});
