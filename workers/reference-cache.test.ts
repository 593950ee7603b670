import { describe, expect, it } from 'vitest';
import { ENTITIES } from '../schema/collections.ts';
import { ReferenceCache } from './reference-cache.ts';
import { transactionText } from './collections/transactions.ts';
import { refersTo } from './collections/spec-engine.ts';
import { tokenize } from './search-index.ts';
import { makeDepartment, makeGlAccount, makeLocation, makeTrackingCategory, makeTransaction, makeUser, testUuid } from './test-fixtures.ts';

function cache() {
  const refs = new ReferenceCache();
  refs.apply('users', [makeUser(1, 'Ada', 'Lovelace')], []);
  refs.apply('gl_accounts', [makeGlAccount(1, 'Meals and Entertainment')], []);
  refs.apply('departments', [makeDepartment(1, 'Engineering')], []);
  refs.apply('locations', [makeLocation(1, 'Berlin')], []);
  refs.apply('tracking_categories', [makeTrackingCategory(1, 'Project', ['Apollo', 'Gemini'])], []);
  return refs;
}

const coded = makeTransaction({
  merchant_name: 'Blue Bottle',
  memo: 'team offsite',
  user_id: testUuid(2, 1),
  gl_account_id: testUuid(5, 1),
  department_id: testUuid(3, 1),
  location_id: testUuid(4, 1),
  tracking: { [testUuid(6, 1)]: testUuid(6, 1002) },
});

const textOf = (refs: ReferenceCache) => transactionText(refs);

describe('transactionText over the reference cache', () => {
  it('holds the words the server searches: merchant, memo, cardholder, GL code and name, department, location, tracking', () => {
    expect(tokenize(textOf(cache())(coded))).toEqual(
      ['blue', 'bottle', 'team', 'offsite', 'ada', 'lovelace', '6001', 'meals', 'and', 'entertainment', 'engineering', 'berlin', 'project', 'gemini'],
    );
  });

  it('leaves out what it cannot name (unknown ids, an option of another category)', () => {
    const t = { ...coded, user_id: testUuid(2, 9), tracking: { [testUuid(6, 1)]: testUuid(6, 9999) } };
    expect(tokenize(textOf(cache())(t))).not.toContain('project');
    expect(tokenize(textOf(cache())(t))).not.toContain('ada');
  });
});

describe('ReferenceCache.apply', () => {
  it('reports the ids whose shown name changed, so their transactions are re-indexed', () => {
    const refs = cache();
    expect(refs.apply('departments', [makeDepartment(1, 'Engineering')], [])).toEqual([]);
    expect(refs.apply('departments', [makeDepartment(1, 'Platform')], [])).toEqual([testUuid(3, 1)]);
    const changed = refs.apply('tracking_categories', [makeTrackingCategory(1, 'Program', ['Apollo', 'Gemini'])], []);
    expect(changed).toContain(testUuid(6, 1));
    expect(refersTo(ENTITIES.transactions.query.referencedIds, new Set(changed))(coded)).toBe(true);
    expect(tokenize(textOf(refs)(coded))).toEqual(expect.arrayContaining(['platform', 'program']));
    expect(refs.apply('locations', [], [testUuid(4, 1)])).toEqual([testUuid(4, 1)]);
    expect(refs.snapshot().locations).toEqual([]);
  });
});
