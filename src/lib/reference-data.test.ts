import { describe, expect, it } from 'vitest';
import { buildReferenceView, EMPTY_REFERENCE } from './reference-data.ts';
import type { ReferenceData } from '../data-access/types.ts';

const mirrored = { business_id: '00000000-0000-4000-8000-000000000000', change_seq: 1, updated_at: '2026-01-01T00:00:00Z', deleted: false };
const U = '10000000-0000-4000-8000-000000000001';
const G1 = '20000000-0000-4000-8000-000000000001';
const G2 = '20000000-0000-4000-8000-000000000002';
const G3 = '20000000-0000-4000-8000-000000000003';
const C = '30000000-0000-4000-8000-000000000001';
const O = '30000000-0000-4000-8000-000000000002';

const data: ReferenceData = {
  ...EMPTY_REFERENCE,
  departments: [{ id: 'd2', name: 'Sales', owner_ids: [], ...mirrored }, { id: 'd1', name: 'Engineering', owner_ids: [], ...mirrored }],
  gl_accounts: [
    { id: G1, code: '6100', name: 'Travel', classification: 'EXPENSE', active: true, ...mirrored },
    { id: G2, code: '600', name: 'Meals', classification: 'EXPENSE', active: true, ...mirrored },
    { id: G3, code: '6200', name: 'Old', classification: 'EXPENSE', active: false, ...mirrored },
  ],
  tracking_categories: [{ id: C, name: 'Project', options: [{ id: O, name: 'Apollo' }], ...mirrored }],
  users: [
    { id: U, role: 'BUSINESS_USER', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@x.test', is_manager: false, manager_id: null, department_id: null, location_id: null, status: 'ACTIVE', payroll_currency: null, ...mirrored },
  ],
  entities: [{ id: 'e1', name: 'Acme GmbH', country: 'DE', currency: 'EUR', owner_ids: [], created_at: '2026-01-01T00:00:00Z', ...mirrored }],
};

describe('buildReferenceView', () => {
  const view = buildReferenceView(data);

  it('names ids, and leaves unknown or empty ones blank', () => {
    expect(view.names.user(U)).toBe('Ada Lovelace');
    expect(view.names.user('missing')).toBe('');
    expect(view.names.glAccount(G3)).toBe('6200 Old');
    expect(view.names.glAccount(null)).toBe('');
    expect(view.names.trackingOption(C, O)).toBe('Apollo');
    expect(view.names.trackingOption(C, undefined)).toBe('');
    expect(view.names.entity('e1')).toBe('Acme GmbH');
    expect(view.names.entity('gone')).toBe('');
    expect(view.names.entity(null)).toBe('');
  });

  it('sorts options by label, GL accounts by code numerically, and offers only active GL accounts', () => {
    expect(view.options.departments.map((o) => o.label)).toEqual(['Engineering', 'Sales']);
    expect(view.options.glAccounts.map((o) => o.label)).toEqual(['600 Meals', '6100 Travel']);
  });
});
