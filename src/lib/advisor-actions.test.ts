import { describe, expect, it } from 'vitest';
import { payBillsNow } from '../../schema/api/calls-bills.ts';
import { CATALOGUE } from '../../schema/api/calls.ts';
import { offeredTo } from './advisor-actions.ts';

const patch = CATALOGUE.find((c) => c.id === 'transactions.patch')!;

describe('offeredTo', () => {
  it('offers everything to the business’s own people', () => {
    expect(offeredTo(null, payBillsNow)).toBe(true);
  });
  it('never offers paying a bill to a firm user, whatever the rights', () => {
    expect(offeredTo('f1', payBillsNow)).toBe(false);
    expect(offeredTo('f1', payBillsNow, ['READ', 'CODE', 'CLOSE_BOOKS'])).toBe(false);
  });
  it('offers coding by the rights', () => {
    expect(offeredTo('f1', patch, ['READ', 'CODE'])).toBe(true);
    expect(offeredTo('f1', patch, ['READ'])).toBe(false);
  });
});
