import { describe, expect, it } from 'vitest';
import { CLEAR, KEEP, bulkPatch, diffCoding, emptyBulkForm, type CodingValues } from './coding-patch.ts';
import { codingPatchSchema } from '../../../schema/commands/coding-patch.ts';

const GL = '11111111-1111-4111-8111-111111111111';
const DEPT = '22222222-2222-4222-8222-222222222222';
const CAT = '33333333-3333-4333-8333-333333333333';
const OPT = '44444444-4444-4444-8444-444444444444';
const OPT2 = '55555555-5555-4555-8555-555555555555';

describe('bulkPatch', () => {
  it('changes nothing for an untouched form', () => {
    expect(bulkPatch(emptyBulkForm())).toBeNull();
  });

  it.each([
    ['sets a GL account', { gl_account_id: GL }, { gl_account_id: GL }],
    ['clears a department', { department_id: CLEAR }, { department_id: null }],
    ['keeps location', { location_id: KEEP }, null],
    ['sets a tracking option', { tracking: { [CAT]: OPT } }, { tracking: { [CAT]: OPT } }],
    ['clears a tracking option', { tracking: { [CAT]: CLEAR } }, { tracking: { [CAT]: null } }],
    ['keeps tracking', { tracking: { [CAT]: KEEP } }, null],
    ['sets a memo', { memo: { set: true, value: 'Team lunch' } }, { memo: 'Team lunch' }],
    ['an empty memo clears it', { memo: { set: true, value: '  ' } }, { memo: null }],
    ['an unticked memo is left alone', { memo: { set: false, value: 'x' } }, null],
  ])('%s', (_name, overrides, expected) => {
    const patch = bulkPatch({ ...emptyBulkForm(), ...overrides });
    expect(patch).toEqual(expected);
    if (patch) expect(codingPatchSchema.safeParse(patch).success).toBe(true);
  });
});

describe('diffCoding', () => {
  const original: CodingValues = {
    memo: 'Lunch',
    gl_account_id: GL,
    department_id: null,
    location_id: null,
    tracking: { [CAT]: OPT },
  };

  it('is null when nothing changed', () => {
    expect(diffCoding(original, { ...original, tracking: { ...original.tracking } })).toBeNull();
  });

  it.each([
    ['memo', { memo: 'Dinner' }, { memo: 'Dinner' }],
    ['memo emptied', { memo: '' }, { memo: null }],
    ['GL cleared', { gl_account_id: null }, { gl_account_id: null }],
    ['department set', { department_id: DEPT }, { department_id: DEPT }],
    ['tracking changed', { tracking: { [CAT]: OPT2 } }, { tracking: { [CAT]: OPT2 } }],
    ['tracking removed', { tracking: {} }, { tracking: { [CAT]: null } }],
  ])('%s', (_name, edits, expected) => {
    expect(diffCoding(original, { ...original, ...edits })).toEqual(expected);
  });
});
