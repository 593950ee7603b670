import { beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalInstance } from '../../../schema/api/calls-approval-policies.ts';
import { simulateResponseSchema } from '../../../schema/api/calls-cards.ts';
import type { Approval } from '../../../schema/entities/approval.ts';
import { cardSchema } from '../../../schema/entities/card.ts';
import type { Notification } from '../../../schema/entities/notification.ts';
import { useTestApp } from '../../test-app.ts';
import { testDatabases } from '../../test-db.ts';
import { makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../../test-fixtures.ts';
import { COLLECTIONS } from '../collections.ts';
import { notifyDecision, notifyLargeTransaction, notifyStepOpened } from './producers.ts';

/**
 * Issue 29, the producers through the real writes: an approval step opening (approvers and their
 * delegates, never the requester), a rejection (with its reason) and a chain's final approval (the
 * requester), a card transaction at or above the notify threshold (every active admin but the
 * cardholder). Each once per person and event: the producer run again for the same event makes
 * none. A muted kind is listed but not mailed.
 */
const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

describe.each(await testDatabases())('notification producers on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });
  let f: Fixture;
  const tokens = {} as Record<FixtureRole, string>;

  const call = (method: string, path: string, body: unknown, role: FixtureRole) => request(t.app, method, path, { token: tokens[role], body });
  const submitClaim = async (amount = 1250) => {
    const res = await call('POST', '/v1/auth/reimbursements/out_of_pocket', { merchant: 'Blue Bottle', amount, currency: 'USD', transaction_date: today() }, 'employee');
    expect(res.status, res.text).toBe(200);
    return res.body.id as string;
  };
  const approvalsOf = (objectId: string, status = 'PENDING') => t.db.query<{ doc: Approval }>(
    `SELECT ${COLLECTIONS.approvals.docSql} AS doc FROM approvals r WHERE r.object_id = $1 AND r.status = $2 ORDER BY r.created_at`, [objectId, status],
  ).then((rows) => rows.map((r) => r.doc));
  const notesOf = (role: FixtureRole, eventKey?: string) => t.db.query<Notification & { event_key: string }>(
    `SELECT id::text, kind, title, body, path, actor_id::text, subject_type, subject_id::text, event_key FROM notifications
      WHERE owner_id = $1 AND ($2::text IS NULL OR event_key = $2) ORDER BY created_at, id`, [f.users[role], eventKey ?? null],
  );
  const notesAbout = (subject: string) => t.db.query<{ owner_id: string; kind: string }>(
    `SELECT owner_id::text, kind FROM notifications WHERE subject_id = $1 OR path LIKE '%' || $1 ORDER BY owner_id, kind`, [subject],
  );
  const mailsTo = (role: FixtureRole) => t.db.query<{ subject: string; body: string }>('SELECT subject, body FROM dev_outbox WHERE recipient = $1', [f.email(role)]);
  const instanceOf = async (approvalId: string) => (await t.db.query<{ steps: ApprovalInstance['steps'] }>(
    'SELECT ai.steps FROM approvals a JOIN approval_instances ai ON ai.id = a.instance_id WHERE a.id = $1', [approvalId],
  ))[0]! as unknown as ApprovalInstance;

  beforeAll(async () => {
    f = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'outsider'] as const) tokens[role] = await signIn(t.app, f.email(role));
  });

  it('a step opening notifies its approver once (mailed, with the inbox link), never the requester; a retry makes none', async () => {
    const claim = await submitClaim(4200);
    const [approval] = await approvalsOf(claim);
    const key = `approval:${approval!.id}:waiting`;
    const [note, ...more] = await notesOf('manager', key);
    expect(more).toEqual([]);
    expect(note).toMatchObject({
      kind: 'approval_waiting', title: `Employee Fixture${f.businessId.slice(0, 8)}'s claim for $42.00 is waiting for your approval`,
      path: `/approvals?open=${approval!.id}`, subject_type: 'approval', subject_id: approval!.id, actor_id: f.users.employee, body: '',
    });
    expect(await notesAbout(approval!.id)).toEqual([{ owner_id: f.users.manager, kind: 'approval_waiting' }]);
    expect((await mailsTo('manager')).filter((m) => m.subject === note!.title)).toHaveLength(1);
    expect((await mailsTo('manager')).find((m) => m.subject === note!.title)!.body).toContain(`/approvals?open=${approval!.id}`);
    // The same event again (a retried write): nothing new, nothing mailed.
    const instance = await instanceOf(approval!.id);
    expect(await t.db.transaction((tx) => notifyStepOpened(tx, instance, 0, approval!))).toEqual([]);
    expect(await notesOf('manager', key)).toHaveLength(1);
    expect((await mailsTo('manager')).filter((m) => m.subject === note!.title)).toHaveLength(1);
  });

  it('the active delegate of an approver hears it too (saying why), once', async () => {
    await t.db.query(`UPDATE spend_users SET user_permissions = '["COPILOT"]'::jsonb WHERE id = $1`, [f.users.outsider]);
    expect((await call('PUT', '/v1/auth/copilot', { delegate_id: f.users.outsider, starts_on: today(), ends_on: inDays(3) }, 'manager')).status).toBe(200);
    const claim = await submitClaim();
    const [approval] = await approvalsOf(claim);
    const [forDelegate] = await notesOf('outsider', `approval:${approval!.id}:waiting`);
    expect(forDelegate).toMatchObject({ kind: 'approval_waiting', path: `/approvals?open=${approval!.id}` });
    expect(forDelegate!.body).toContain('delegated');
    expect((await notesAbout(approval!.id)).map((n) => n.owner_id).sort()).toEqual([f.users.manager, f.users.outsider].sort());
    // Run again for the same opening: once per person and event.
    const instance = await instanceOf(approval!.id);
    expect(await t.db.transaction((tx) => notifyStepOpened(tx, instance, 0, approval!))).toEqual([]);
    expect((await call('DELETE', `/v1/auth/copilot/${f.users.outsider}`, {}, 'manager')).status).toBe(200);
  });

  it('a rejection tells the requester with the reason, once; the approver (the actor) hears nothing of it; a muted kind is listed, not mailed', async () => {
    expect((await call('PUT', '/v1/auth/notifications/preferences', { email: { rejected: false } }, 'employee')).status).toBe(200);
    const claim = await submitClaim(990);
    const [approval] = await approvalsOf(claim);
    const res = await call('POST', `/v1/auth/approvals/${approval!.id}/reject`, { reason: 'Please attach the receipt.' }, 'manager');
    expect(res.status, res.text).toBe(200);
    const [note, ...more] = await notesOf('employee', `approval:${approval!.id}:rejected`);
    expect(more).toEqual([]);
    expect(note).toMatchObject({
      kind: 'rejected', title: 'Your claim for $9.90 was rejected', path: `/reimbursements?open=${claim}`,
      subject_type: 'reimbursement', subject_id: claim, actor_id: f.users.manager,
    });
    expect(note!.body).toContain('Please attach the receipt.');
    expect((await notesOf('manager')).some((n) => n.event_key.startsWith(`approval:${approval!.id}:rejected`))).toBe(false);
    // Muted: in the list, not in the mailbox.
    expect((await mailsTo('employee')).some((m) => m.subject === note!.title)).toBe(false);
    const [decided] = await approvalsOf(claim, 'REJECTED');
    expect(await t.db.transaction((tx) => notifyDecision(tx, decided!))).toEqual([]);
    expect(await notesOf('employee', `approval:${approval!.id}:rejected`)).toHaveLength(1);
    expect((await call('PUT', '/v1/auth/notifications/preferences', { email: { rejected: true } }, 'employee')).status).toBe(200);
  });

  it('a two-step chain: the first approval opens the next step (its approver hears it) and tells the requester nothing; the last says approved', async () => {
    const policy = await call('PATCH', '/v1/auth/approval_policy/reimbursement', {
      steps: [{ condition: null, approvers: { kind: 'manager' } }, { condition: null, approvers: { kind: 'user', user_id: f.users.bookkeeper } }],
    }, 'admin');
    expect(policy.status, policy.text).toBe(200);
    const claim = await submitClaim(7700);
    const [first] = await approvalsOf(claim);
    expect((await call('POST', `/v1/auth/approvals/${first!.id}/approve`, {}, 'manager')).status).toBe(200);
    expect((await notesOf('employee')).filter((n) => n.path === `/reimbursements?open=${claim}`)).toEqual([]);
    const [second] = await approvalsOf(claim);
    expect(await notesOf('bookkeeper', `approval:${second!.id}:waiting`)).toHaveLength(1);
    expect((await call('POST', `/v1/auth/approvals/${second!.id}/approve`, {}, 'bookkeeper')).status).toBe(200);
    const approved = (await notesOf('employee')).filter((n) => n.path === `/reimbursements?open=${claim}`);
    expect(approved).toMatchObject([{ kind: 'approved', title: 'Your claim for $77.00 was approved', actor_id: f.users.bookkeeper, event_key: `approval:${second!.id}:approved` }]);
    expect((await mailsTo('employee')).some((m) => m.subject === 'Your claim for $77.00 was approved')).toBe(true);
    expect((await call('DELETE', '/v1/auth/policy/reimbursement', {}, 'admin')).status).toBe(200);
  });

  it('a card transaction at or above the threshold (its currency only) notifies every active admin but the cardholder, once', async () => {
    expect((await call('PATCH', '/v1/auth/admin/transaction-notify-threshold', { threshold: { amount: 50_000, currency: 'USD' } }, 'admin')).status).toBe(200);
    const issue = async (role: FixtureRole) => cardSchema.parse((await call('POST', '/v1/auth/cards', {
      user_id: f.users[role], display_name: 'Big spend', limit: { amount: 10_000_000, currency: 'USD', interval: 'MONTHLY' },
    }, 'admin')).body);
    const buy = async (role: FixtureRole, cardId: string, amount: number, currency = 'USD') => {
      const res = await call('POST', `/v1/auth/cards/${cardId}/simulate`, { amount, merchant: 'Apple Store', currency }, role);
      expect(res.status, res.text).toBe(200);
      const sim = simulateResponseSchema.parse(res.body);
      if (!sim.approved) throw new Error(sim.message);
      return sim.transaction;
    };
    const employeeCard = await issue('employee');
    const small = await buy('employee', employeeCard.id, 49_999);
    expect(await notesAbout(small.id)).toEqual([]);
    const big = await buy('employee', employeeCard.id, 50_000);
    expect(await notesAbout(big.id)).toEqual([
      { owner_id: f.users.admin, kind: 'large_transaction' }, { owner_id: f.users.owner, kind: 'large_transaction' },
    ].sort((x, y) => x.owner_id.localeCompare(y.owner_id)));
    const [note] = await notesOf('admin', `txn:${big.id}:large`);
    expect(note).toMatchObject({ title: `Employee Fixture${f.businessId.slice(0, 8)} spent $500.00 at Apple Store`, path: `/transactions?open=${big.id}`, actor_id: f.users.employee });
    expect(await t.db.transaction((tx) => notifyLargeTransaction(tx, big))).toEqual([]);
    // The admin's own purchase: the owner hears it, the admin does not.
    const adminCard = await issue('admin');
    const own = await buy('admin', adminCard.id, 90_000);
    expect(await notesAbout(own.id)).toEqual([{ owner_id: f.users.owner, kind: 'large_transaction' }]);
    // Another currency is not compared; switched off, nothing.
    expect((await call('PATCH', '/v1/auth/admin/transaction-notify-threshold', { threshold: { amount: 100, currency: 'EUR' } }, 'admin')).status).toBe(200);
    expect(await notesAbout((await buy('employee', employeeCard.id, 80_000)).id)).toEqual([]);
    expect((await call('PATCH', '/v1/auth/admin/transaction-notify-threshold', { threshold: null }, 'admin')).status).toBe(200);
    expect(await notesAbout((await buy('employee', employeeCard.id, 80_000)).id)).toEqual([]);
  });
});
