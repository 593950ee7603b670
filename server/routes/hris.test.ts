import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';
import { captureInviteMails } from './identity-test-kit.ts';

const HEADER = 'Employee ID,Work Email,First Name,Last Name,Job Title,Department,Location,Manager Email,Status,Hire Date,Termination Date';
const CONNECT = { provider: 'BambooHR', mode: 'upload', invite_new_hires: true, suspend_leavers: true, auto_apply: false, default_role: 'BUSINESS_USER' };

/** A file of the fixture's people: the manager, the employee moving to Design under the admin, the teammate leaving, one new hire. */
function peopleFile(f: Fixture, extra: string[] = []): string {
  return [
    HEADER,
    `E1,${f.email('manager')},Manny,Ger,Head of Sales,Sales,New York,,active,2020-01-02,`,
    `E2,${f.email('employee')},Em,Ployee,Designer,Design,Berlin,${f.email('admin')},active,3/4/2021,`,
    `E3,${f.email('teammate')},Tea,Mate,,Engineering,,${f.email('employee')},terminated,2021-01-01,2026-05-31`,
    `E4,new.hire@${f.businessId.slice(0, 8)}.fixture.test,Nia,Hire,Engineer,Design,Berlin,${f.email('employee')},Active,2026-06-01,`,
    ...extra,
  ].join('\r\n');
}

describe.each(await testDatabases())('HRIS connection and imports on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.UTC(2026, 5, 1) });
  const { mails } = captureInviteMails();
  const upload = (token: string, csv: string) =>
    request(t.app, 'POST', '/v1/auth/hris/imports?file_name=people.csv', { token, rawBody: csv, headers: { 'content-type': 'text/csv' } });
  const apply = (token: string, id: string) => request(t.app, 'POST', `/v1/auth/hris/imports/${id}/apply`, { token });
  const user = async (id: string) =>
    (await t.db.query<{ status: string; department: string | null; manager_id: string | null; first_name: string }>(
      `SELECT u.status, d.name AS department, u.manager_id::text, u.first_name FROM spend_users u LEFT JOIN departments d ON d.id = u.department_id WHERE u.id = $1`, [id]))[0]!;

  async function connected() {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    expect((await request(t.app, 'PUT', '/v1/auth/hris/connection', { token: admin, body: CONNECT })).status).toBe(200);
    return { f, admin };
  }

  it('connects, shows, refuses non-admins, and disconnects leaving people as they are', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    expect((await request(t.app, 'GET', '/v1/auth/hris/connection', { token: admin })).body).toEqual({ connection: null });
    const employee = await signIn(t.app, f.email('employee'));
    expect((await request(t.app, 'PUT', '/v1/auth/hris/connection', { token: employee, body: CONNECT })).status).toBe(403);
    expect((await request(t.app, 'PUT', '/v1/auth/hris/connection', { token: admin, body: { ...CONNECT, extra: 1 } })).status).toBe(422);
    expect((await upload(admin, peopleFile(f))).body.error_v2.message).toContain('Connect an HRIS first');
    const put = await request(t.app, 'PUT', '/v1/auth/hris/connection', { token: admin, body: { ...CONNECT, mode: 'drop', auto_apply: true } });
    expect(put.body).toMatchObject({ provider: 'BambooHR', mode: 'drop', auto_apply: true, drop_folder: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const folder = put.body.drop_folder;
    const again = await request(t.app, 'PUT', '/v1/auth/hris/connection', { token: admin, body: { ...CONNECT, provider: 'Rippling', mode: 'drop' } });
    expect(again.body).toMatchObject({ provider: 'Rippling', drop_folder: folder, auto_apply: false });
    expect((await request(t.app, 'DELETE', '/v1/auth/hris/connection', { token: admin })).body).toEqual({ disconnected: true });
    expect((await request(t.app, 'DELETE', '/v1/auth/hris/connection', { token: admin })).status).toBe(404);
    expect((await user(f.users.employee)).status).toBe('ACTIVE');
  });

  it('refuses a bad file whole with per-row errors: unknown columns, duplicates, unknown managers, loops', async () => {
    const { f, admin } = await connected();
    const unknownCol = await upload(admin, `${HEADER},Shoe Size\r\nE1,${f.email('manager')},A,B,,,,,active,,,42`);
    expect(unknownCol.status).toBe(201);
    expect(unknownCol.body).toMatchObject({ status: 'invalid', diff: null, errors: [{ row: 1, column: 'Shoe Size', message: expect.stringContaining('Unknown column') }] });
    const dupes = await upload(admin, peopleFile(f, [`E1,x@y.test,A,B,,,,,active,,`, `E9,${f.email('manager').toUpperCase()},A,B,,,,,bogus,2026-02-30,`]));
    expect(dupes.body.errors).toEqual([
      { row: 6, column: 'employee_id', message: 'employee_id "E1" is also on row 2.' },
      { row: 7, column: 'status', message: '"bogus" is not a status: use active or terminated.' },
      { row: 7, column: 'start_date', message: expect.stringContaining('is not a date') },
      { row: 7, column: 'email', message: expect.stringContaining('is also on row 2') },
    ]);
    const unknown = await upload(admin, [HEADER, `E1,${f.email('manager')},M,G,,,,nobody@else.test,active,,`].join('\n'));
    expect(unknown.body.errors).toEqual([{ row: 2, column: 'manager_email', message: 'Unknown manager: no row or person has the email nobody@else.test.' }]);
    const loop = await upload(admin, [HEADER,
      `E1,${f.email('manager')},M,G,,,,${f.email('employee')},active,,`,
      `E2,${f.email('employee')},E,P,,,,${f.email('manager')},active,,`].join('\n'));
    expect(loop.body.status).toBe('invalid');
    expect(loop.body.errors[0].message).toBe(`Loop in the reporting line: ${f.email('manager')} → ${f.email('employee')} → ${f.email('manager')}.`);
    expect((await apply(admin, loop.body.id)).status).toBe(422);
    expect((await user(f.users.employee)).manager_id).toBe(f.users.manager);
  });

  it('shows a diff, applies it once (a second apply and a re-import change nothing), invites once, suspends the leaver', async () => {
    const { f, admin } = await connected();
    const made = await upload(admin, peopleFile(f));
    expect(made.body.status).toBe('ready');
    const diff = made.body.diff;
    expect(diff.new_hires).toEqual([expect.objectContaining({ employee_id: 'E4', role: 'BUSINESS_USER', department: 'Design', manager: f.email('employee') })]);
    expect(diff.leavers).toEqual([expect.objectContaining({ user_id: f.users.teammate, end_date: '2026-05-31' })]);
    expect(diff.departments_to_create).toEqual(['Design']);
    const employeeChange = diff.changes.find((c: { user_id: string }) => c.user_id === f.users.employee);
    expect(employeeChange.fields).toEqual(expect.arrayContaining([
      { field: 'department', from: 'Engineering', to: 'Design' },
      { field: 'manager', from: f.email('manager'), to: f.email('admin') },
      { field: 'title', from: null, to: 'Designer' },
    ]));
    const applied = await apply(admin, made.body.id);
    expect(applied.body).toMatchObject({ status: 'applied', counts: { new_hires: 1, leavers: 1, departments: 1 } });
    expect(await user(f.users.teammate)).toMatchObject({ status: 'SUSPENDED' });
    expect(await user(f.users.employee)).toMatchObject({ department: 'Design', manager_id: f.users.admin, first_name: 'Em' });
    const [hire] = await t.db.query<{ id: string; status: string; manager_id: string }>(
      `SELECT id::text, status, manager_id::text FROM spend_users WHERE business_id = $1 AND email LIKE 'new.hire@%'`, [f.businessId]);
    expect(hire).toMatchObject({ status: 'INVITED', manager_id: f.users.employee });
    const invites = () => mails.filter((m) => m.includes('new.hire@') && m.includes('You are invited')).length;
    expect(invites()).toBe(1);
    expect((await apply(admin, made.body.id)).body).toMatchObject({ status: 'applied', id: made.body.id });
    const again = await upload(admin, peopleFile(f));
    expect(again.body.counts).toEqual({ new_hires: 0, changes: 0, leavers: 0, departments: 0, locations: 0 });
    expect(again.body.diff.unchanged).toBe(4);
    expect((await apply(admin, again.body.id)).body.status).toBe('applied');
    expect(invites()).toBe(1);
    const list = await request(t.app, 'GET', '/v1/auth/hris/imports', { token: admin });
    expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([again.body.id, made.body.id]);
  });

  it('leaves owners and the person applying alone, marks a diff stale when people changed, and answers 404 across businesses', async () => {
    const { f, admin } = await connected();
    const file = [HEADER, `E1,${f.email('owner')},O,W,,,,,terminated,,`, `E2,${f.email('admin')},A,D,,,,,terminated,,`].join('\n');
    const made = await upload(admin, file);
    expect(made.body.diff.leavers).toEqual([]);
    expect(made.body.diff.skipped.map((s: { reason: string }) => s.reason)).toEqual([
      expect.stringContaining('Owners are never suspended'), expect.stringContaining('nobody can suspend themselves'),
    ]);
    const first = await upload(admin, peopleFile(f));
    const second = await upload(admin, peopleFile(f));
    expect((await apply(admin, first.body.id)).body.status).toBe('applied');
    expect((await apply(admin, second.body.id)).body.status).toBe('stale');
    expect((await apply(admin, second.body.id)).status).toBe(422);
    const other = await makeBusiness(t.db, { transactions: 0 });
    const otherAdmin = await signIn(t.app, other.email('admin'));
    await request(t.app, 'PUT', '/v1/auth/hris/connection', { token: otherAdmin, body: CONNECT });
    expect((await request(t.app, 'GET', `/v1/auth/hris/imports/${first.body.id}`, { token: otherAdmin })).status).toBe(404);
    expect((await apply(otherAdmin, first.body.id)).status).toBe(404);
  });
});
