import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncChanges } from '../../schema/api/calls.ts';
import { decisionSchema, listApprovals } from '../../schema/api/calls-approvals.ts';
import type { Approval } from '../../schema/entities/approval.ts';
import { reimbursementSchema, type Reimbursement } from '../../schema/entities/reimbursement.ts';
import { PAYMENT_SETTLEMENT_DAYS } from '../../schema/reimbursement-rules.ts';
import type { Change } from '../../schema/sync-feed.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { request, signIn, useTwoBusinesses, type FixtureRole } from '../test-fixtures.ts';

/**
 * Review and payment (issue 9): approvals through the registry, the review matrix, the status
 * machine of every action, bulk calls, duplicates and payments on the simulated ledger.
 * Reporting line in the fixture: employee → manager, teammate → employee (only `manager` is a
 * manager); `outsider` is made a manager of nobody here ("another manager").
 */
const BASE = '/v1/auth/reimbursements';
const APPROVALS = '/v1/auth/approvals';
const oop = (over: Record<string, unknown> = {}) => ({ merchant: 'Blue Bottle', amount: 1250, currency: 'USD', transaction_date: '2026-03-01', ...over });

describe.each(await testDatabases())('approvals and payment on %s', (kind) => {
  let clock = Date.parse('2026-03-10T12:00:00Z');
  const t = useTestApp(kind, { now: () => clock });
  const biz = useTwoBusinesses(t, ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'teammate', 'outsider', 'auditor']);
  const { tokens } = biz;

  const claim = async (role: FixtureRole = 'employee', over: Record<string, unknown> = {}) => {
    const res = await request<Reimbursement>(t.app, 'POST', `${BASE}/out_of_pocket`, { token: tokens[role], body: oop(over) });
    expect(res.status, res.text).toBe(200);
    return reimbursementSchema.parse(res.body);
  };
  const approvalOf = async (claimId: string, status = 'PENDING') => {
    const rows = await t.db.query<{ id: string }>('SELECT id::text FROM approvals WHERE object_id = $1 AND status = $2', [claimId, status]);
    expect(rows.length, `${status} approvals of ${claimId}`).toBe(1);
    return rows[0]!.id;
  };
  const approve = (id: string, role: FixtureRole) => request(t.app, 'POST', `${APPROVALS}/${id}/approve`, { token: tokens[role] });
  const reject = (id: string, role: FixtureRole, reason?: string) =>
    request(t.app, 'POST', `${APPROVALS}/${id}/reject`, { token: tokens[role], body: reason === undefined ? {} : { reason } });
  const inbox = async (role: FixtureRole) => {
    const res = await request(t.app, 'GET', `${APPROVALS}?status=PENDING&page_size=1000`, { token: tokens[role] });
    expect(res.status, res.text).toBe(200);
    return listApprovals.response.parse(res.body).data;
  };
  const act = (role: FixtureRole, id: string, action: string, body?: unknown) =>
    request(t.app, 'PATCH', `${BASE}/${id}/${action}`, { token: tokens[role], body });
  const approved = async (role: FixtureRole = 'employee', over: Record<string, unknown> = {}) => {
    const c = await claim(role, over);
    const res = await approve(await approvalOf(c.id), role === 'admin' ? 'owner' : 'admin');
    expect(res.status, res.text).toBe(200);
    return c;
  };
  const ledger = async (claimId: string) =>
    t.db.query<{ kind: string; amount: number; method: string; reversed: boolean }>(
      'SELECT kind, amount::int8 AS amount, method, reversed FROM ledger_entries WHERE reimbursement_id = $1 ORDER BY created_at, kind', [claimId],
    );

  beforeAll(async () => {
    await t.db.query('UPDATE spend_users SET is_manager = true WHERE id = $1', [biz.a.users.outsider]);
  });

  it('opens a PENDING approval on submission, scoped to the submitter\'s manager, and lists it for reviewers only', async () => {
    const c = await claim();
    const id = await approvalOf(c.id);
    const [row] = await t.db.query<{ user_id: string; approver_id: string | null }>('SELECT user_id::text, approver_id::text FROM approvals WHERE id = $1', [id]);
    expect(row).toEqual({ user_id: biz.a.users.employee, approver_id: biz.a.users.manager });
    for (const role of ['manager', 'admin', 'owner', 'bookkeeper'] as const) expect((await inbox(role)).map((x) => x.id), role).toContain(id);
    // The submitter (not a manager), another manager, a teammate and the auditor see none of it.
    for (const role of ['employee', 'outsider', 'teammate', 'auditor'] as const) expect((await inbox(role)).map((x) => x.id), role).not.toContain(id);
    expect(await inbox('employee')).toEqual([]);
    expect(await inbox('auditor')).toEqual([]);
    // A draft opens nothing.
    const draft = await claim('employee', { submit: false });
    expect(await t.db.query('SELECT 1 FROM approvals WHERE object_id = $1', [draft.id])).toEqual([]);
  });

  it('mirrors approvals through the feed to reviewers only', async () => {
    const c = await claim();
    const id = await approvalOf(c.id);
    const pulled = async (role: FixtureRole) => {
      const out: Change[] = [];
      let after = 0;
      for (;;) {
        const res = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${after}&limit=500`, { token: tokens[role] });
        const page = syncChanges.response.parse(res.body);
        out.push(...page.changes.filter((x) => x.collection === 'approvals'));
        after = page.checkpoint;
        if (!page.has_more) return out.map((x) => x.id);
      }
    };
    expect(await pulled('manager')).toContain(id);
    expect(await pulled('bookkeeper')).toContain(id);
    expect(await pulled('employee')).toEqual([]);
    expect(await pulled('outsider')).not.toContain(id);
  });

  it('approves: both rows move in one transaction, each with a new change seq the feed carries', async () => {
    const c = await claim();
    const id = await approvalOf(c.id);
    const res = await approve(id, 'manager');
    expect(res.status, res.text).toBe(200);
    const body = decisionSchema.parse(res.body);
    expect(body.approval).toMatchObject({ id, status: 'APPROVED', decided_by: biz.a.users.manager, reason: null, user_id: biz.a.users.employee });
    expect(body.approval.decided_at).toBe(new Date(clock).toISOString());
    expect(body.reimbursement).toMatchObject({ id: c.id, status: 'APPROVED' });
    expect(body.card_request).toBeUndefined();
    const claimRow = body.reimbursement!;
    expect(body.change_seq).toBe(claimRow.change_seq);
    expect(body.approval.change_seq).toBeGreaterThan(c.change_seq);
    const feed = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${body.approval.change_seq - 1}&limit=50`, { token: tokens.manager });
    const changes = syncChanges.response.parse(feed.body).changes.filter((x) => x.id === id || x.id === c.id);
    expect(changes.map((x) => [x.collection, x.seq])).toEqual([
      ['approvals', body.approval.change_seq], ['reimbursements', claimRow.change_seq],
    ]);
    // Decided: a second decision is refused naming the status; it left the inbox.
    const again = await reject(id, 'admin', 'Too late');
    expect([again.status, again.body.error_v2.error_code]).toEqual([422, 'REQUEST_7001']);
    expect(again.body.error_v2.message).toContain('status APPROVED');
    expect((await inbox('manager')).map((x) => x.id)).not.toContain(id);
  });

  it('rejects with a required reason; the claimant edits and resubmits, which opens a new approval', async () => {
    const c = await claim();
    const id = await approvalOf(c.id);
    for (const body of [undefined, '', '   ']) {
      const res = await reject(id, 'manager', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error_v2.errors).toHaveProperty('reason');
    }
    const res = await reject(id, 'manager', 'No receipt attached');
    expect(res.status, res.text).toBe(200);
    expect(res.body.approval).toMatchObject({ status: 'REJECTED', reason: 'No receipt attached' });
    expect(res.body.reimbursement).toMatchObject({ status: 'REJECTED', rejection_reason: 'No receipt attached' });
    const edited = await request(t.app, 'PATCH', `${BASE}/${c.id}`, { token: tokens.employee, body: { memo: 'Receipt attached' } });
    expect(edited.body).toMatchObject({ status: 'REJECTED', memo: 'Receipt attached' });
    const again = await act('employee', c.id, 'resubmit');
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ status: 'SUBMITTED', rejection_reason: null });
    const next = await approvalOf(c.id);
    expect(next).not.toBe(id);
    await approvalOf(c.id, 'REJECTED');
  });

  it('review matrix: who may decide an employee\'s claim, and nobody decides their own', async () => {
    // Employee (not a manager), the auditor: refused before any lookup.
    const c = await claim();
    const id = await approvalOf(c.id);
    for (const role of ['employee', 'teammate', 'auditor'] as const) {
      const res = await approve(id, role);
      expect([res.status, res.body.error_v2.error_code], role).toEqual([403, 'FORBIDDEN_7003']);
    }
    // Another manager: not in their scope → 404 (as if it did not exist).
    const other = await approve(id, 'outsider');
    expect([other.status, other.body.error_v2.error_code]).toEqual([404, 'REQUEST_7004']);
    // The submitter's manager, a bookkeeper, an admin and the owner may.
    for (const role of ['manager', 'bookkeeper', 'admin', 'owner'] as const) {
      const x = await claim();
      const res = await approve(await approvalOf(x.id), role);
      expect(res.status, `${role}: ${res.text}`).toBe(200);
    }
    // Self-review: the manager's, the admin's, the bookkeeper's own claims.
    for (const role of ['manager', 'admin', 'bookkeeper'] as const) {
      const own = await claim(role);
      const ownApproval = await approvalOf(own.id);
      for (const res of [await approve(ownApproval, role), await reject(ownApproval, role, 'Mine')]) {
        expect([res.status, res.body.error_v2.error_code], role).toEqual([403, 'APPROVAL_7201']);
      }
      expect((await inbox(role)).map((x) => x.id), role).not.toContain(ownApproval);
      // Someone else may.
      expect((await approve(ownApproval, role === 'admin' ? 'owner' : 'admin')).status).toBe(200);
    }
  });

  it('answers 404 for unknown ids and another business\'s, never 403', async () => {
    const c = await claim();
    const id = await approvalOf(c.id);
    for (const target of [randomUUID(), id]) {
      const res = await request(t.app, 'POST', `${APPROVALS}/${target}/approve`, { token: target === id ? biz.bOwner : tokens.admin });
      expect([res.status, res.body.error_v2.error_code]).toEqual([404, 'REQUEST_7004']);
    }
    for (const [action, body] of [['resubmit', undefined], ['cancel', undefined], ['pay-ach', {}], ['cancel-payment', undefined]] as const) {
      const res = await request(t.app, 'PATCH', `${BASE}/${c.id}/${action}`, { token: biz.bOwner, body });
      expect([res.status, res.body.error_v2?.error_code], action).toEqual([404, 'REQUEST_7004']);
    }
    const listed = await request(t.app, 'GET', `${APPROVALS}?status=PENDING`, { token: biz.bOwner });
    expect(listed.body.data.map((x: Approval) => x.id)).not.toContain(id);
    const bad = await request(t.app, 'POST', `${APPROVALS}/not-a-uuid/approve`, { token: tokens.admin });
    expect(bad.status).toBe(422);
    const dup = await request(t.app, 'POST', `${BASE}/duplicate`, { token: biz.bOwner, body: { reimbursement_id: c.id } });
    expect(dup.status).toBe(404);
  });

  it('bulk-approval decides each on its own and answers per item', async () => {
    const x = await claim();
    const y = await claim('teammate');
    const mine = await claim('manager');
    const [ax, ay, am] = [await approvalOf(x.id), await approvalOf(y.id), await approvalOf(mine.id)];
    const unknown = randomUUID();
    const noReason = await request(t.app, 'POST', '/v1/auth/approval_policy/bulk-approval', {
      token: tokens.manager, body: { approval_ids: [ax], decision: 'REJECT' },
    });
    expect([noReason.status, noReason.body.error_v2.errors]).toEqual([422, { reason: 'reason is required' }]);
    const res = await request(t.app, 'POST', '/v1/auth/approval_policy/bulk-approval', {
      token: tokens.manager, body: { approval_ids: [ax, unknown, am, ay], decision: 'APPROVE' },
    });
    expect(res.status, res.text).toBe(200);
    const results = res.body.results as { id: string; ok: boolean; error_v2?: { error_code: string } }[];
    expect(results.map((r) => [r.id, r.ok, r.error_v2?.error_code])).toEqual([
      [ax, true, undefined], [unknown, false, 'REQUEST_7004'], [am, false, 'APPROVAL_7201'], [ay, true, undefined],
    ]);
    const statuses = await t.db.query<{ id: string; status: string }>('SELECT id::text, status FROM reimbursements WHERE id = ANY($1::uuid[]) ORDER BY status', [[x.id, y.id, mine.id]]);
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({ [x.id]: 'APPROVED', [y.id]: 'APPROVED', [mine.id]: 'SUBMITTED' });
    expect(res.body.change_seq).toBeGreaterThan(0);
  });

  it('walks every action of the status machine: allowed moves pass, refused ones name the current status', async () => {
    // resubmit: only from REJECTED.
    const draft = await claim('employee', { submit: false });
    const r1 = await act('employee', draft.id, 'resubmit');
    expect([r1.status, r1.body.error_v2.message]).toEqual([422, expect.stringContaining('status DRAFT')]);
    // cancel: DRAFT → CANCELED; CANCELED is final.
    expect((await act('employee', draft.id, 'cancel')).body).toMatchObject({ status: 'CANCELED' });
    for (const action of ['cancel', 'resubmit', 'submit']) {
      const res = await act('employee', draft.id, action);
      expect([res.status, res.body.error_v2.message], action).toEqual([422, expect.stringContaining('status CANCELED')]);
    }
    // SUBMITTED → CANCELED closes the pending approval.
    const sub = await claim();
    const subApproval = await approvalOf(sub.id);
    expect((await act('employee', sub.id, 'cancel')).body).toMatchObject({ status: 'CANCELED' });
    await approvalOf(sub.id, 'CANCELED');
    expect((await approve(subApproval, 'admin')).body.error_v2.message).toContain('status CANCELED');
    // Only the claimant cancels: a visible claim of someone else is 403.
    const other = await claim();
    expect((await act('manager', other.id, 'cancel')).status).toBe(403);
    // REJECTED → CANCELED.
    await reject(await approvalOf(other.id), 'admin', 'Duplicate');
    expect((await act('employee', other.id, 'cancel')).body).toMatchObject({ status: 'CANCELED' });
    // APPROVED: not canceled, not resubmitted, not payment-canceled; paid by an admin only.
    const ok = await approved();
    for (const action of ['cancel', 'resubmit', 'submit']) {
      const res = await act('employee', ok.id, action);
      expect([res.status, res.body.error_v2.message], action).toEqual([422, expect.stringContaining('status APPROVED')]);
    }
    const early = await act('admin', ok.id, 'cancel-payment');
    expect([early.status, early.body.error_v2.message]).toEqual([422, expect.stringContaining('status APPROVED')]);
    // Pay: SUBMITTED is refused; only admins pay.
    const pending = await claim();
    const p1 = await act('admin', pending.id, 'pay-ach', {});
    expect([p1.status, p1.body.error_v2.message]).toEqual([422, expect.stringContaining('status SUBMITTED')]);
    for (const role of ['manager', 'bookkeeper', 'employee', 'auditor'] as const) {
      const res = await act(role, ok.id, 'pay-ach', {});
      expect([res.status, res.body.error_v2.error_code], role).toEqual([403, 'FORBIDDEN_7003']);
    }
    const paid = await act('admin', ok.id, 'pay-ach', {});
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ status: 'PAID' });
    const twice = await act('owner', ok.id, 'pay-ach', {});
    expect([twice.status, twice.body.error_v2.message]).toEqual([422, expect.stringContaining('status PAID')]);
    for (const action of ['cancel', 'resubmit']) expect((await act('employee', ok.id, action)).body.error_v2.message).toContain('status PAID');
    // PAID → APPROVED while unsettled: a reversing entry; then it may be paid again.
    const undone = await act('admin', ok.id, 'cancel-payment');
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body).toMatchObject({ status: 'APPROVED' });
    expect(await ledger(ok.id)).toEqual([
      { kind: 'PAYMENT', amount: 1250, method: 'ACH', reversed: true },
      { kind: 'REVERSAL', amount: -1250, method: 'ACH', reversed: false },
    ]);
    expect((await act('admin', ok.id, 'pay-ach', {})).body).toMatchObject({ status: 'PAID' });
  });

  it('refuses to cancel a settled payment; pays through payroll only with a payroll currency', async () => {
    const c = await approved();
    expect((await act('admin', c.id, 'pay-ach', { method: 'ACH' })).status).toBe(200);
    const saved = clock;
    clock += PAYMENT_SETTLEMENT_DAYS * 86_400_000;
    try {
      // Tokens live 12 hours: sign in again on the later clock.
      const later = await signIn(t.app, biz.a.email('admin'));
      const res = await request(t.app, 'PATCH', `${BASE}/${c.id}/cancel-payment`, { token: later });
      expect([res.status, res.body.error_v2.message]).toEqual([422, expect.stringContaining('settled')]);
    } finally {
      clock = saved;
    }
    const p = await approved();
    const refused = await act('admin', p.id, 'pay-ach', { method: 'PAYROLL' });
    expect([refused.status, refused.body.error_v2.message]).toEqual([422, expect.stringContaining('payroll currency')]);
    await t.db.query(`UPDATE spend_users SET payroll_currency = 'USD' WHERE id = $1`, [biz.a.users.employee]);
    try {
      expect((await act('admin', p.id, 'pay-ach', { method: 'PAYROLL' })).body).toMatchObject({ status: 'PAID' });
      expect((await ledger(p.id)).map((e) => e.method)).toEqual(['PAYROLL']);
    } finally {
      await t.db.query('UPDATE spend_users SET payroll_currency = NULL WHERE id = $1', [biz.a.users.employee]);
    }
  });

  it('holds money-moves-once in the schema: a second open payment or a second reversal is refused', async () => {
    const c = await approved();
    expect((await act('admin', c.id, 'pay-ach', {})).status).toBe(200);
    const [pay] = await t.db.query<{ id: string }>(`SELECT id::text FROM ledger_entries WHERE reimbursement_id = $1`, [c.id]);
    const insert = (kind: string, amount: number, reverses: string | null) => t.db.query(
      `INSERT INTO ledger_entries (id, business_id, reimbursement_id, user_id, kind, method, amount, currency, reverses_id, created_by, created_at, settles_at)
       VALUES ($1, $2, $3, $4, $5, 'ACH', $6, 'USD', $7, $4, now(), now())`,
      [randomUUID(), biz.a.businessId, c.id, biz.a.users.employee, kind, amount, reverses],
    );
    await expect(insert('PAYMENT', 1250, null)).rejects.toThrow();
    expect((await act('admin', c.id, 'cancel-payment')).status).toBe(200);
    await expect(insert('REVERSAL', -1250, pay!.id)).rejects.toThrow();
  });

  it('finds possible duplicates: same claimant, amount and date, similar merchant; never drops one', async () => {
    const day = '2026-02-14';
    const first = await claim('employee', { merchant: 'Blue Bottle Coffee', transaction_date: day, amount: 777 });
    const second = await claim('employee', { merchant: 'blue-bottle', transaction_date: day, amount: 777, submit: false });
    const noMerchant = await claim('employee', { merchant: null, transaction_date: day, amount: 777 });
    await claim('employee', { merchant: 'Starbucks', transaction_date: day, amount: 777 });
    await claim('employee', { merchant: 'Blue Bottle', transaction_date: day, amount: 778 });
    await claim('teammate', { merchant: 'Blue Bottle', transaction_date: day, amount: 777 });
    const byFields = await request(t.app, 'POST', `${BASE}/duplicate`, { token: tokens.employee, body: { merchant: 'Blue Bottle', amount: 777, transaction_date: day } });
    expect(byFields.status, byFields.text).toBe(200);
    expect(byFields.body.data.map((r: Reimbursement) => r.id).sort()).toEqual([first.id, second.id, noMerchant.id].sort());
    const byId = await request(t.app, 'POST', `${BASE}/duplicate`, { token: tokens.manager, body: { reimbursement_id: second.id } });
    expect(byId.body.data.map((r: Reimbursement) => r.id).sort()).toEqual([first.id, noMerchant.id].sort());
    const missing = await request(t.app, 'POST', `${BASE}/duplicate`, { token: tokens.employee, body: { merchant: 'x' } });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.error_v2.errors).sort()).toEqual(['amount', 'transaction_date']);
  });

  it('saves a draft with PUT: creates it under the client id, replaces its fields, refuses past DRAFT', async () => {
    const id = randomUUID();
    const put = (body: unknown, role: FixtureRole = 'employee', target = id) =>
      request(t.app, 'PUT', `${BASE}/${target}/draft`, { token: tokens[role], body });
    const first = await put({ type: 'OUT_OF_POCKET', merchant: 'Deli', amount: 900, currency: 'USD', transaction_date: '2026-03-02', memo: 'Lunch' });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ id, status: 'DRAFT', merchant: 'Deli', amount: 900, memo: 'Lunch', user_id: biz.a.users.employee });
    expect(await t.db.query('SELECT 1 FROM approvals WHERE object_id = $1', [id])).toEqual([]);
    const again = await put({ type: 'OUT_OF_POCKET', amount: 950, currency: 'USD', transaction_date: '2026-03-02' });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ id, status: 'DRAFT', merchant: null, memo: null, amount: 950 });
    expect(again.body.change_seq).toBeGreaterThan(first.body.change_seq);
    const retype = await put({ type: 'PER_DIEM', location: 'Chicago', start_date: '2026-03-01', end_date: '2026-03-02' });
    expect([retype.status, Object.keys(retype.body.error_v2.errors)]).toEqual([422, ['type']]);
    const missing = await put({ type: 'OUT_OF_POCKET', amount: 950 });
    expect(missing.status).toBe(422);
    expect((await put({ type: 'OUT_OF_POCKET', amount: 1, currency: 'USD', transaction_date: '2026-03-02' }, 'manager')).status).toBe(403);
    expect((await put({ type: 'OUT_OF_POCKET', amount: 1, currency: 'USD', transaction_date: '2026-03-02' }, 'outsider')).status).toBe(404);
    const bPut = await request(t.app, 'PUT', `${BASE}/${id}/draft`, { token: biz.bOwner, body: { type: 'OUT_OF_POCKET', amount: 1, currency: 'USD', transaction_date: '2026-03-02' } });
    expect([bPut.status, bPut.body.error_v2.error_code]).toEqual([404, 'REQUEST_7004']);
    expect((await act('employee', id, 'submit')).body).toMatchObject({ status: 'SUBMITTED' });
    const late = await put({ type: 'OUT_OF_POCKET', amount: 950, currency: 'USD', transaction_date: '2026-03-02' });
    expect([late.status, late.body.error_v2.message]).toEqual([422, expect.stringContaining('status SUBMITTED')]);
  });

  it('bulk-updates coding and memo and bulk-deletes drafts, each checked, one answer per id', async () => {
    const d1 = await claim('employee', { submit: false });
    const d2 = await claim('employee', { submit: false });
    const submitted = await claim();
    const theirs = await claim('teammate', { submit: false });
    const unknown = randomUUID();
    const upd = await request(t.app, 'POST', `${BASE}/bulk-update`, {
      token: tokens.employee,
      body: { reimbursement_ids: [d1.id, submitted.id, unknown, d2.id], patch: { memo: 'Team lunch', department_id: biz.a.departments[1] } },
    });
    expect(upd.status, upd.text).toBe(200);
    expect(upd.body.results.map((r: { id: string; ok: boolean; error_v2?: { error_code: string; message: string } }) => [r.id, r.ok, r.error_v2?.error_code])).toEqual([
      [d1.id, true, undefined], [submitted.id, false, 'REQUEST_7001'], [unknown, false, 'REQUEST_7004'], [d2.id, true, undefined],
    ]);
    expect(upd.body.results[1].error_v2.message).toContain('status SUBMITTED');
    expect(upd.body.results[0].row).toMatchObject({ memo: 'Team lunch', department_id: biz.a.departments[1] });
    const badRef = await request(t.app, 'POST', `${BASE}/bulk-update`, { token: tokens.employee, body: { reimbursement_ids: [d1.id], patch: { amount: 5 } } });
    expect(badRef.status).toBe(422);

    const del = await request(t.app, 'DELETE', `${BASE}/bulk`, { token: tokens.employee, body: { reimbursement_ids: [d1.id, submitted.id, theirs.id, d2.id] } });
    expect(del.status, del.text).toBe(200);
    expect(del.body.results.map((r: { id: string; ok: boolean; error_v2?: { error_code: string } }) => [r.id, r.ok, r.error_v2?.error_code])).toEqual([
      [d1.id, true, undefined], [submitted.id, false, 'REQUEST_7001'], [theirs.id, false, 'REQUEST_7004'], [d2.id, true, undefined],
    ]);
    const live = await t.db.query<{ id: string }>('SELECT id::text FROM reimbursements WHERE id = ANY($1::uuid[]) AND NOT deleted', [[d1.id, d2.id, submitted.id, theirs.id]]);
    expect(live.map((r) => r.id).sort()).toEqual([submitted.id, theirs.id].sort());
  });
});
