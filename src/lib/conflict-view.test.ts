import { describe, expect, it } from 'vitest';
import { allChoices, resolvedPatch } from '../../schema/commands/conflicts.ts';
import { conflictFieldViews, conflictSentence, directConflictMessage, fieldLabel, formatFieldValue, type ConflictContext } from './conflict-view.ts';
import { buildReferenceView } from './reference-data.ts';
import { formatLocalDateTime } from './format.ts';

const GL = '00000000-0000-4000-8000-00000000a001';
const GL2 = '00000000-0000-4000-8000-00000000a002';
const CAT = '00000000-0000-4000-8000-00000000c001';
const OPT = '00000000-0000-4000-8000-00000000c002';
const names = buildReferenceView({
  departments: [], locations: [], users: [], reimbursement_rates: [], vendors: [], provisional_bills: [], saved_reports: [], dashboards: [],
  mapping_rules: [], entities: [],
  gl_accounts: [{ id: GL, code: '6010', name: 'Meals' }, { id: GL2, code: '6200', name: 'Travel' }],
  tracking_categories: [{ id: CAT, name: 'Project', options: [{ id: OPT, name: 'Apollo' }] }],
} as never).names;
const ctx: ConflictContext = { names, currency: 'USD', trackingCategory: (id) => (id === CAT ? 'Project' : undefined) };
const ALEX = { user_id: '00000000-0000-4000-8000-0000000000a1', name: 'Alex Kim' };

describe('conflict drawer view', () => {
  it('writes values as the app shows the field: GL names, money, days, empty', () => {
    expect(formatFieldValue('gl_account_id', GL, ctx)).toBe('6010 Meals');
    expect(formatFieldValue('gl_account_id', null, ctx)).toBe('Empty');
    expect(formatFieldValue('memo', 'Team lunch', ctx)).toBe('Team lunch');
    expect(formatFieldValue('amount', 1250, ctx)).toBe('$12.50');
    expect(formatFieldValue('tracking.' + CAT, OPT, ctx)).toBe('Apollo');
    expect(formatFieldValue('transaction_date', '2026-11-03', ctx)).toMatch(/Nov.*3|3.*Nov/);
    expect(fieldLabel('gl_account_id')).toBe('GL account');
    expect(fieldLabel('tracking.' + CAT, ctx)).toBe('Project');
    expect(fieldLabel('payment_terms')).toBe('Payment terms');
  });

  it('says who changed it, when, and whether this change was waiting to sync', () => {
    const at = '2026-11-28T14:02:00.000Z';
    const made = Date.parse('2026-11-28T13:00:00.000Z');
    expect(conflictSentence({ changed_by: ALEX, changed_at: at }, 'Memo', made))
      .toBe(`Alex Kim changed the memo at ${formatLocalDateTime(at)} while your change was waiting to sync.`);
    expect(conflictSentence({ changed_by: null, changed_at: at }, 'GL account', Date.parse(at) + 1))
      .toBe(`Someone changed the GL account at ${formatLocalDateTime(at)}, before this device had their change.`);
    const [view] = conflictFieldViews([{ field: 'gl_account_id', server_value: GL2, your_value: GL, changed_by: ALEX, changed_at: at }], ctx, made);
    expect(view).toMatchObject({ label: 'GL account', theirs: '6200 Travel', mine: '6010 Meals', who: 'Alex Kim' });
  });

  it('the optimistic result of each choice: mine re-sends the field, theirs leaves it out, unnamed fields always go', () => {
    const patch = { memo: 'Mine', location_id: GL, tracking: { [CAT]: OPT } };
    const conflicts = [{ field: 'memo' }, { field: `tracking.${CAT}` }];
    expect(resolvedPatch(patch, conflicts, allChoices(conflicts, 'mine'))).toEqual(patch);
    expect(resolvedPatch(patch, conflicts, allChoices(conflicts, 'theirs'))).toEqual({ location_id: GL });
    expect(resolvedPatch(patch, conflicts, { memo: 'mine' })).toEqual({ memo: 'Mine', location_id: GL });
    expect(resolvedPatch({ memo: 'Mine' }, [{ field: 'memo' }], { memo: 'theirs' })).toBeNull();
    expect(resolvedPatch({ memo: null }, [{ field: 'memo' }], { memo: 'mine' })).toEqual({ memo: null });
  });
});

describe('a direct edit’s conflict (vendors, people)', () => {
  it('says who changed which field to what, and what saving again or cancelling does', () => {
    const at = '2026-11-28T14:02:00.000Z';
    expect(directConflictMessage([{ field: 'gl_account_id', server_value: GL2, your_value: GL, changed_by: ALEX, changed_at: at }], ctx))
      .toBe(`Alex Kim changed the GL account at ${formatLocalDateTime(at)} to “6200 Travel”. Nothing of yours was saved. Save again to keep your version, or cancel to keep theirs.`);
    expect(directConflictMessage(undefined, ctx)).toBeNull();
  });
});
