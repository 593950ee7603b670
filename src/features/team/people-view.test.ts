import { describe, expect, it } from 'vitest';
import { filterPeople, managerOptions, overlayAnswers, peopleCount, visiblePeople, type Person } from './people-view.ts';

const person = (id: string, over: Partial<Person> = {}): Person & { change_seq: number } => ({
  id, role: 'BUSINESS_USER', first_name: id.toUpperCase(), last_name: 'Smith', email: `${id}@acme.test`, is_manager: false,
  manager_id: null, department_id: null, location_id: null, status: 'ACTIVE', change_seq: 1, ...over,
});
// boss ← mid ← low; other has no manager.
const PEOPLE = [
  person('boss', { is_manager: true }),
  person('mid', { manager_id: 'boss', is_manager: true }),
  person('low', { manager_id: 'mid', status: 'INVITED' }),
  person('other', { role: 'BUSINESS_ADMIN', status: 'SUSPENDED', first_name: 'Zed' }),
];

describe('people view', () => {
  it('admins see everyone; a manager their reports at any depth, not themselves', () => {
    expect(visiblePeople({ id: 'other', role: 'BUSINESS_ADMIN', is_manager: false }, PEOPLE)).toHaveLength(4);
    expect(visiblePeople({ id: 'boss', role: 'BUSINESS_USER', is_manager: true }, PEOPLE).map((p) => p.id)).toEqual(['mid', 'low']);
    expect(visiblePeople({ id: 'low', role: 'BUSINESS_USER', is_manager: false }, PEOPLE)).toEqual([]);
  });

  it('searches name and email, filters status and role (Manager = the flag), sorted by name', () => {
    expect(filterPeople(PEOPLE, { q: 'LOW@' }).map((p) => p.id)).toEqual(['low']);
    expect(filterPeople(PEOPLE, { q: 'smith' }).map((p) => p.id)).toEqual(['boss', 'low', 'mid', 'other']);
    expect(filterPeople(PEOPLE, { status: 'INVITED' }).map((p) => p.id)).toEqual(['low']);
    expect(filterPeople(PEOPLE, { role: 'MANAGER' }).map((p) => p.id)).toEqual(['boss', 'mid']);
    expect(filterPeople(PEOPLE, { role: 'BUSINESS_ADMIN' }).map((p) => p.id)).toEqual(['other']);
  });

  it('offers as managers only active people outside the person’s own reports', () => {
    expect(managerOptions(PEOPLE, 'mid').map((o) => o.value)).toEqual(['boss']);
    expect(managerOptions(PEOPLE, null).map((o) => o.value).sort()).toEqual(['boss', 'mid']);
  });

  it('overlays the server’s answers until the mirror has the same or newer', () => {
    const answer = { ...person('low', { status: 'ACTIVE' }), change_seq: 5 };
    expect(overlayAnswers(PEOPLE, new Map([['low', answer]])).find((p) => p.id === 'low')?.status).toBe('ACTIVE');
    const newer = PEOPLE.map((p) => (p.id === 'low' ? { ...p, change_seq: 5 } : p));
    expect(overlayAnswers(newer, new Map([['low', answer]])).find((p) => p.id === 'low')?.status).toBe('INVITED');
    const gone = { ...person('other'), change_seq: 9, deleted: true };
    expect(overlayAnswers(PEOPLE, new Map([['other', gone]])).map((p) => p.id)).not.toContain('other');
  });

  it('counts', () => expect([peopleCount(1), peopleCount(1200)]).toEqual(['1 person', '1,200 people']));
});
