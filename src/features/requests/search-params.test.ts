import { describe, expect, it } from 'vitest';
import { SPEND_REQUEST_STATUSES, SPEND_REQUEST_TYPES } from '../../../schema/entities/spend-request.ts';
import { parseRequestsSearch, requestFilter, requestsSearchSchema } from './search-params.ts';

describe('/requests URL state', () => {
  it('offers exactly the entity\'s statuses and types (written out to keep the entity out of the first load)', () => {
    expect(requestsSearchSchema.shape.status.unwrap().options).toEqual([...SPEND_REQUEST_STATUSES]);
    expect(requestsSearchSchema.shape.type.unwrap().options).toEqual([...SPEND_REQUEST_TYPES]);
  });

  it('drops an unknown status, keeps the rest, and filters the viewer\'s own by default', () => {
    const me = '00000000-0000-4000-8000-000000000001';
    const search = parseRequestsSearch({ status: 'LOST', type: 'PHYSICAL_CARD' });
    // "mine" is the default, never written.
    expect(search).toEqual({ type: 'PHYSICAL_CARD' });
    expect(requestFilter(search, me, [me])).toEqual({ user_ids: [me], types: ['PHYSICAL_CARD'] });
  });
});
