import { describe, expect, it } from 'vitest';
import { businessEntityRowSchema } from '../../../../schema/entities/business-entity.ts';
import { departmentSchema } from '../../../../schema/entities/department.ts';
import { userRowSchema, type UserRow } from '../../../../schema/entities/spend-user.ts';
import { countryChoices, currencyChoices, defaultCurrencyFor } from './org-choices.ts';
import { deleteImpact, entityRows, nameError, noAnswers, ownerChoices, orgUnitRows, withAnswers } from './org-view.ts';

const mirrored = (seq = 1) => ({ business_id: '00000000-0000-4000-8000-000000000000', change_seq: seq, updated_at: `2026-01-0${seq}T00:00:00.000Z`, deleted: false });
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const user = (n: number, first: string, over: Partial<UserRow> = {}): UserRow =>
  userRowSchema.parse({
    id: id(n), role: 'BUSINESS_USER', first_name: first, last_name: 'Doe', email: `${first.toLowerCase()}@x.test`, is_manager: false, manager_id: null,
    department_id: null, location_id: null, status: 'ACTIVE', payroll_currency: null, ...mirrored(), ...over,
  });
const dept = (n: number, name: string, owners: string[] = [], seq = 1) => departmentSchema.parse({ id: id(100 + n), name, owner_ids: owners, ...mirrored(seq) });

describe('organisation rows', () => {
  const eng = dept(1, 'Engineering');
  const sales = dept(2, 'sales');
  const users = [
    user(1, 'Ada', { department_id: eng.id }),
    user(2, 'Bob', { department_id: eng.id, status: 'INVITED' }),
    user(3, 'Cy', { department_id: sales.id }),
  ];

  it('lists by name (case-insensitive), counts people and names owners, and searches name and owners', () => {
    const rows = orgUnitRows([{ ...sales, owner_ids: [id(1), id(99)] }, eng], users, 'departments', '');
    expect(rows.map((r) => [r.name, r.people, r.owners])).toEqual([
      ['Engineering', 2, []],
      ['sales', 1, ['Ada Doe', 'Former member']],
    ]);
    expect(orgUnitRows([{ ...sales, owner_ids: [id(1)] }, eng], users, 'departments', 'ada').map((r) => r.name)).toEqual(['sales']);
    expect(orgUnitRows([eng, sales], users, 'departments', 'ENG').map((r) => r.name)).toEqual(['Engineering']);
    expect(orgUnitRows([eng, sales], users, 'locations', '').map((r) => r.people)).toEqual([0, 0]);
  });

  it('shows the server answers over the mirror until the mirror has a row as new, and hides removed rows', () => {
    const renamed = { ...eng, name: 'R&D', updated_at: '2026-01-05T00:00:00.000Z' };
    const created = dept(3, 'Ops', [], 6);
    const answers = { rows: new Map([[eng.id, renamed], [created.id, created]]), removed: new Set([sales.id]) };
    expect(withAnswers([eng, sales], answers).map((d) => d.name)).toEqual(['R&D', 'Ops']);
    const caughtUp = { ...eng, name: 'R&D 2', updated_at: '2026-01-07T00:00:00.000Z' };
    expect(withAnswers([caughtUp], answers).map((d) => d.name)).toEqual(['R&D 2', 'Ops']);
    expect(withAnswers([eng], noAnswers())).toEqual([eng]);
  });

  it('says what a delete does in the server’s terms', () => {
    expect(deleteImpact('departments', 'Sales', 3)).toBe(
      '3 people in Sales will have no department. Transactions already coded to Sales keep it as history, but it can’t be chosen for new coding.',
    );
    expect(deleteImpact('locations', 'Berlin', 1)).toMatch(/^1 person in Berlin will have no location\./);
    expect(deleteImpact('locations', 'Berlin', 0)).toMatch(/^No one is in Berlin\./);
  });

  it('checks names as the server does and offers only members not yet chosen', () => {
    expect(nameError('  ', 'department')).toBe('Enter the department’s name.');
    expect(nameError('x'.repeat(201), 'department')).toBe('Use at most 200 characters.');
    expect(nameError(' Ops ', 'department')).toBeNull();
    expect(ownerChoices([...users, user(4, 'Dee', { deleted: true })], [id(1)]).map((o) => o.label)).toEqual(['Bob Doe · bob@x.test', 'Cy Doe · cy@x.test']);
  });

  it('lists entities with country names and searches them', () => {
    const e = businessEntityRowSchema.parse({ id: id(200), name: 'Acme GmbH', country: 'DE', currency: 'EUR', owner_ids: [id(3)], created_at: '2026-01-01T00:00:00.000Z', ...mirrored() });
    const rows = entityRows([e], users, '', (c) => (c === 'DE' ? 'Germany' : c));
    expect(rows).toMatchObject([{ name: 'Acme GmbH', country: 'Germany', currency: 'EUR', owners: ['Cy Doe'] }]);
    expect(entityRows([e], users, 'germany eur', (c) => (c === 'DE' ? 'Germany' : c))).toHaveLength(1);
    expect(entityRows([e], users, 'france', (c) => c)).toHaveLength(0);
  });
});

describe('entity pickers', () => {
  it('offer every country and currency, common ones first, and keep an unknown stored code', () => {
    const countries = countryChoices();
    expect(countries.length).toBeGreaterThanOrEqual(249);
    expect(countries[0]).toEqual({ value: 'US', label: expect.any(String) });
    expect(countryChoices('XK').some((o) => o.value === 'XK')).toBe(true);
    const currencies = currencyChoices();
    expect(currencies[0]!.value).toBe('USD');
    expect(currencies.map((c) => c.value)).toEqual(expect.arrayContaining(['EUR', 'NZD', 'BRL']));
    expect(new Set(currencies.map((c) => c.value)).size).toBe(currencies.length);
    expect(defaultCurrencyFor('DE')).toBe('EUR');
    expect(defaultCurrencyFor('ZZ')).toBeNull();
  });
});
