import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportHeader } from '../../../schema/exports.ts';
import { claimDue } from '../../core/leased-queue.ts';
import { useTestApp } from '../../test-app.ts';
import { testDatabases } from '../../test-db.ts';
import { makeBusiness, request, signIn, type Fixture } from '../../test-fixtures.ts';
import { startTestSftpServer, type TestSftpServer } from './test-sftp-server.ts';
import { createSftpUploader, sendUpload, SFTP_UPLOADS } from './uploader.ts';

const START = Date.UTC(2026, 5, 1, 0, 0);
const NET = { allowLoopback: true, dnsServer: null };

describe.each(await testDatabases())('SFTP transaction uploads on %s', (kind) => {
  const clock = { now: START };
  const t = useTestApp(kind, { now: () => clock.now, sso: { allowLoopbackHttp: true } });
  let sftp: TestSftpServer;
  beforeAll(async () => { sftp = await startTestSftpServer(); });
  afterAll(async () => { await sftp?.close(); });
  const uploader = () => createSftpUploader(t.db, { now: () => clock.now, net: NET });

  /** A fixture business (10 cleared transactions from 2026-01-01), its admin, and a destination into its own folder. */
  async function setUp(overrides: Record<string, unknown> = {}) {
    const f = await makeBusiness(t.db, { transactions: 10 });
    const admin = await signIn(t.app, f.email('admin'));
    const folder = `/${f.businessId.slice(0, 8)}`;
    mkdirSync(join(sftp.root, folder), { recursive: true });
    const res = await request(t.app, 'POST', '/v1/auth/sftp-transaction-uploads', { token: admin, body: {
      name: 'Data warehouse', host: '127.0.0.1', port: sftp.port, username: sftp.username,
      credentials: { method: 'password', password: sftp.password }, folder, schedule: 'daily', hour_utc: 6, start_date: '2026-01-01',
      ...overrides,
    } });
    expect(res.status, res.text).toBe(201);
    return { f, admin, folder, id: res.body.id as string };
  }
  const files = (folder: string) => readdirSync(join(sftp.root, folder)).sort();
  const readCsv = (folder: string, name: string) => {
    const parsed = Papa.parse<Record<string, string>>(readFileSync(join(sftp.root, folder, name), 'utf8'), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual(exportHeader('transactions'));
    return parsed.data;
  };
  const uploadNow = (token: string, id: string) => request(t.app, 'POST', `/v1/auth/sftp-transaction-uploads/${id}/uploads`, { token });
  async function addTransaction(f: Fixture, state: 'CLEARED' | 'PENDING', day: string): Promise<string> {
    const id = randomUUID();
    await t.db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
       INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, merchant_category, amount, currency, occurred_at, state, change_seq)
       SELECT $1, $2, $3, $4, 'Late Merchant', 'General', 4321, 'USD', $5, $6, change_seq FROM seq`,
      [id, f.businessId, f.cards.employee, f.users.employee, `${day}T12:00:00Z`, state],
    );
    return id;
  }
  const merchantIds = (rows: Record<string, string>[]) => rows.map((r) => r['Transaction ID']);

  it('configures a destination without ever answering its secret; only admins; another business gets 404', async () => {
    const { f, admin, id } = await setUp();
    const list = await request(t.app, 'GET', '/v1/auth/sftp-transaction-uploads', { token: admin });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({
      id, auth_method: 'password', credentials_set: true, schedule: 'daily', hour_utc: 6, next_run_at: '2026-06-01T06:00:00.000Z',
      host_key_fingerprint: null, last_upload: null, start_date: '2026-01-01',
    });
    expect(list.text).not.toContain(sftp.password);
    const [row] = await t.db.query<{ secret_enc: string }>('SELECT secret_enc FROM sftp_destinations WHERE id = $1', [id]);
    expect(row!.secret_enc).toMatch(/^v1\./);
    expect(row!.secret_enc).not.toContain(sftp.password);

    const employee = await signIn(t.app, f.email('employee'));
    expect((await request(t.app, 'GET', '/v1/auth/sftp-transaction-uploads', { token: employee })).status).toBe(403);
    expect((await uploadNow(employee, id)).status).toBe(403);

    const other = await makeBusiness(t.db, { transactions: 0 });
    const otherAdmin = await signIn(t.app, other.email('admin'));
    expect((await request(t.app, 'GET', `/v1/auth/sftp-transaction-uploads/${id}`, { token: otherAdmin })).status).toBe(404);
    expect((await uploadNow(otherAdmin, id)).status).toBe(404);
    expect((await request(t.app, 'DELETE', `/v1/auth/sftp-transaction-uploads/${id}`, { token: otherAdmin })).status).toBe(404);
    expect((await request(t.app, 'GET', '/v1/auth/sftp-transaction-uploads', { token: otherAdmin })).body.data).toEqual([]);
  });

  it('refuses a bad host, an internal address and a weekly schedule without its day with 422, before anything connects', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const body = {
      name: 'X', host: '127.0.0.1', port: sftp.port, username: 'u', credentials: { method: 'password', password: 'p' },
      folder: '/out', schedule: 'daily', hour_utc: 6,
    };
    const post = (b: Record<string, unknown>) => request(t.app, 'POST', '/v1/auth/sftp-transaction-uploads', { token: admin, body: { ...body, ...b } });
    for (const host of ['10.0.0.7', '169.254.169.254', '192.168.1.20', 'fd00::1', '::ffff:10.0.0.1', 'no-such-host.invalid']) {
      const res = await post({ host });
      expect(res.status, host).toBe(422);
      expect(res.body.error_v2.errors.host).toContain('public internet address');
    }
    expect((await post({ host: 'sftp://example.com/x' })).status).toBe(422);
    expect((await post({ folder: '/out/../etc' })).status).toBe(422);
    expect((await post({ schedule: 'weekly' })).body.error_v2.errors).toEqual({ weekday: 'weekday is required for a weekly schedule' });
    expect((await post({ extra: true })).status).toBe(422);
    expect(await t.db.query('SELECT 1 FROM sftp_destinations WHERE business_id = $1', [f.businessId])).toEqual([]);
  });

  it('uploads exactly the cleared transactions since the last successful upload: no gaps, no repeats', async () => {
    const { f, admin, folder, id } = await setUp();
    const first = await uploadNow(admin, id);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ file_name: 'transactions-2026-06-01.csv', state: 'queued', trigger: 'manual' });
    expect((await uploadNow(admin, id)).body.id).toBe(first.body.id); // one open upload per destination
    expect(await uploader().runNow()).toBeGreaterThanOrEqual(1);
    expect(files(folder)).toEqual(['transactions-2026-06-01.csv']);
    const rows1 = readCsv(folder, 'transactions-2026-06-01.csv');
    expect(merchantIds(rows1).sort()).toEqual([...f.allTransactions].sort());
    expect(rows1[0]).toMatchObject({ Date: '2026-01-01T00:00:00.000Z', Currency: 'USD', State: 'CLEARED' });

    const late = await addTransaction(f, 'CLEARED', '2026-05-30');
    const pending = await addTransaction(f, 'PENDING', '2026-05-31');
    await addTransaction(f, 'CLEARED', '2025-12-31'); // before the start date: never
    clock.now += 3_600_000;
    await uploadNow(admin, id);
    await uploader().runNow();
    expect(merchantIds(readCsv(folder, 'transactions-2026-06-01-2.csv'))).toEqual([late]);

    await t.db.query("UPDATE transactions SET state = 'CLEARED' WHERE id = $1", [pending]);
    clock.now += 3_600_000;
    await uploadNow(admin, id);
    await uploader().runNow();
    expect(merchantIds(readCsv(folder, 'transactions-2026-06-01-3.csv'))).toEqual([pending]);
    clock.now += 3_600_000;
    await uploadNow(admin, id);
    await uploader().runNow();
    expect(readCsv(folder, 'transactions-2026-06-01-4.csv')).toEqual([]);

    const all = files(folder).flatMap((name) => merchantIds(readCsv(folder, name)));
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual([...f.allTransactions, late, pending].sort());
    const got = await request(t.app, 'GET', `/v1/auth/sftp-transaction-uploads/${id}`, { token: admin });
    expect(got.body.uploads.map((u: { row_count: number; state: string }) => [u.state, u.row_count])).toEqual([['done', 0], ['done', 1], ['done', 1], ['done', 10]]);
    expect(got.body.destination.host_key_fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });

  it('a process that dies mid-upload leaves one file and no duplicates once another takes the upload over', async () => {
    const { f, admin, folder, id } = await setUp();
    const queued = await uploadNow(admin, id);
    // Process A claims and puts the file on the server, then dies before it records completion.
    const [row] = await claimDue<Parameters<typeof sendUpload>[1]>(t.db, SFTP_UPLOADS, new Date(clock.now), 1);
    expect(row!.id).toBe(queued.body.id);
    expect(await sendUpload(t.db, row!, NET, new Date(clock.now))).toMatchObject({ rows: 10 });
    // While A's lease lasts nobody takes it again.
    expect(await uploader().runNow()).toBe(0);
    clock.now += SFTP_UPLOADS.leaseMs + 1000;
    // A new transaction meanwhile belongs to the next upload, not to the retried one.
    const later = await addTransaction(f, 'CLEARED', '2026-05-31');
    expect(await uploader().runNow()).toBe(1);
    expect(files(folder)).toEqual(['transactions-2026-06-01.csv']);
    expect(merchantIds(readCsv(folder, 'transactions-2026-06-01.csv')).sort()).toEqual([...f.allTransactions].sort());
    expect(sftp.log.filter((op) => op.startsWith(`RENAME ${folder}/`))).toHaveLength(2);
    const [done] = await t.db.query<{ state: string; attempts: number }>('SELECT state, attempts FROM sftp_uploads WHERE id = $1', [row!.id]);
    expect(done).toEqual({ state: 'done', attempts: 2 });

    // A failed rename (the server refused) is retried after the backoff, still one file, no .part left.
    await uploadNow(admin, id);
    let refused = false;
    sftp.hook = (op) => { if (!refused && op.startsWith('RENAME')) { refused = true; throw new Error('refused'); } };
    await uploader().runNow();
    sftp.hook = null;
    expect(files(folder)).toContain('transactions-2026-06-01-2.csv.part');
    clock.now += SFTP_UPLOADS.backoffMs(1) + 1000;
    await uploader().runNow();
    expect(files(folder)).toEqual(['transactions-2026-06-01-2.csv', 'transactions-2026-06-01.csv']);
    expect(merchantIds(readCsv(folder, 'transactions-2026-06-01-2.csv'))).toEqual([later]);
  });

  it('runs on its schedule, refuses loopback without the opt-in, and gives a failed upload’s rows to the next one', async () => {
    const { f, admin, folder, id } = await setUp({ schedule: 'weekly', weekday: 1, hour_utc: 7 });
    // 2026-06-01 is a Monday: the first run is that day at 07:00.
    expect((await request(t.app, 'GET', `/v1/auth/sftp-transaction-uploads/${id}`, { token: admin })).body.destination.next_run_at).toBe('2026-06-01T07:00:00.000Z');
    clock.now = Date.UTC(2026, 5, 1, 7, 0, 5);
    // Without the loopback opt-in the same upload is refused at once (the outbound rule), nothing is sent.
    await createSftpUploader(t.db, { now: () => clock.now, net: { allowLoopback: false, dnsServer: null } }).runNow();
    const got = await request(t.app, 'GET', `/v1/auth/sftp-transaction-uploads/${id}`, { token: admin });
    expect(got.body.destination.next_run_at).toBe('2026-06-08T07:00:00.000Z');
    expect(got.body.uploads).toEqual([expect.objectContaining({ trigger: 'schedule', state: 'failed', error: expect.stringContaining('not a public address') })]);
    expect(files(folder)).toEqual([]);
    expect(await t.db.query('SELECT 1 FROM sftp_upload_items WHERE destination_id = $1', [id])).toEqual([]);

    // A wrong password: retried, then given up; its transactions wait for the next upload.
    const patch = await request(t.app, 'PATCH', `/v1/auth/sftp-transaction-uploads/${id}`, { token: admin, body: {
      name: 'Data warehouse', host: '127.0.0.1', port: sftp.port, username: sftp.username, folder, schedule: 'weekly', weekday: 1, hour_utc: 7,
      credentials: { method: 'password', password: 'wrong' },
    } });
    expect(patch.status, patch.text).toBe(200);
    clock.now += 60_000;
    await uploadNow(admin, id);
    for (let i = 0; i < SFTP_UPLOADS.maxAttempts; i++) {
      await uploader().runNow();
      clock.now += 31 * 60_000;
    }
    const failed = (await request(t.app, 'GET', `/v1/auth/sftp-transaction-uploads/${id}`, { token: admin })).body.uploads[0];
    expect(failed).toMatchObject({ state: 'failed', attempts: 3, error: 'The server refused the username and password or key.' });
    // Changing only the schedule keeps the stored password; the right one makes the next upload carry everything.
    await request(t.app, 'PATCH', `/v1/auth/sftp-transaction-uploads/${id}`, { token: admin, body: {
      name: 'Data warehouse', host: '127.0.0.1', port: sftp.port, username: sftp.username, folder, schedule: 'daily', hour_utc: 7,
      credentials: { method: 'password', password: sftp.password },
    } });
    clock.now += 60_000;
    await uploadNow(admin, id);
    await uploader().runNow();
    const [name] = files(folder);
    expect(merchantIds(readCsv(folder, name!)).sort()).toEqual([...f.allTransactions].sort());

    // Deleting stops it: a waiting upload is canceled, the destination is gone (404), files stay.
    const waiting = await uploadNow(admin, id);
    expect((await request(t.app, 'DELETE', `/v1/auth/sftp-transaction-uploads/${id}`, { token: admin })).body).toEqual({ id, deleted: true });
    expect((await request(t.app, 'GET', `/v1/auth/sftp-transaction-uploads/${id}`, { token: admin })).status).toBe(404);
    expect((await t.db.query<{ state: string }>('SELECT state FROM sftp_uploads WHERE id = $1', [waiting.body.id]))[0]!.state).toBe('canceled');
    expect(existsSync(join(sftp.root, folder, name!))).toBe(true);
  });

  it('signs in with a private key (stored encrypted, never answered)', async () => {
    const { f, folder, id } = await setUp({ credentials: { method: 'private_key', private_key: sftp.privateKey } });
    const admin = await signIn(t.app, f.email('admin'));
    const got = await request(t.app, 'GET', `/v1/auth/sftp-transaction-uploads/${id}`, { token: admin });
    expect(got.body.destination.auth_method).toBe('private_key');
    expect(got.text).not.toContain('PRIVATE KEY');
    clock.now += 60_000;
    await uploadNow(admin, id);
    await uploader().runNow();
    const [name] = files(folder);
    expect(readCsv(folder, name!)).toHaveLength(10);
  });
});
