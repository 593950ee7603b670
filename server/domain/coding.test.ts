import { describe, expect, it } from 'vitest';
import type { CodingPatch } from '../../schema/commands/coding-patch.ts';
import { applyCodingPatch } from '../../schema/commands/transaction-code.ts';
import type { Transaction } from '../../schema/entities/transaction.ts';
import { patchAssignments } from './coding.ts';

const CAT_A = '11111111-1111-4111-8111-111111111111';
const CAT_B = '22222222-2222-4222-8222-222222222222';
const OPT_1 = '33333333-3333-4333-8333-333333333333';
const OPT_2 = '44444444-4444-4444-8444-444444444444';
const GL = '55555555-5555-4555-8555-555555555555';

type Coded = Pick<Transaction, 'memo' | 'gl_account_id' | 'department_id' | 'location_id' | 'tracking'>;

/** What the bulk UPDATE does with the assignments, evaluated in JS. */
function applyAssignments(row: Coded, patch: CodingPatch): Coded {
  const a = patchAssignments(patch);
  const tracking = { ...row.tracking };
  if (a.tracking) {
    for (const k of a.tracking.remove) delete tracking[k];
    Object.assign(tracking, a.tracking.set);
  }
  const replaced = Object.fromEntries(Object.entries(a.fields).map(([f, set]) => [f, set.value]));
  return { ...row, ...replaced, tracking };
}

const rows: Coded[] = [
  { memo: null, gl_account_id: null, department_id: null, location_id: null, tracking: {} },
  { memo: 'Lunch', gl_account_id: GL, department_id: GL, location_id: null, tracking: { [CAT_A]: OPT_1, [CAT_B]: OPT_2 } },
];
const patches: CodingPatch[] = [
  { memo: '' },
  { memo: 'Offsite' },
  { memo: null, gl_account_id: null },
  { gl_account_id: GL, department_id: null, location_id: GL },
  { tracking: { [CAT_A]: OPT_2 } },
  { tracking: { [CAT_A]: null, [CAT_B]: OPT_1 } },
  { tracking: {} },
];

describe('bulk coding assignments', () => {
  it.each(patches.flatMap((p) => rows.map((r) => [p, r] as const)))('mean exactly what the shared apply means: %j on %j', (patch, row) => {
    expect(applyAssignments(row, patch)).toEqual(applyCodingPatch(row, patch));
  });
});
