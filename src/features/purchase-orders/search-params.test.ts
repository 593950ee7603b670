import { describe, expect, it } from 'vitest';
import { PURCHASE_ORDER_STATUSES } from '../../../schema/entities/purchase-order.ts';
import { parsePurchaseOrdersSearch, purchaseOrdersSearchSchema } from './search-params.ts';

describe('/purchase-orders search', () => {
  it('takes every status of the entity, and only those', () => {
    expect(purchaseOrdersSearchSchema.shape.status.unwrap().options).toEqual([...PURCHASE_ORDER_STATUSES]);
  });
  it.each([
    [{ q: 'acme', status: 'OPEN' }, { q: 'acme', status: 'OPEN' }],
    [{ q: '', status: 'SHIPPED' }, {}],
    [{ status: 'CLOSED', other: 'x' }, { status: 'CLOSED' }],
  ])('%j → %j', (raw, search) => expect(parsePurchaseOrdersSearch(raw)).toEqual(search));
});
