import { describe, expect, it } from 'vitest';
import { parseTransfersSearch } from './search-params.ts';

describe('transfers URL state', () => {
  it('keeps a known status and drops anything else', () => {
    expect(parseTransfersSearch({ status: 'PENDING' })).toEqual({ status: 'PENDING' });
    expect(parseTransfersSearch({ status: 'nope', other: 'x' })).toEqual({});
  });
});
