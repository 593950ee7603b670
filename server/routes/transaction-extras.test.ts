import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { insertPdfUpload, makeBusiness, refusal, request, signIn, type Fixture } from '../test-fixtures.ts';
import type { TestApp } from '../test-app.ts';

/** Issue 32, §7 Transactions: `PUT`/`DELETE attendee-split` (also on a trip's spend event) and `PUT copy-receipts` for a refund. */
const split = (id: string) => `/v1/auth/transactions/${id}/attendee-split`;
const copy = (id: string) => `/v1/auth/transactions/${id}/copy-receipts`;

async function setAmount(t: TestApp, id: string, amount: number, merchant = 'Blue Bottle Coffee') {
  await t.db.query(`UPDATE transactions SET amount = $2, currency = 'USD', merchant_name = $3 WHERE id = $1`, [id, amount, merchant]);
}

describe.each(await testDatabases())('attendee split on %s', (kind) => {
  const t = useTestApp(kind);

  it('splits evenly by the rule, stores names, mirrors it with the actor in the history; the same split writes nothing', async () => {
    const f = await makeBusiness(t.db, { transactions: 10 });
    const employee = await signIn(t.app, f.email('employee'));
    const id = f.transactions.employee[0]!;
    await setAmount(t, id, 1000);
    const body = { mode: 'even', attendees: [{ kind: 'internal', user_id: f.users.employee }, { kind: 'external', name: 'Bo Chen', company: 'Acme' }, { kind: 'internal', user_id: f.users.teammate }] };
    const res = await request(t.app, 'PUT', split(id), { token: employee, body });
    expect(res.status).toBe(200);
    expect(res.body.attendee_split).toEqual({
      mode: 'even', currency: 'USD', total: 1000,
      shares: [
        { kind: 'internal', user_id: f.users.employee, name: expect.stringMatching(/^Employee /), amount: 334 },
        { kind: 'external', name: 'Bo Chen', company: 'Acme', amount: 333 },
        { kind: 'internal', user_id: f.users.teammate, name: expect.stringMatching(/^Teammate /), amount: 333 },
      ],
    });
    const feed = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${res.body.change_seq - 1}`, { token: employee });
    expect(feed.body.changes).toEqual([expect.objectContaining({ collection: 'transactions', id })]);
    expect(feed.body.changes[0].doc.attendee_split).toEqual(res.body.attendee_split);
    const events = await t.db.query<{ user_id: string }>(`SELECT user_id::text FROM entity_events WHERE entity_id = $1 AND field = 'attendee_split'`, [id]);
    expect(events).toEqual([{ user_id: f.users.employee }]);

    const again = await request(t.app, 'PUT', split(id), { token: employee, body });
    expect(again.body.change_seq).toBe(res.body.change_seq);
  });

  it('takes custom amounts that sum exactly, refuses ones that do not, a stranger as an internal attendee, and a repeat', async () => {
    const f = await makeBusiness(t.db, { transactions: 10 });
    const g = await makeBusiness(t.db, { transactions: 1 });
    const employee = await signIn(t.app, f.email('employee'));
    const id = f.transactions.employee[0]!;
    await setAmount(t, id, -2500);
    const custom = (a: number, b: number) => ({ mode: 'custom', attendees: [{ kind: 'internal', user_id: f.users.employee, amount: a }, { kind: 'external', name: 'Cy', amount: b }] });
    const off = await request(t.app, 'PUT', split(id), { token: employee, body: custom(-2000, -400) });
    expect(refusal(off)).toEqual([422, 'REQUEST_7001']);
    expect(off.body.error_v2.errors.attendees).toMatch(/add up to -2400/);
    const ok = await request(t.app, 'PUT', split(id), { token: employee, body: custom(-2000, -500) });
    expect(ok.body.attendee_split).toMatchObject({ mode: 'custom', total: -2500, shares: [{ amount: -2000 }, { amount: -500, company: null }] });
    const stranger = await request(t.app, 'PUT', split(id), { token: employee, body: { mode: 'even', attendees: [{ kind: 'internal', user_id: g.users.employee }] } });
    expect(refusal(stranger)).toEqual([422, 'REQUEST_7001']);
    expect(stranger.body.error_v2.errors).toEqual({ 'attendees.0.user_id': 'Attendee 1 is not a person of this business.' });
    const twice = await request(t.app, 'PUT', split(id), { token: employee, body: { mode: 'even', attendees: [{ kind: 'external', name: 'Cy' }, { kind: 'external', name: 'cy' }] } });
    expect(refusal(twice)).toEqual([422, 'REQUEST_7001']);
    const stored = await t.db.query<{ s: { total: number } }>('SELECT attendee_split AS s FROM transactions WHERE id = $1', [id]);
    expect(stored[0]!.s.total).toBe(-2500);
  });

  it('follows visibility: an auditor is refused, an outsider and another business get 404; DELETE removes it once', async () => {
    const f = await makeBusiness(t.db, { transactions: 10 });
    const g = await makeBusiness(t.db, { transactions: 1 });
    const id = f.transactions.employee[0]!;
    const body = { mode: 'even', attendees: [{ kind: 'external', name: 'Bo' }] };
    expect(refusal(await request(t.app, 'PUT', split(id), { token: await signIn(t.app, f.email('auditor')), body }))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await request(t.app, 'PUT', split(id), { token: await signIn(t.app, f.email('outsider')), body }))).toEqual([404, 'REQUEST_7004']);
    const otherAdmin = await signIn(t.app, g.email('admin'));
    expect(refusal(await request(t.app, 'PUT', split(id), { token: otherAdmin, body }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', split(id), { token: otherAdmin }))).toEqual([404, 'REQUEST_7004']);

    const manager = await signIn(t.app, f.email('manager'));
    const put = await request(t.app, 'PUT', split(id), { token: manager, body });
    expect(put.body.attendee_split.shares).toHaveLength(1);
    const del = await request(t.app, 'DELETE', split(id), { token: manager });
    expect(del.status).toBe(200);
    expect(del.body.attendee_split).toBeNull();
    expect(del.body.change_seq).toBeGreaterThan(put.body.change_seq);
    const again = await request(t.app, 'DELETE', split(id), { token: manager });
    expect(again.body.change_seq).toBe(del.body.change_seq);
  });

  it('on a trip’s spend event: only a transaction linked to that visible trip', async () => {
    const f = await makeBusiness(t.db, { transactions: 10 });
    const employee = await signIn(t.app, f.email('employee'));
    const [linked, unlinked] = f.transactions.employee;
    const trip = await request(t.app, 'POST', '/v1/auth/travel/trips', {
      token: employee, body: { name: 'Client visit', destination: 'JFK', start_date: '2026-12-01', end_date: '2026-12-03' },
    });
    expect(trip.status).toBe(200);
    const tripId = trip.body.id as string;
    expect((await request(t.app, 'PUT', `/v1/auth/travel/trips/${tripId}/spend-events`, { token: employee, body: { transaction_ids: [linked] } })).status).toBe(200);
    const body = { mode: 'even', attendees: [{ kind: 'external', name: 'Bo' }] };
    for (const id of [linked!, unlinked!]) await request(t.app, 'PUT', split(id), { token: employee, body });
    const event = (id: string) => `/v1/auth/travel/trips/${tripId}/spend-events/${id}/attendee-split`;
    expect(refusal(await request(t.app, 'DELETE', event(unlinked!), { token: employee }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', event(linked!), { token: await signIn(t.app, f.email('outsider')) }))).toEqual([404, 'REQUEST_7004']);
    const res = await request(t.app, 'DELETE', event(linked!), { token: employee });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: linked, attendee_split: null });
    expect((await request(t.app, 'GET', `/v1/auth/transactions/${unlinked}`, { token: employee })).body.attendee_split).not.toBeNull();
  });
});

describe.each(await testDatabases())('copying a purchase’s receipts onto its refund on %s', (kind) => {
  const t = useTestApp(kind);

  async function pair(f: Fixture) {
    const [purchase, refund, other] = f.transactions.employee;
    await setAmount(t, purchase!, 4200);
    await setAmount(t, refund!, -4200);
    await setAmount(t, other!, -4200, 'Staples');
    const employee = await signIn(t.app, f.email('employee'));
    const receipts = [await insertPdfUpload(t.db, f.businessId, f.users.employee), await insertPdfUpload(t.db, f.businessId, f.users.employee)];
    for (const receipt_id of receipts) {
      expect((await request(t.app, 'POST', `/v1/auth/transactions/${purchase}/receipts`, { token: employee, body: { receipt_id } })).status).toBe(200);
    }
    return { purchase: purchase!, refund: refund!, other: other!, employee, receipts };
  }

  it('links the same stored receipts (no new file), clears the missing receipt; a second run adds nothing', async () => {
    const f = await makeBusiness(t.db, { transactions: 10 });
    const p = await pair(f);
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM receipts WHERE business_id = $1', [f.businessId]);
    const res = await request(t.app, 'PUT', copy(p.refund), { token: p.employee, body: { source_transaction_id: p.purchase } });
    expect(res.status).toBe(200);
    expect(res.body.receipt_ids).toEqual(p.receipts);
    const missing = await request(t.app, 'GET', `/v1/auth/transactions?missing_receipt=true&page_size=100`, { token: p.employee });
    expect(missing.body.data.map((r: { id: string }) => r.id)).not.toContain(p.refund);
    const after = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM receipts WHERE business_id = $1', [f.businessId]);
    expect(after[0]!.n).toBe(before[0]!.n);
    const again = await request(t.app, 'PUT', copy(p.refund), { token: p.employee, body: { source_transaction_id: p.purchase } });
    expect(again.body).toMatchObject({ receipt_ids: p.receipts, change_seq: res.body.change_seq });
    const links = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM transaction_receipts WHERE transaction_id = $1', [p.refund]);
    expect(links[0]!.n).toBe(2);
  });

  it('refuses a wrong pairing (another merchant, not a refund, itself), and answers 404 to who cannot see both', async () => {
    const f = await makeBusiness(t.db, { transactions: 10 });
    const g = await makeBusiness(t.db, { transactions: 1 });
    const p = await pair(f);
    const tryCopy = async (to: string, from: string, token = p.employee) =>
      refusal(await request(t.app, 'PUT', copy(to), { token, body: { source_transaction_id: from } }));
    expect(await tryCopy(p.other, p.purchase)).toEqual([422, 'REQUEST_7001']);
    expect(await tryCopy(p.purchase, p.refund)).toEqual([422, 'REQUEST_7001']);
    expect(await tryCopy(p.refund, p.refund)).toEqual([422, 'REQUEST_7001']);
    expect(await tryCopy(p.refund, p.purchase, await signIn(t.app, f.email('outsider')))).toEqual([404, 'REQUEST_7004']);
    expect(await tryCopy(p.refund, p.purchase, await signIn(t.app, g.email('admin')))).toEqual([404, 'REQUEST_7004']);
    // The outsider's own refund cannot reach the employee's purchase.
    const outsiderRefund = f.transactions.outsider[0]!;
    await setAmount(t, outsiderRefund, -4200);
    expect(await tryCopy(outsiderRefund, p.purchase, await signIn(t.app, f.email('outsider')))).toEqual([404, 'REQUEST_7004']);
    const links = await t.db.query('SELECT 1 FROM transaction_receipts WHERE transaction_id = ANY($1::uuid[])', [[p.other, p.refund, outsiderRefund]]);
    expect(links).toEqual([]);
    // A purchase without receipts has nothing to give.
    await t.db.query('DELETE FROM transaction_receipts WHERE transaction_id = $1', [p.purchase]);
    expect(await tryCopy(p.refund, p.purchase)).toEqual([422, 'REQUEST_7001']);
  });
});
