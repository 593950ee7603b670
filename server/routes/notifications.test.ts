import { beforeAll, describe, expect, it } from 'vitest';
import { listNotifications, markNotificationsRead, notificationPreferencesSchema, notifyThresholdSchema } from '../../schema/api/calls-notifications.ts';
import { syncChanges } from '../../schema/api/calls.ts';
import type { NewNotification } from '../domain/notifications/notify.ts';
import { notify } from '../domain/notifications/notify.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, refusal, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';

/**
 * Issue 29, the notifications centre's calls: the list (own only, newest first, keyset pages,
 * filters, unread count), "mark read" (own ids only, all or nothing, idempotent, change_seq), the
 * feed carrying each row to its owner only, mail preferences, and the notify threshold's roles
 * and validation. Rows are made by `notify()`, the one producer.
 */
const N = '/v1/auth/notifications';
const THRESHOLD = '/v1/auth/admin/transaction-notify-threshold';

describe.each(await testDatabases())('notifications centre on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let bOwner: string;

  const call = (method: string, path: string, body?: unknown, role: FixtureRole = 'employee') => request(t.app, method, path, { token: tokens[role], body });
  const list = async (query = '', role: FixtureRole = 'employee') => {
    const res = await call('GET', `${N}${query}`, undefined, role);
    expect(res.status, res.text).toBe(200);
    return listNotifications.response.parse(res.body);
  };
  const make = async (f: Fixture, role: FixtureRole, items: Partial<NewNotification>[], at: string) => t.db.transaction((tx) => notify(tx, f.businessId, items.map((n, i) => ({
    owner_id: f.users[role], kind: 'workflow' as const, title: `Note ${i}`, path: '/', event_key: `test:${crypto.randomUUID()}`, ...n,
  })), at, { mail: false }));

  let mine: string[] = [];
  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['owner', 'admin', 'bookkeeper', 'auditor', 'manager', 'employee', 'teammate'] as const) tokens[role] = await signIn(t.app, a.email(role));
    bOwner = await signIn(t.app, b.email('owner'));
    // Five of the employee's, oldest first; one of the manager's; one of B's owner.
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(...await make(a, 'employee', [{
        kind: i % 2 === 0 ? 'approved' : 'rejected', title: i === 3 ? 'Your claim for Blue Bottle was rejected' : `Update ${i}`, body: i === 1 ? 'Reason: missing receipt' : '',
      }], `2026-11-2${i}T10:00:00.000Z`));
    }
    mine = made.map((n) => n.id).reverse();
    await make(a, 'manager', [{ title: 'For the manager' }], '2026-11-25T10:00:00.000Z');
    await make(b, 'owner', [{ title: 'For B' }], '2026-11-25T10:00:00.000Z');
  });

  it('lists only the caller\'s own, newest first, in keyset pages; filters by unread, kinds and text; counts unread whatever the filter', async () => {
    const all = await list();
    expect(all.data.map((n) => n.id)).toEqual(mine);
    expect(all.data.every((n) => n.owner_id === a.users.employee)).toBe(true);
    expect(all.unread_count).toBe(5);
    const first = await list('?page_size=2');
    expect(first.data.map((n) => n.id)).toEqual(mine.slice(0, 2));
    const second = await list(`?page_size=2&start=${first.page.next}`);
    expect(second.data.map((n) => n.id)).toEqual(mine.slice(2, 4));
    const third = await list(`?page_size=2&start=${second.page.next}`);
    expect([third.data.map((n) => n.id), third.page.next]).toEqual([mine.slice(4), null]);
    expect((await list('?kinds=rejected')).data.map((n) => n.kind)).toEqual(['rejected', 'rejected']);
    const found = await list('?q=blue%20bottle');
    expect([found.data.map((n) => n.title), found.unread_count]).toEqual([['Your claim for Blue Bottle was rejected'], 5]);
    expect((await list('?q=receipt')).data.map((n) => n.body)).toEqual(['Reason: missing receipt']);
    expect((await list('?include_count=true&page_size=0')).total_count).toBe(5);
    // Someone else's are not the caller's, admins included.
    expect((await list('', 'admin')).data).toEqual([]);
    expect((await list('', 'manager')).data.map((n) => n.title)).toEqual(['For the manager']);
    expect(refusal(await call('GET', `${N}?kinds=nope`))).toEqual([422, 'REQUEST_7001']);
    expect((await call('GET', `${N}?start=not-a-cursor`)).status).toBe(422);
  });

  it('marks read only the caller\'s own: all or nothing, idempotent (0 when nothing changed), each changed row a new seq', async () => {
    const [x, y] = mine;
    const manager = (await list('', 'manager')).data[0]!.id;
    const bNote = (await request(t.app, 'GET', N, { token: bOwner })).body.data[0].id as string;
    for (const foreign of [manager, bNote, crypto.randomUUID()]) {
      const res = await call('PATCH', `${N}/read`, { ids: [x, foreign] });
      expect(refusal(res)).toEqual([404, 'REQUEST_7004']);
      expect(res.text).not.toContain(foreign === bNote ? 'For B' : 'For the manager');
    }
    expect((await list('?unread=true')).data).toHaveLength(5);
    const high = Number((await t.db.query<{ s: number }>('SELECT change_seq AS s FROM businesses WHERE id = $1', [a.businessId]))[0]!.s);
    const res = await call('PATCH', `${N}/read`, { ids: [x, y, x] });
    expect(res.status, res.text).toBe(200);
    const done = markNotificationsRead.response.parse(res.body);
    expect(done.data.map((n) => n.id)).toEqual([x, y]);
    expect(done.data.every((n) => n.read_at !== null)).toBe(true);
    expect(done.data.map((n) => n.change_seq).sort()).toEqual([high + 1, high + 2]);
    expect(done.change_seq).toBe(high + 2);
    const again = markNotificationsRead.response.parse((await call('PATCH', `${N}/read`, { ids: [y, x] })).body);
    expect(again.change_seq).toBe(0);
    expect(again.data.map((n) => [n.id, n.read_at, n.change_seq])).toEqual(done.data.map((n) => [n.id, n.read_at, n.change_seq]));
    const counted = await list();
    expect(counted.unread_count).toBe(3);
    expect((await list('?unread=false')).data.map((n) => n.id)).toEqual([x, y]);
    expect((await list('?unread=true')).data.map((n) => n.id)).toEqual(mine.slice(2));
    // The manager's and B's are untouched.
    expect((await list('?unread=true', 'manager')).data).toHaveLength(1);
    expect(refusal(await call('PATCH', `${N}/read`, { ids: [] }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await call('PATCH', `${N}/read`, { ids: [x], extra: 1 }))).toEqual([422, 'REQUEST_7001']);
  });

  it('the feed carries each notification to its owner only (an admin does not get the employee\'s)', async () => {
    const pull = async (role: FixtureRole) => {
      const res = await call('GET', '/v1/auth/sync/changes?after=0&limit=500', undefined, role);
      expect(res.status, res.text).toBe(200);
      return syncChanges.response.parse(res.body).changes.filter((c) => c.collection === 'notifications').map((c) => c.id).sort();
    };
    expect(await pull('employee')).toEqual([...mine].sort());
    const managers = (await list('', 'manager')).data.map((n) => n.id);
    expect(await pull('manager')).toEqual(managers);
    expect(await pull('admin')).toEqual([]);
    expect(await pull('owner')).toEqual([]);
  });

  it('mail preferences: all mailed by default, PUT changes only the kinds named, unknown kinds 422', async () => {
    const get = async () => notificationPreferencesSchema.parse((await call('GET', `${N}/preferences`, undefined, 'teammate')).body);
    expect(Object.values((await get()).email).every(Boolean)).toBe(true);
    const put = await call('PUT', `${N}/preferences`, { email: { mention: false, comment: false } }, 'teammate');
    expect(put.status, put.text).toBe(200);
    expect(notificationPreferencesSchema.parse(put.body).email).toMatchObject({ mention: false, comment: false, approved: true });
    const back = notificationPreferencesSchema.parse((await call('PUT', `${N}/preferences`, { email: { mention: true, rejected: false } }, 'teammate')).body);
    expect(back.email).toMatchObject({ mention: true, comment: false, rejected: false, approval_waiting: true });
    expect(await get()).toEqual(back);
    const [row] = await t.db.query<{ email_muted: string[] }>('SELECT email_muted FROM notification_preferences WHERE user_id = $1', [a.users.teammate]);
    expect(row!.email_muted).toEqual(['comment', 'rejected']);
    expect(refusal(await call('PUT', `${N}/preferences`, { email: { nope: false } }, 'teammate'))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await call('PUT', `${N}/preferences`, { email: { mention: 'no' } }, 'teammate'))).toEqual([422, 'REQUEST_7001']);
    // Someone else's preferences are their own.
    expect(Object.values(notificationPreferencesSchema.parse((await call('GET', `${N}/preferences`)).body).email).every(Boolean)).toBe(true);
  });

  it('the notify threshold: admins set it (others 403 NOTIFY_7001); admins and business-wide readers read it (others 403); bad input 422', async () => {
    const get = async (role: FixtureRole) => call('GET', THRESHOLD, undefined, role);
    expect(notifyThresholdSchema.parse((await get('admin')).body)).toEqual({ threshold: null });
    for (const role of ['manager', 'bookkeeper', 'employee'] as const) {
      expect(refusal(await call('PATCH', THRESHOLD, { threshold: { amount: 100, currency: 'USD' } }, role))).toEqual([403, 'NOTIFY_7001']);
    }
    const set = await call('PATCH', THRESHOLD, { threshold: { amount: 250_000, currency: 'EUR' } }, 'owner');
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ threshold: { amount: 250_000, currency: 'EUR' } });
    for (const role of ['admin', 'bookkeeper', 'auditor'] as const) expect((await get(role)).body).toEqual({ threshold: { amount: 250_000, currency: 'EUR' } });
    for (const role of ['manager', 'employee'] as const) expect(refusal(await get(role))).toEqual([403, 'FORBIDDEN_7003']);
    for (const bad of [
      { threshold: { amount: 100, currency: 'ZZZ' } }, { threshold: { amount: 0, currency: 'USD' } }, { threshold: { amount: 1.5, currency: 'USD' } },
      { threshold: { amount: 100 } }, { threshold: { amount: 100, currency: 'USD', extra: true } }, { threshold: null, other: 1 }, {},
    ]) expect(refusal(await call('PATCH', THRESHOLD, bad, 'admin')), JSON.stringify(bad)).toEqual([422, 'REQUEST_7001']);
    expect((await get('admin')).body).toEqual({ threshold: { amount: 250_000, currency: 'EUR' } });
    // B's threshold is B's: setting it changes nothing of A.
    expect((await request(t.app, 'PATCH', THRESHOLD, { token: bOwner, body: { threshold: { amount: 5, currency: 'USD' } } })).status).toBe(200);
    expect((await get('admin')).body).toEqual({ threshold: { amount: 250_000, currency: 'EUR' } });
    expect((await call('PATCH', THRESHOLD, { threshold: null }, 'admin')).body).toEqual({ threshold: null });
  });
});
