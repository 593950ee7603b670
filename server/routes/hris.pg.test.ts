/**
 * Issue 32: the HRIS apply and the drop watcher under races, through two API processes sharing
 * one PostgreSQL: the same import applied on both at once invites its new hire once; two watchers
 * looking at one drop folder at once take its file once.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanDropFolders } from '../domain/hris/drop-watcher.ts';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request, signIn } from '../test-fixtures.ts';

const CONNECT = { provider: 'Workday', mode: 'drop', invite_new_hires: true, suspend_leavers: true, auto_apply: true };

describe.skipIf(!(await pgAvailable()))('HRIS races on PostgreSQL', () => {
  it('two applies of one import at once have one effect; two watchers take a dropped file once', async () => {
    await withPgBusiness({}, async ({ dbA, dbB, appA, appB, f, admin }) => {
      const put = await request(appA, 'PUT', '/v1/auth/hris/connection', { token: admin, body: CONNECT });
      expect(put.status, put.text).toBe(200);
      const tag = f.businessId.slice(0, 8);
      const csv = `employee_id,email,first_name,last_name,status\nR1,race@${tag}.fixture.test,Ray,Ce,active\nR2,${f.email('teammate')},T,M,terminated\n`;
      const made = await request(appA, 'POST', '/v1/auth/hris/imports', { token: admin, rawBody: csv, headers: { 'content-type': 'text/csv' } });
      expect(made.body.status).toBe('ready');
      const adminB = await signIn(appB, f.email('admin'));
      const [a, b] = await Promise.all([
        request(appA, 'POST', `/v1/auth/hris/imports/${made.body.id}/apply`, { token: admin }),
        request(appB, 'POST', `/v1/auth/hris/imports/${made.body.id}/apply`, { token: adminB }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect([a.body.status, b.body.status]).toEqual(['applied', 'applied']);
      const hires = await dbA.query(`SELECT 1 FROM spend_users WHERE business_id = $1 AND email = $2`, [f.businessId, `race@${tag}.fixture.test`]);
      expect(hires).toHaveLength(1);
      expect(await dbA.query(`SELECT 1 FROM user_invites i JOIN spend_users u ON u.id = i.user_id WHERE u.email = $1`, [`race@${tag}.fixture.test`])).toHaveLength(1);

      const root = await mkdtemp(join(tmpdir(), 'hris-race-'));
      try {
        const mail = { deps: { devOutbox: false, log: () => undefined }, link: (p: string) => p };
        const opts = { dir: root, mail, now: () => Date.now() + 60_000, settleMs: 0 };
        await scanDropFolders(dbA, opts);
        const file = `employee_id,email,first_name,last_name,status\nD1,drop.race@${tag}.fixture.test,Dro,P,active\n`;
        await writeFile(join(root, put.body.drop_folder as string, 'people.csv'), file);
        const [ra, rb] = await Promise.all([scanDropFolders(dbA, opts), scanDropFolders(dbB, opts)]);
        expect([...ra, ...rb].filter((o) => o.import_id !== null && o.reason.startsWith('Imported'))).toHaveLength(1);
        expect(await dbA.query(`SELECT 1 FROM hris_imports WHERE business_id = $1 AND source = 'drop'`, [f.businessId])).toHaveLength(1);
        expect(await dbA.query(`SELECT 1 FROM spend_users WHERE email = $1`, [`drop.race@${tag}.fixture.test`])).toHaveLength(1);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    });
  });
});
