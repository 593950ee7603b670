import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  complianceAnswerSchema, listMissingItems, missingItemSchema, type ComplianceRow, type MissingItem,
} from '../../schema/api/calls-expense-policies.ts';
import { expensePolicySchema, type ExpensePolicy } from '../../schema/entities/expense-policy.ts';
import { MAX_EXPENSE_POLICIES } from '../../schema/expense-policy.ts';
import { paginatedSchema } from '../../schema/paging.ts';
import { testDatabases } from '../test-db.ts';
import { TEST_TOKEN_SECRET, useTestApp } from '../test-app.ts';
import { refusal, request, useTwoBusinesses } from '../test-fixtures.ts';
import type { Scope } from '../../schema/api/scopes.ts';
import { signIdToken } from '../auth/tokens.ts';
import type { Queryable } from '../db/db.ts';
import type { Fixture, FixtureRole } from '../test-fixtures.ts';
import { attachReceipt, insertClaim, insertTx, policyBody, rules } from './expense-policies-test-kit.ts';

/**
 * Expense policies through the API (issue 29): CRUD and its refusals (403 POLICY_7002, 422
 * POLICY_7001 with fields, 409 POLICY_7003, 404 for another business's policy or department), the
 * wizard's list (what counts, order, paging, scopes), compliance figures and reminders (one mail
 * per person and day). The SQL filter against the evaluator over random items is
 * missing-items-agreement.test.ts; the race of two reminders is expense-policies.pg.test.ts.
 */
const POLICIES = '/v1/auth/expense-policies';
const MISSING = listMissingItems.path;
const NOW = '2026-11-20T12:00:00Z';

/** A token of `role` carrying exactly `scopes` (the §6 restricted tokens the wizard accepts). */
async function scopedToken(db: Queryable, f: Fixture, role: FixtureRole, scopes: Scope[]): Promise<string> {
  const [u] = await db.query<{ identity_id: string }>('SELECT identity_id::text FROM spend_users WHERE id = $1', [f.users[role]]);
  const sessionId = randomUUID();
  await db.query('INSERT INTO sessions (id, identity_id) VALUES ($1, $2)', [sessionId, u!.identity_id]);
  return signIdToken(new TextEncoder().encode(TEST_TOKEN_SECRET), {
    sub: u!.identity_id, ramp_user_uuid: f.users[role], ramp_access_scopes: scopes, ramp_mfa_required: false,
    ramp_mfa_authed: true, ramp_session_id: sessionId, sign_in_provider: 'password', business_id: f.businessId,
  }, Math.floor(Date.now() / 1000));
}

describe.each(await testDatabases())('expense policies on %s', (kind) => {
  const clock = Date.parse(NOW);
  const t = useTestApp(kind, { now: () => clock, devOutbox: true });
  const two = useTwoBusinesses(t, ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'teammate', 'auditor', 'outsider']);
  const { tokens } = two;
  const create = (body: unknown, token = tokens.admin) => request(t.app, 'POST', POLICIES, { token, body });

  it('admins create, read, change and delete a policy; every member reads; the feed carries each write', async () => {
    const created = await create(policyBody({ description: 'Receipts from $75' }));
    expect(created.status, created.text).toBe(201);
    const p = expensePolicySchema.strict().parse(created.body);
    expect(p).toMatchObject({ name: 'Company expense policy', enabled: true, created_by: two.a.users.admin, updated_by: null, deleted: false });
    const [biz] = await t.db.query<{ change_seq: number }>('SELECT change_seq FROM businesses WHERE id = $1', [two.a.businessId]);
    expect(p.change_seq).toBe(Number(biz!.change_seq));

    const listed = await request<{ data: ExpensePolicy[] }>(t.app, 'GET', POLICIES, { token: tokens.employee });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((x) => x.id)).toContain(p.id);
    expect((await request(t.app, 'GET', `${POLICIES}/${p.id}`, { token: tokens.teammate })).body).toMatchObject({ id: p.id });

    const patched = await request<ExpensePolicy>(t.app, 'PATCH', `${POLICIES}/${p.id}`, {
      token: tokens.owner, body: { rules: rules({ memo_required_above: { amount: 0, currency: 'USD' } }), scope: { kind: 'departments', department_ids: [two.a.departments[1], two.a.departments[1]] } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ description: 'Receipts from $75', updated_by: two.a.users.owner, scope: { kind: 'departments', department_ids: [two.a.departments[1]] } });
    expect(patched.body.rules.receipt_required_from).toBeNull();
    expect(patched.body.change_seq).toBeGreaterThan(p.change_seq);

    const feed = await request<{ changes: { collection: string; doc: { id: string } }[] }>(t.app, 'GET', `/v1/auth/sync/changes?after=${p.change_seq - 1}`, { token: tokens.employee });
    expect(feed.status, feed.text).toBe(200);
    expect(feed.body.changes.filter((c) => c.collection === 'expense_policies').map((c) => c.doc.id)).toContain(p.id);

    const deleted = await request(t.app, 'DELETE', `${POLICIES}/${p.id}`, { token: tokens.admin });
    expect([deleted.status, deleted.body]).toEqual([200, { id: p.id, deleted: true }]);
    expect(refusal(await request(t.app, 'GET', `${POLICIES}/${p.id}`, { token: tokens.admin }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `${POLICIES}/${p.id}`, { token: tokens.admin }))).toEqual([404, 'REQUEST_7004']);
    const [row] = await t.db.query<{ deleted: boolean }>('SELECT deleted FROM expense_policies WHERE id = $1', [p.id]);
    expect(row!.deleted).toBe(true);
  });

  it('refuses non-admins (POLICY_7002), contradictions (POLICY_7001 with fields), unknown keys, and another business\'s ids', async () => {
    for (const role of ['employee', 'manager', 'bookkeeper', 'auditor'] as const) {
      expect(refusal(await create(policyBody(), tokens[role])), role).toEqual([403, 'POLICY_7002']);
    }
    const contradictory = policyBody({
      rules: rules({
        category_caps: [{ merchant_category: 'Restaurants', currency: 'USD', per_transaction: 10000, per_day: 5000 }],
        blocked_categories: ['Gambling', 'gambling '],
      }),
    });
    const bad = await create(contradictory);
    expect(refusal(bad)).toEqual([422, 'POLICY_7001']);
    expect(Object.keys(bad.body.error_v2.errors).sort()).toEqual(['rules.blocked_categories.1', 'rules.category_caps.0.per_transaction']);
    expect(bad.body.error_v2.message).toContain('above the cap per day');
    expect(refusal(await create({ ...policyBody(), surprise: true }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await create(policyBody({ scope: { kind: 'departments', department_ids: [two.b.departments[0]!] } })))).toEqual([404, 'REQUEST_7004']);

    const ok = await create(policyBody({ name: 'Sales' }));
    expect(ok.status).toBe(201);
    const id = ok.body.id as string;
    expect(refusal(await request(t.app, 'PATCH', `${POLICIES}/${id}`, { token: tokens.admin, body: { rules: contradictory.rules } }))).toEqual([422, 'POLICY_7001']);
    expect(refusal(await request(t.app, 'PATCH', `${POLICIES}/${id}`, { token: tokens.employee, body: { enabled: false } }))).toEqual([403, 'POLICY_7002']);
    expect(refusal(await request(t.app, 'DELETE', `${POLICIES}/${id}`, { token: tokens.manager }))).toEqual([403, 'POLICY_7002']);
    // Business B's owner: A's policy is unknown to them, whatever the verb.
    for (const [method, body] of [['GET', undefined], ['PATCH', { enabled: false }], ['DELETE', undefined]] as const) {
      expect(refusal(await request(t.app, method, `${POLICIES}/${id}`, { token: two.bOwner, body })), method).toEqual([404, 'REQUEST_7004']);
    }
    expect((await request<{ data: ExpensePolicy[] }>(t.app, 'GET', POLICIES, { token: two.bOwner })).body.data.map((p) => p.id)).not.toContain(id);
    expect((await request(t.app, 'GET', `${POLICIES}/${id}`, { token: tokens.admin })).body).toMatchObject({ enabled: true, deleted: false });
    await request(t.app, 'DELETE', `${POLICIES}/${id}`, { token: tokens.admin });
  });

  it(`keeps at most ${MAX_EXPENSE_POLICIES} live policies (POLICY_7003); deleting one makes room`, async () => {
    const made: string[] = [];
    const live = async () => (await request<{ data: ExpensePolicy[] }>(t.app, 'GET', POLICIES, { token: tokens.admin })).body.data.length;
    while ((await live()) < MAX_EXPENSE_POLICIES) {
      const res = await create(policyBody({ name: `Policy ${made.length}`, enabled: false }));
      expect(res.status, res.text).toBe(201);
      made.push(res.body.id);
    }
    expect(refusal(await create(policyBody({ enabled: false })))).toEqual([409, 'POLICY_7003']);
    await request(t.app, 'DELETE', `${POLICIES}/${made[0]}`, { token: tokens.admin });
    const again = await create(policyBody({ enabled: false }));
    expect(again.status).toBe(201);
    made.push(again.body.id);
    for (const id of made.slice(1)) expect((await request(t.app, 'DELETE', `${POLICIES}/${id}`, { token: tokens.admin })).status).toBe(200);
  });

  describe('the wizard, compliance and reminders', () => {
    const ids: Record<string, string> = {};
    let policyId: string;
    beforeAll(async () => {
      const { a } = two;
      const res = await create(policyBody());
      policyId = res.body.id;
      const tx = (spec: Parameters<typeof insertTx>[3]) => insertTx(t.db, a, 'employee', spec);
      ids.both = await tx({ amount: 10000, at: '2026-11-18T09:00:00Z' });
      ids.small = await tx({ amount: 5000, at: '2026-11-18T10:00:00Z' });
      ids.exactly = await tx({ amount: 7500, at: '2026-11-17T10:00:00Z', memo: 'Team lunch' }); // receipt from 75.00 inclusive; memo only above
      ids.receiptOnly = await tx({ amount: 20000, at: '2026-11-16T10:00:00Z', memo: 'Flight' });
      ids.blankMemo = await tx({ amount: 9000, at: '2026-11-15T10:00:00Z', memo: '\u00a0 \t' });
      ids.done = await tx({ amount: 30000, at: '2026-11-14T10:00:00Z', memo: 'Hotel' });
      await attachReceipt(t.db, a, 'employee', ids.done);
      ids.blankMemoWithReceipt = ids.blankMemo;
      await attachReceipt(t.db, a, 'employee', ids.blankMemo);
      ids.refund = await tx({ amount: -10000, at: '2026-11-13T10:00:00Z' });
      ids.declined = await tx({ amount: 10000, at: '2026-11-13T11:00:00Z', state: 'DECLINED' });
      ids.synced = await tx({ amount: 10000, at: '2026-11-12T10:00:00Z', synced: true });
      ids.euro = await tx({ amount: 10000, at: '2026-11-12T11:00:00Z', currency: 'EUR' });
      ids.pending = await tx({ amount: 8000, at: '2026-11-19T10:00:00Z', state: 'PENDING', memo: 'Taxi' });
      ids.someoneElse = await insertTx(t.db, a, 'teammate', { amount: 10000, at: '2026-11-18T09:00:00Z', memo: 'Mine' });
      ids.draftClaim = await insertClaim(t.db, a, 'employee', { amount: 8000, date: '2026-11-17' });
      ids.rejectedClaim = await insertClaim(t.db, a, 'employee', { amount: 8000, date: '2026-11-11', status: 'REJECTED', memo: 'Books' });
      ids.submittedClaim = await insertClaim(t.db, a, 'employee', { amount: 8000, date: '2026-11-11', status: 'SUBMITTED' });
      ids.mileage = await insertClaim(t.db, a, 'employee', { amount: 9000, date: '2026-11-10', type: 'MILEAGE' });
      ids.oldSynced = await tx({ amount: 10000, at: '2025-01-10T10:00:00Z', memo: 'Old', synced: true });
    });

    const wizard = async (token: string, query = '') => {
      const res = await request(t.app, 'GET', `${MISSING}${query}`, { token });
      expect(res.status, res.text).toBe(200);
      return paginatedSchema(missingItemSchema).extend({ total_count: paginatedSchema(missingItemSchema).shape.total_count.unwrap() }).parse(res.body);
    };
    const codes = (i: MissingItem) => i.violations.map((v) => v.code);

    it('lists the caller\'s own items with something to add, newest first, each with only its fixable violations', async () => {
      const page = await wizard(tokens.employee);
      expect(page.data.map((i) => [i.object_id, codes(i)])).toEqual([
        [ids.pending, ['missing_receipt']],
        [ids.both, ['missing_receipt', 'missing_memo']],
        // A claim sorts at its claim date's midnight (UTC): after that day's card transactions.
        [ids.exactly, ['missing_receipt']],
        [ids.draftClaim, ['missing_receipt', 'missing_memo']],
        [ids.receiptOnly, ['missing_receipt']],
        [ids.blankMemo, ['missing_memo']],
        [ids.rejectedClaim, ['missing_receipt']],
        [ids.mileage, ['missing_memo']],
      ]);
      expect(page.total_count).toBe(8);
      expect(page.page.next).toBeNull();
      const both = page.data[1]!;
      expect(both).toMatchObject({ object_type: 'transaction', date: '2026-11-18', amount: 10000, currency: 'USD', merchant: 'Blue Bottle Coffee', memo: null, receipt_ids: [] });
      expect(both.violations[0]).toMatchObject({ policy_id: policyId, policy_name: 'Company expense policy', message: 'A receipt is required from $75.00: this is $100.00.' });
      expect(page.data.find((i) => i.object_id === ids.mileage)).toMatchObject({ object_type: 'reimbursement', merchant: 'Mileage', location_id: null });
      // The teammate sees only their own.
      expect((await wizard(tokens.teammate)).data.map((i) => i.object_id)).toEqual([ids.someoneElse]);
    });

    it('pages with a cursor (every item once), answers only the count at page_size=0, and drops an item once fixed', async () => {
      const seen: string[] = [];
      let start: string | null = null;
      do {
        const page = await wizard(tokens.employee, `?page_size=3${start ? `&start=${start}` : ''}`);
        expect(page.total_count).toBe(8);
        expect(page.data.length).toBeLessThanOrEqual(3);
        seen.push(...page.data.map((i) => i.object_id));
        start = page.page.next;
      } while (start);
      expect(seen).toEqual((await wizard(tokens.employee)).data.map((i) => i.object_id));
      expect(await wizard(tokens.employee, '?page_size=0')).toMatchObject({ data: [], total_count: 8 });
      expect(refusal(await request(t.app, 'GET', `${MISSING}?start=not-a-cursor`, { token: tokens.employee }))).toEqual([422, 'REQUEST_7001']);

      await attachReceipt(t.db, two.a, 'employee', ids.pending!);
      await t.db.query('UPDATE transactions SET memo = $2 WHERE id = $1', [ids.both, 'Client coffee']);
      const after = await wizard(tokens.employee);
      expect(after.data.map((i) => i.object_id)).not.toContain(ids.pending);
      expect(after.data.find((i) => i.object_id === ids.both)!.violations.map((v) => v.code)).toEqual(['missing_receipt']);
      expect(after.total_count).toBe(7);
    });

    it('accepts the default, missing-items and missing-items-restricted scopes; a wizard token reads nothing else', async () => {
      for (const scopes of [['missing-items'], ['missing-items-restricted']] as const) {
        const token = await scopedToken(t.db, two.a, 'employee', [...scopes]);
        expect((await wizard(token)).total_count, scopes[0]).toBe(7);
        expect((await request(t.app, 'GET', POLICIES, { token })).status, scopes[0]).toBe(403);
      }
    });

    it('counts compliance per person and per department, in a range of at most 366 days', async () => {
      const answer = async (query: string, token = tokens.admin) => {
        const res = await request(t.app, 'GET', `${POLICIES}/compliance${query}`, { token });
        expect(res.status, res.text).toBe(200);
        return complianceAnswerSchema.parse(res.body);
      };
      const byPerson = await answer('?from=2026-11-01&to=2026-11-20');
      expect(byPerson).toMatchObject({ group_by: 'person', from: '2026-11-01', to: '2026-11-20' });
      expect(byPerson.includes).toContain('2026-11-01 to 2026-11-20');
      const employee = byPerson.rows.find((r) => r.id === two.a.users.employee)!;
      expect(employee).toMatchObject<Partial<ComplianceRow>>({
        name: expect.stringContaining('Employee'),
        // Transactions: both, small, exactly, receiptOnly, blankMemo, done, synced, euro, pending = 9; claims: draft, rejected, submitted, mileage = 4.
        items: 13,
        // With violations: both, exactly, receiptOnly, blankMemo, synced (receipt + memo), draft, rejected, submitted, mileage = 9.
        items_with_violations: 9,
        // The wizard's 7 (pending fixed since); synced and submitted are not the person's to fix.
        missing_items: 7,
        by_code: { missing_receipt: 7, missing_memo: 5 },
        last_reminded_at: null,
      });
      expect(employee.compliance_rate).toBeCloseTo(1 - 9 / 13, 10);
      const teammate = byPerson.rows.find((r) => r.id === two.a.users.teammate)!;
      expect(teammate).toMatchObject({ items: 1, items_with_violations: 1, missing_items: 1, compliance_rate: 0 });
      expect(byPerson.totals).toEqual({ items: 14, items_with_violations: 10, missing_items: 8 });
      expect(byPerson.rows.map((r) => r.compliance_rate)).toEqual([...byPerson.rows.map((r) => r.compliance_rate)].sort((x, y) => x - y));

      const byDepartment = await answer('?group_by=department&from=2026-11-01&to=2026-11-20', tokens.bookkeeper);
      expect(byDepartment.rows).toEqual([expect.objectContaining({ id: two.a.departments[0], name: 'Engineering', items: 14, missing_items: 8, last_reminded_at: null })]);
      expect((await answer('?from=2026-11-19&to=2026-11-20', tokens.auditor)).totals.items).toBe(1);
      // Default: the last 30 days to today.
      expect(await answer('')).toMatchObject({ from: '2026-10-22', to: '2026-11-20' });

      expect(refusal(await request(t.app, 'GET', `${POLICIES}/compliance?from=2025-11-19&to=2026-11-20`, { token: tokens.admin }))).toEqual([422, 'REQUEST_7001']);
      expect((await request(t.app, 'GET', `${POLICIES}/compliance?from=2025-11-20&to=2026-11-20`, { token: tokens.admin })).status).toBe(200);
      expect(refusal(await request(t.app, 'GET', `${POLICIES}/compliance?from=2026-11-21&to=2026-11-20`, { token: tokens.admin }))).toEqual([422, 'REQUEST_7001']);
      for (const role of ['manager', 'employee', 'outsider'] as const) {
        expect(refusal(await request(t.app, 'GET', `${POLICIES}/compliance`, { token: tokens[role] })), role).toEqual([403, 'POLICY_7002']);
      }
      // B sees none of A's people.
      expect((await answer('?from=2026-11-01&to=2026-11-20', two.bOwner)).rows).toEqual([]);
    });

    it('reminds each person once a day with their count and a link; nothing missing, unknown and foreign ids are skipped', async () => {
      const remind = (userIds: string[], token = tokens.admin) =>
        request(t.app, 'POST', `${POLICIES}/reminders`, { token, body: { user_ids: userIds } });
      const stranger = randomUUID();
      const first = await remind([two.a.users.employee, two.a.users.outsider, two.b.users.employee, stranger, two.a.users.employee]);
      expect(first.status, first.text).toBe(200);
      expect(first.body.reminded).toEqual([{ user_id: two.a.users.employee, item_count: 7 }]);
      expect(first.body.skipped.map((s: { user_id: string; code: string }) => [s.user_id, s.code])).toEqual([
        [two.a.users.outsider, 'POLICY_7005'], [two.b.users.employee, 'REQUEST_7004'], [stranger, 'REQUEST_7004'],
      ]);
      const mails = async () => t.db.query<{ recipient: string; subject: string; body: string }>(
        'SELECT recipient, subject, body FROM dev_outbox WHERE recipient = ANY($1::text[])', [[two.a.email('employee'), two.a.email('outsider'), two.b.email('employee')]],
      );
      const sent = await mails();
      expect(sent.map((m) => m.recipient)).toEqual([two.a.email('employee')]);
      expect(sent[0]!.subject).toBe('You have 7 items missing a receipt, memo or coding');
      expect(sent[0]!.body).toMatch(/^Hi Employee, 7 items of your card charges and claims \(\$715\.00 in all\) still need /);
      expect(sent[0]!.body).toMatch(/\n\nGo through them one at a time: http:\/\/[^ ]+\/missing-items#token=[^\s]+\n\n/);

      const again = await remind([two.a.users.employee]);
      expect(again.body).toEqual({ reminded: [], skipped: [{ user_id: two.a.users.employee, code: 'POLICY_7004', message: 'This person was already reminded today.' }] });
      expect(await mails()).toHaveLength(1);
      for (const role of ['bookkeeper', 'manager', 'employee'] as const) {
        expect(refusal(await remind([two.a.users.employee], tokens[role])), role).toEqual([403, 'POLICY_7002']);
      }
      expect(refusal(await remind([]))).toEqual([422, 'REQUEST_7001']);
      const compliance = await request(t.app, 'GET', `${POLICIES}/compliance?from=2026-11-01&to=2026-11-20`, { token: tokens.admin });
      expect(compliance.body.rows.find((r: ComplianceRow) => r.id === two.a.users.employee).last_reminded_at).toBe('2026-11-20T12:00:00.000Z');
    });

    it('a disabled policy or one scoped to another department asks for nothing', async () => {
      await request(t.app, 'PATCH', `${POLICIES}/${policyId}`, { token: tokens.admin, body: { scope: { kind: 'departments', department_ids: [two.a.departments[2]] } } });
      expect((await wizard(tokens.employee)).total_count).toBe(0);
      await request(t.app, 'PATCH', `${POLICIES}/${policyId}`, { token: tokens.admin, body: { scope: { kind: 'roles', roles: ['BUSINESS_USER'] } } });
      expect((await wizard(tokens.employee)).total_count).toBe(7);
      await request(t.app, 'PATCH', `${POLICIES}/${policyId}`, { token: tokens.admin, body: { enabled: false } });
      expect((await wizard(tokens.employee)).total_count).toBe(0);
    });
  });
});
