import { describe, expect, it } from 'vitest';
import type { TransactionView } from '../../data-access/types.ts';
import { attendeeList, drawerPatch, valuesOf } from './drawer-form.ts';

const GL = '11111111-1111-4111-8111-111111111111';

const txn = {
  id: 't1', memo: 'Lunch', gl_account_id: null, department_id: null, location_id: null, tracking: {}, attendees: ['Ana', 'bo@x.io'],
} as unknown as TransactionView;

describe('drawer form', () => {
  it('reads attendees one a line or comma-separated, trimmed, without blanks or repeats', () => {
    expect(attendeeList(' Ana \n\nbo@x.io, Ana ,Cy')).toEqual(['Ana', 'bo@x.io', 'Cy']);
  });

  it('asks for nothing while the form is as the transaction is', () => {
    expect(valuesOf(txn).attendees).toBe('Ana\nbo@x.io');
    expect(drawerPatch(txn, valuesOf(txn))).toBeNull();
    expect(drawerPatch(txn, { ...valuesOf(txn), attendees: 'Ana, bo@x.io\n' })).toBeNull();
  });

  it('sends only what changed: the coding, and the whole attendee list when it changed', () => {
    expect(drawerPatch(txn, { ...valuesOf(txn), gl_account_id: GL })).toEqual({ gl_account_id: GL });
    expect(drawerPatch(txn, { ...valuesOf(txn), attendees: 'Ana' })).toEqual({ attendees: ['Ana'] });
  });
});
