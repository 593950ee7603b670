import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { commentSchema, MAX_MENTIONS, type Comment } from '../../schema/api/calls-comments.ts';
import { formatMoney } from '../../schema/money.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeVendor, refusal, request, useTwoBusinesses, type FixtureRole } from '../test-fixtures.ts';

/**
 * Issue 29, comment threads on the server: who reads and writes a thread (the item's own
 * visibility rule), mentions refused by name, the mention and owner notifications made once
 * (a retried create with the same id included), the client id's idempotency, and delete rules.
 */
const C = '/v1/auth/comments';
/** `refusal` of any typed answer. */
const no = (res: { status: number; body: unknown }) => refusal(res as Parameters<typeof refusal>[0]);
type Notice = { owner_id: string; kind: string; title: string; body: string; path: string; subject_type: string; event_key: string; actor_id: string | null };

describe.each(await testDatabases())('comment threads on %s', (kind) => {
  let clock = Date.parse('2026-12-01T12:00:00Z');
  const t = useTestApp(kind, { now: () => (clock += 1000) });
  const two = useTwoBusinesses(t, ['admin', 'bookkeeper', 'manager', 'employee', 'teammate', 'outsider'], [10, 2]);
  const { tokens } = two;
  const name = (role: FixtureRole) => `${role[0]!.toUpperCase()}${role.slice(1)} Fixture${two.a.businessId.slice(0, 8)}`;
  let txn: { id: string; label: string };

  const post = (body: Record<string, unknown>, token = tokens.employee) => request<Comment>(t.app, 'POST', C, { token, body });
  const thread = (type: string, id: string, token = tokens.employee) =>
    request<{ data: Comment[]; total: number }>(t.app, 'GET', `${C}?subject_type=${type}&subject_id=${id}`, { token });
  const notices = (commentId: string) => t.db.query<Notice>(
    `SELECT owner_id::text, kind, title, body, path, subject_type, event_key, actor_id::text FROM notifications WHERE event_key LIKE $1 ORDER BY kind, owner_id`,
    [`comment:${commentId}:%`],
  );
  const written = async (body: Record<string, unknown>, token = tokens.employee) => {
    const res = await post(body, token);
    expect(res.status, res.text).toBe(201);
    return commentSchema.parse(res.body);
  };

  beforeAll(async () => {
    const id = two.a.transactions.employee[0]!;
    const [row] = await t.db.query<{ merchant_name: string; amount: number; currency: string }>('SELECT merchant_name, amount, currency FROM transactions WHERE id = $1', [id]);
    txn = { id, label: `${row!.merchant_name} · ${formatMoney(Number(row!.amount), row!.currency)}` };
  });

  it('writes a comment with a mention: the manager is told once, by name and item, even when the create is retried with the same id', async () => {
    const id = randomUUID();
    const body = { id, subject_type: 'transaction', subject_id: txn.id, body: 'Is this the offsite dinner?', mention_ids: [two.a.users.manager] };
    const c = await written(body);
    expect(c).toMatchObject({ id, author_id: two.a.users.employee, author_name: name('employee'), workflow_id: null, can_delete: true,
      mentions: [{ user_id: two.a.users.manager, name: name('manager') }] });
    const again = await written(body);
    expect(again).toEqual(c);
    const told = await notices(id);
    expect(told).toEqual([{
      owner_id: two.a.users.manager, kind: 'mention', title: `${name('employee')} mentioned you on ${txn.label}`, body: 'Is this the offsite dinner?',
      path: `/transactions?open=${txn.id}`, subject_type: 'transaction', event_key: `comment:${id}:mention`, actor_id: two.a.users.employee,
    }]);
    // The manager sees the thread (their report's transaction) and may not delete the employee's words.
    const read = await thread('transaction', txn.id, tokens.manager);
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.find((x) => x.id === id)).toMatchObject({ can_delete: false });
  });

  it('tells the owner of someone else\'s comment (kind comment), but only once when they are also mentioned', async () => {
    const plain = await written({ subject_type: 'transaction', subject_id: txn.id, body: 'Please attach the receipt.' }, tokens.manager);
    expect(await notices(plain.id)).toMatchObject([
      { owner_id: two.a.users.employee, kind: 'comment', title: `${name('manager')} commented on ${txn.label}`, event_key: `comment:${plain.id}:comment` },
    ]);
    const both = await written({ subject_type: 'transaction', subject_id: txn.id, body: 'Ping', mention_ids: [two.a.users.employee] }, tokens.manager);
    expect((await notices(both.id)).map((n) => [n.owner_id, n.kind])).toEqual([[two.a.users.employee, 'mention']]);
  });

  it('answers 404 to whoever cannot see the item: an employee on a peer\'s transaction, another business, an unknown id', async () => {
    const peer = two.a.transactions.outsider[0]!;
    expect(no(await thread('transaction', peer))).toEqual([404, 'REQUEST_7004']);
    expect(no(await post({ subject_type: 'transaction', subject_id: peer, body: 'x' }))).toEqual([404, 'REQUEST_7004']);
    expect(no(await thread('transaction', txn.id, tokens.outsider))).toEqual([404, 'REQUEST_7004']);
    expect(no(await thread('transaction', txn.id, two.bOwner))).toEqual([404, 'REQUEST_7004']);
    expect(no(await post({ subject_type: 'transaction', subject_id: txn.id, body: 'x' }, two.bOwner))).toEqual([404, 'REQUEST_7004']);
    expect(no(await thread('bill', randomUUID(), tokens.admin))).toEqual([404, 'REQUEST_7004']);
    // An id names an item of one type only.
    expect(no(await thread('reimbursement', txn.id))).toEqual([404, 'REQUEST_7004']);
  });

  it('refuses mentions of people who cannot see the item, naming each, and bounds them', async () => {
    const outsiderB = two.b.users.employee;
    const res = await post({ subject_type: 'transaction', subject_id: txn.id, body: 'cc', mention_ids: [two.a.users.manager, two.a.users.outsider, outsiderB] });
    expect(no(res)).toEqual([422, 'COMMENT_7002']);
    const err = (res.body as unknown as { error_v2: { message: string; errors: Record<string, string> } }).error_v2;
    expect(err.message).toBe(`${name('outsider')} cannot see this item; ${outsiderB} is not a member of this business, so they could not read your comment. Remove those mentions.`);
    expect(err.errors).toEqual({ 'mention_ids.1': `${name('outsider')} cannot see this item.`, 'mention_ids.2': `${outsiderB} is not a member of this business.` });
    await t.db.query(`UPDATE spend_users SET status = 'SUSPENDED' WHERE id = $1`, [two.a.users.teammate]);
    try {
      const inactive = await post({ subject_type: 'transaction', subject_id: txn.id, body: 'cc', mention_ids: [two.a.users.teammate] });
      expect(no(inactive)).toEqual([422, 'COMMENT_7002']);
    } finally {
      await t.db.query(`UPDATE spend_users SET status = 'ACTIVE' WHERE id = $1`, [two.a.users.teammate]);
    }
    const many = Array.from({ length: MAX_MENTIONS + 1 }, () => two.a.users.manager);
    expect(no(await post({ subject_type: 'transaction', subject_id: txn.id, body: 'cc', mention_ids: many }))).toEqual([422, 'REQUEST_7001']);
  });

  it('keeps a client id to one comment: another author or another item with it answers 409 COMMENT_7003', async () => {
    const c = await written({ subject_type: 'transaction', subject_id: txn.id, body: 'mine' });
    expect(no(await post({ id: c.id, subject_type: 'transaction', subject_id: txn.id, body: 'mine' }, tokens.manager))).toEqual([409, 'COMMENT_7003']);
    expect(no(await post({ id: c.id, subject_type: 'transaction', subject_id: two.a.transactions.employee[1]!, body: 'mine' }))).toEqual([409, 'COMMENT_7003']);
    const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM comments WHERE id = $1', [c.id]) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('deletes for the author or an admin only; twice answers the same; the thread leaves it out', async () => {
    const sid = two.a.transactions.employee[1]!;
    const first = await written({ subject_type: 'transaction', subject_id: sid, body: 'first' });
    const second = await written({ subject_type: 'transaction', subject_id: sid, body: 'second' }, tokens.manager);
    const third = await written({ subject_type: 'transaction', subject_id: sid, body: 'third' });
    const del = (id: string, token: string) => request(t.app, 'DELETE', `${C}/${id}`, { token });
    expect(no(await del(second.id, tokens.employee))).toEqual([403, 'COMMENT_7001']);
    expect(no(await del(first.id, two.bOwner))).toEqual([404, 'REQUEST_7004']);
    expect(no(await del(first.id, tokens.outsider))).toEqual([404, 'REQUEST_7004']);
    expect((await del(first.id, tokens.employee)).body).toEqual({ id: first.id, deleted: true });
    expect((await del(first.id, tokens.employee)).body).toEqual({ id: first.id, deleted: true });
    expect((await del(second.id, tokens.admin)).body).toEqual({ id: second.id, deleted: true });
    const [row] = await t.db.query<{ deleted_by: string }>('SELECT deleted_by::text FROM comments WHERE id = $1', [second.id]);
    expect(row!.deleted_by).toBe(two.a.users.admin);
    const read = await thread('transaction', sid);
    expect(read.body).toMatchObject({ total: 1, data: [{ id: third.id, body: 'third' }] });
    // Oldest first, and the admin may delete anyone's.
    await written({ subject_type: 'transaction', subject_id: sid, body: 'fourth' }, tokens.manager);
    const admin = await thread('transaction', sid, tokens.admin);
    expect(admin.body.data.map((x) => [x.body, x.can_delete])).toEqual([['third', true], ['fourth', true]]);
  });

  it('threads claims, bills and spend requests too: each owner told, each path opening the item, each rule applied', async () => {
    const claim = await request<{ id: string }>(t.app, 'POST', '/v1/auth/reimbursements/out_of_pocket', {
      token: tokens.employee, body: { merchant: 'Blue Bottle', amount: 2000, currency: 'USD', transaction_date: '2026-11-20' },
    });
    expect(claim.status, claim.text).toBe(200);
    const onClaim = await written({ subject_type: 'reimbursement', subject_id: claim.body.id, body: 'Which client?' }, tokens.manager);
    expect(await notices(onClaim.id)).toMatchObject([{ owner_id: two.a.users.employee, kind: 'comment', path: `/reimbursements?open=${claim.body.id}`,
      title: `${name('manager')} commented on Blue Bottle · $20.00` }]);

    const vendor = await makeVendor(t.app, tokens.admin, 'Acme Paper');
    const bill = await request<{ id: string }>(t.app, 'POST', '/v1/auth/bill-pay', { token: tokens.admin, body: {
      vendor_id: vendor, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
      line_items: [{ description: 'Paper', amount: 12_000 }],
    } });
    expect(bill.status, bill.text).toBe(200);
    const onBill = await written({ subject_type: 'bill', subject_id: bill.body.id, body: 'Coded to office?' }, tokens.bookkeeper);
    expect(await notices(onBill.id)).toMatchObject([{ owner_id: two.a.users.admin, kind: 'comment', path: `/bills?open=${bill.body.id}`,
      title: `${name('bookkeeper')} commented on Acme Paper · $120.00` }]);
    expect(no(await thread('bill', bill.body.id))).toEqual([404, 'REQUEST_7004']);
    expect(no(await post({ subject_type: 'bill', subject_id: bill.body.id, body: 'x', mention_ids: [two.a.users.employee] }, tokens.bookkeeper)))
      .toEqual([422, 'COMMENT_7002']);

    const spend = await request<{ id: string }>(t.app, 'POST', '/v1/auth/spend-requests', {
      token: tokens.teammate, body: { type: 'GENERAL_EXPENSE', amount: { amount: 50_000, currency: 'USD' }, description: 'Team offsite' },
    });
    expect(spend.status, spend.text).toBe(201);
    const onSpend = await written({ subject_type: 'spend_request', subject_id: spend.body.id, body: 'Approved in principle', mention_ids: [two.a.users.admin] }, tokens.manager);
    expect((await notices(onSpend.id)).map((n) => [n.owner_id, n.kind, n.path])).toEqual([
      [two.a.users.teammate, 'comment', `/requests?open=${spend.body.id}`], [two.a.users.admin, 'mention', `/requests?open=${spend.body.id}`],
    ].sort((x, y) => x[1]!.localeCompare(y[1]!) || x[0]!.localeCompare(y[0]!)));
    expect(no(await thread('spend_request', spend.body.id, tokens.outsider))).toEqual([404, 'REQUEST_7004']);
  });
});
