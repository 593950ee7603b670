import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { INVITE_CSV_COLUMNS, inviteCsvTemplate, MAX_INVITE_ROWS, parseInviteCsv, previewText, type CsvContext } from './invite-csv.ts';

const ADMIN = { id: 'a0000000-0000-4000-8000-000000000001', role: 'BUSINESS_ADMIN', is_manager: false };
const MANAGER = { id: 'a0000000-0000-4000-8000-000000000002', role: 'BUSINESS_USER', is_manager: true };
const SUSPENDED = { id: 'a0000000-0000-4000-8000-000000000003', email: 'gone@acme.test', status: 'SUSPENDED' };
const ctx = (actor = ADMIN): CsvContext => ({
  actor,
  users: [
    { id: ADMIN.id, email: 'Admin@Acme.test', status: 'ACTIVE' },
    { id: MANAGER.id, email: 'boss@acme.test', status: 'ACTIVE' },
    SUSPENDED,
    { id: 'a0000000-0000-4000-8000-000000000004', email: 'deleted@acme.test', status: 'ACTIVE', deleted: true },
  ],
  departments: [{ id: 'd0000000-0000-4000-8000-000000000001', name: 'Engineering' }],
  locations: [{ id: 'l0000000-0000-4000-8000-000000000001', name: 'London' }],
});
const csv = (...rows: string[]) => [INVITE_CSV_COLUMNS.join(','), ...rows].join('\n');
const rowsOf = (text: string, c = ctx()) => {
  const r = parseInviteCsv(text, c);
  if (!r.ok) throw new Error(r.error);
  return r.rows;
};

describe('parseInviteCsv', () => {
  it('turns a good row into the invite body, names matched case-insensitively, role by display name or code', () => {
    const [row] = rowsOf(csv('Ada@Example.com, Ada ,Lovelace,administrator,boss@ACME.test,engineering,LONDON'));
    expect(row).toMatchObject({ line: 2, errors: [], roleLabel: 'Administrator' });
    expect(row!.body).toEqual({
      email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', role: 'BUSINESS_ADMIN',
      manager_id: MANAGER.id, department_id: 'd0000000-0000-4000-8000-000000000001', location_id: 'l0000000-0000-4000-8000-000000000001',
    });
    expect(rowsOf(csv('b@example.com,B,C,BUSINESS_BOOKKEEPER,,,'))[0]!.body?.role).toBe('BUSINESS_BOOKKEEPER');
    expect(rowsOf(csv('c@example.com,C,D,,,,'))[0]!.body?.role).toBe('BUSINESS_USER');
  });

  it.each([
    ['not-an-email,A,B,,,,', '“not-an-email” is not a valid email address.'],
    [',A,B,,,,', 'Email is missing.'],
    ['admin@acme.test,A,B,,,,', 'Already a member of this business.'],
    ['x@example.com,,B,,,,', 'First name is missing.'],
    ['x@example.com,A,,,,,', 'Last name is missing.'],
    ['x@example.com,A,B,Wizard,,,', '“Wizard” is not a role.'],
    ['x@example.com,A,B,,nobody@acme.test,,', 'No member has the email “nobody@acme.test”.'],
    ['x@example.com,A,B,,gone@acme.test,,', 'The manager gone@acme.test is not active.'],
    ['x@example.com,A,B,,,Marketing,', 'No department is called “Marketing”.'],
    ['x@example.com,A,B,,,,Paris', 'No location is called “Paris”.'],
    ['x@example.com,A,B,Owner,,,', 'Only an owner can invite an owner.'],
  ])('%s → %s', (line, message) => {
    const [row] = rowsOf(csv(line));
    expect(row!.errors).toContain(message);
    expect(row!.body).toBeNull();
  });

  it('a deleted member’s email can be invited again; a repeat in the file names the first row', () => {
    const rows = rowsOf(csv('deleted@acme.test,A,B,,,,', 'new@acme.test,A,B,,,,', 'NEW@acme.test,C,D,,,,'));
    expect(rows.map((r) => r.errors)).toEqual([[], [], ['Duplicate of row 3 in this file.']]);
    expect(previewText(rows)).toBe('2 people ready to invite; 1 row has problems and will be skipped.');
  });

  it('applies the manager rules: employees reporting to themselves only', () => {
    const rows = rowsOf(csv('e@x.test,E,F,,,,', 'f@x.test,F,G,Administrator,,,', 'g@x.test,G,H,,admin@acme.test,,', 'h@x.test,H,I,,boss@acme.test,,'), ctx(MANAGER));
    expect(rows.map((r) => r.errors)).toEqual([[], ['Managers can invite employees only.'], ['Managers can invite only their own reports.'], []]);
  });

  it('refuses files without the needed columns, empty files and files over the limit', () => {
    expect(parseInviteCsv('mail,name\nx@y.z,X', ctx())).toEqual({ ok: false, error: 'The file has no email, first_name, last_name column. Start from the template.' });
    expect(parseInviteCsv(csv(), ctx())).toEqual({ ok: false, error: 'The file has no people in it.' });
    const many = csv(...Array.from({ length: MAX_INVITE_ROWS + 1 }, (_, i) => `p${i}@x.test,P,Q,,,,`));
    expect(parseInviteCsv(many, ctx())).toMatchObject({ ok: false, error: expect.stringContaining('at most 500') });
  });

  it('reads headers in any case and spacing, a BOM, quoted commas and blank lines', () => {
    const text = '\uFEFFEmail,First Name,Last-Name,Department\n"q@x.test","Quinn, Jr.",Ray,engineering\n\n';
    const [row] = rowsOf(text);
    expect(row!.body).toMatchObject({ email: 'q@x.test', first_name: 'Quinn, Jr.', department_id: 'd0000000-0000-4000-8000-000000000001' });
  });

  it('the template parses to one good row', () => {
    const parsed = Papa.parse(inviteCsvTemplate(), { header: true, skipEmptyLines: true });
    expect(parsed.meta.fields).toEqual([...INVITE_CSV_COLUMNS]);
    expect(rowsOf(inviteCsvTemplate())[0]!.errors).toEqual([]);
  });

  it('words the preview', () => {
    const good = rowsOf(csv('a@x.test,A,B,,,,'));
    const bad = rowsOf(csv('nope,A,B,,,,', 'nope2,A,B,,,,'));
    expect(previewText(good)).toBe('1 person ready to invite.');
    expect(previewText(bad)).toBe('No row can be invited: all 2 have problems to fix in the file.');
  });
});
