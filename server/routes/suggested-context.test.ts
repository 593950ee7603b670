import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';

/** Issue 29: `DELETE /v1/auth/accounting/suggested-context/{transaction}` dismisses the drawer's coding suggestion. */
describe.each(await testDatabases())('dismissing a coding suggestion on %s', (kind) => {
  const clock = { now: Date.UTC(2026, 10, 29, 12) };
  const t = useTestApp(kind, { now: () => clock.now });
  const path = (id: string) => `/v1/auth/accounting/suggested-context/${id}`;

  it('stores the moment once on the transaction, mirrored; a repeat keeps it and writes nothing', async () => {
    const f = await makeBusiness(t.db, { transactions: 10 });
    const employee = await signIn(t.app, f.email('employee'));
    const id = f.transactions.employee[0]!;
    const res = await request(t.app, 'DELETE', path(id), { token: employee });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, coding_suggestion_dismissed_at: new Date(clock.now).toISOString() });
    const feed = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${res.body.change_seq - 1}`, { token: employee });
    expect(feed.body.changes).toEqual([expect.objectContaining({ collection: 'transactions', id })]);
    expect(feed.body.changes[0].doc.coding_suggestion_dismissed_at).toBe(new Date(clock.now).toISOString());

    clock.now += 60_000;
    const again = await request(t.app, 'DELETE', path(id), { token: employee });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ coding_suggestion_dismissed_at: res.body.coding_suggestion_dismissed_at, change_seq: res.body.change_seq });
    const other = (await request(t.app, 'GET', `/v1/auth/transactions/${f.transactions.employee[1]!}`, { token: employee })).body;
    expect(other.coding_suggestion_dismissed_at).toBeNull();
  });

  it('is the coder’s: an auditor is refused, someone who cannot see it or another business gets 404, a bad id 422', async () => {
    const f = await makeBusiness(t.db, { transactions: 10 });
    const g = await makeBusiness(t.db, { transactions: 10 });
    const id = f.transactions.employee[0]!;
    expect(refusal(await request(t.app, 'DELETE', path(id), { token: await signIn(t.app, f.email('auditor')) }))).toEqual([403, 'FORBIDDEN_7003']);
    const outsider = await signIn(t.app, f.email('outsider'));
    expect(refusal(await request(t.app, 'DELETE', path(id), { token: outsider }))).toEqual([404, 'REQUEST_7004']);
    const otherAdmin = await signIn(t.app, g.email('admin'));
    expect(refusal(await request(t.app, 'DELETE', path(id), { token: otherAdmin }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', path('nope'), { token: otherAdmin }))).toEqual([422, 'REQUEST_7001']);
    const row = await t.db.query<{ at: unknown }>('SELECT coding_suggestion_dismissed_at AS at FROM transactions WHERE id = $1', [id]);
    expect(row[0]!.at).toBeNull();
    // The manager sees their report's transaction and may dismiss its suggestion.
    const manager = await signIn(t.app, f.email('manager'));
    expect((await request(t.app, 'DELETE', path(id), { token: manager })).status).toBe(200);
  });
});
