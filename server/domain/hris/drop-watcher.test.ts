import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test-db.ts';
import { useTestApp } from '../../test-app.ts';
import { makeBusiness, request, signIn } from '../../test-fixtures.ts';
import { scanDropFolders, startHrisDropWatcher } from './drop-watcher.ts';

const HEADER = 'employee_id,email,first_name,last_name,department,manager_email,status';
const dirs: string[] = [];
afterAll(async () => { for (const d of dirs) await rm(d, { recursive: true, force: true }); });

describe.each(await testDatabases())('the HRIS drop folder watcher on %s', (kind) => {
  // Real time: the settle check compares the clock with the files' modification times.
  const clock = { skew: 1000 };
  const now = () => Date.now() + clock.skew;
  const t = useTestApp(kind, { now });
  const logged: string[] = [];
  const mail = { deps: { devOutbox: false, log: (line: string) => void logged.push(line) }, link: (p: string) => `http://127.0.0.1:8787${p}` };

  async function dropConnection(autoApply: boolean) {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const put = await request(t.app, 'PUT', '/v1/auth/hris/connection', {
      token: admin, body: { provider: 'Rippling', mode: 'drop', invite_new_hires: true, suspend_leavers: true, auto_apply: autoApply },
    });
    expect(put.status, put.text).toBe(200);
    const root = await mkdtemp(join(tmpdir(), 'hris-drop-'));
    dirs.push(root);
    return { f, admin, root, folder: join(root, put.body.drop_folder as string) };
  }

  it('takes a dropped file once, applies it when the connection says so, and moves it with a reason', async () => {
    const { f, root, folder } = await dropConnection(true);
    const opts = { dir: root, mail, now, settleMs: 0 };
    expect(await scanDropFolders(t.db, opts)).toEqual([]);
    const csv = [HEADER, `N1,dropped@${f.businessId.slice(0, 8)}.fixture.test,Dee,Ropped,Support,${f.email('manager')},active`].join('\n');
    await writeFile(join(folder, 'people.csv'), csv);
    await writeFile(join(folder, 'notes.txt'), 'not a csv');
    const [taken, ...more] = await scanDropFolders(t.db, opts);
    expect(more).toEqual([]);
    expect(taken).toMatchObject({ business_id: f.businessId, file: 'people.csv', moved_to: 'processed', reason: expect.stringContaining('Imported and applied') });
    expect(await readdir(folder)).toEqual(expect.arrayContaining(['notes.txt', 'processed', 'failed']));
    expect(await readdir(folder)).not.toContain('people.csv');
    const [moved] = (await readdir(join(folder, 'processed'))).filter((n) => n.endsWith('people.csv'));
    expect(await readFile(join(folder, 'processed', `${moved}.reason.txt`), 'utf8')).toContain('Imported and applied');
    const hires = await t.db.query<{ status: string; dept: string }>(
      `SELECT u.status, d.name AS dept FROM spend_users u JOIN departments d ON d.id = u.department_id WHERE u.business_id = $1 AND u.email LIKE 'dropped@%'`, [f.businessId]);
    expect(hires).toEqual([{ status: 'INVITED', dept: 'Support' }]);
    expect(logged.filter((l) => l.includes('dropped@')).length).toBe(1);
    // The same content dropped again later: taken by nobody, moved aside as a repeat.
    await writeFile(join(folder, 'again.csv'), csv);
    clock.skew += 5 * 60_000;
    expect(await scanDropFolders(t.db, opts)).toEqual([expect.objectContaining({ file: 'again.csv', moved_to: 'processed', reason: expect.stringContaining('The same file was imported') })]);
    const imports = await request(t.app, 'GET', '/v1/auth/hris/imports', { token: await signIn(t.app, f.email('admin')) });
    expect(imports.body.data).toEqual([expect.objectContaining({ source: 'drop', file_name: 'people.csv', status: 'applied' })]);
  });

  it('moves a bad file to failed/ with its errors, leaves a good one for review, and waits for a file still being written', async () => {
    clock.skew = 1000;
    const { f, root, folder } = await dropConnection(false);
    const opts = { dir: root, mail, now, settleMs: 10_000 };
    await scanDropFolders(t.db, opts);
    await writeFile(join(folder, 'bad.csv'), [HEADER, `B1,${f.email('employee')},E,P,,ghost@nowhere.test,active`].join('\n'));
    await writeFile(join(folder, 'good.csv'), [HEADER, `G1,${f.email('employee')},E,P,Sales,,active`].join('\n'));
    const old = new Date(Date.now() - 60_000);
    await utimes(join(folder, 'bad.csv'), old, old);
    const job = startHrisDropWatcher(t.db, { ...opts, everyMs: 3_600_000, onError: (e) => { throw e; } });
    try {
      await job.runNow();
      await job.runNow();
    } finally {
      await job.stop();
    }
    expect((await readdir(join(folder, 'failed'))).filter((n) => n.endsWith('.reason.txt')).length).toBe(1);
    const [reason] = (await readdir(join(folder, 'failed'))).filter((n) => n.endsWith('.reason.txt'));
    expect(await readFile(join(folder, 'failed', reason!), 'utf8')).toContain('Unknown manager');
    expect(await readdir(folder)).toContain('good.csv');
    const later = await scanDropFolders(t.db, { ...opts, now: () => Date.now() + 3_600_000 });
    expect(later).toEqual([expect.objectContaining({ file: 'good.csv', moved_to: 'processed', reason: expect.stringContaining('waits for review') })]);
    const [ready] = await t.db.query<{ status: string }>(`SELECT status FROM hris_imports WHERE business_id = $1 AND file_name = 'good.csv'`, [f.businessId]);
    expect(ready).toEqual({ status: 'ready' });
  });
});
