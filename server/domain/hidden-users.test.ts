/**
 * Issue 31: hidden spend users (a firm user's or a vendor network admin's user in a business,
 * `isHiddenSpendUser`) are in no people list, picker or assignee check of the business; the hidden
 * user sees its own row. They are inserted directly (their owners, helpers A and B, create them).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { allocateSeqs, announceChange } from '../db/change-seq.ts';
import { issueToken, openSession } from '../auth/session.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn, type Fixture } from '../test-fixtures.ts';

const HIDDEN = ['ADVISOR_CONSOLE_ADMIN', 'ADVISOR_CONSOLE_USER', 'VENDOR_NETWORK_ADMIN'] as const;

describe.each(await testDatabases())('hidden spend users on %s', (kind) => {
  const t = useTestApp(kind);

  /** A business with one hidden user of each hidden role (own identities), stamped and announced as mirrored rows. */
  async function withHidden(transactions = 0): Promise<{ f: Fixture; hidden: Record<(typeof HIDDEN)[number], { id: string; identityId: string }> }> {
    const f = await makeBusiness(t.db, { transactions });
    const hidden = {} as Record<(typeof HIDDEN)[number], { id: string; identityId: string }>;
    for (const role of HIDDEN) {
      const identityId = randomUUID();
      const id = randomUUID();
      const email = `${role.toLowerCase()}-${id.slice(0, 8)}@hidden.test`;
      await t.db.query(`INSERT INTO identities (id, email, password_hash, ofac_status) VALUES ($1, $2, 'x', 'PASSED')`, [identityId, email]);
      const seqs = await allocateSeqs(t.db, f.businessId, 1);
      await t.db.query(
        `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, change_seq, external_firm, external_firm_role)
         VALUES ($1, $2, $3, $4, 'Hidden', $5, $6, $7, $8, $9)`,
        [id, f.businessId, identityId, role, role, email, seqs!.first,
          role === 'VENDOR_NETWORK_ADMIN' ? null : JSON.stringify({ uuid: randomUUID(), id: randomUUID() }),
          role === 'ADVISOR_CONSOLE_ADMIN' ? 'EXTERNAL_FIRM_ADMIN' : role === 'ADVISOR_CONSOLE_USER' ? 'EXTERNAL_FIRM_USER' : null],
      );
      await announceChange(t.db, f.businessId, seqs!.first);
      hidden[role] = { id, identityId };
    }
    return { f, hidden };
  }
  const tokenAs = async (f: Fixture, u: { id: string; identityId: string }) =>
    (await issueToken(t.app.deps, { identityId: u.identityId, userId: u.id, businessId: f.businessId, sessionId: await openSession(t.db, u.identityId) },
      { scopes: ['default'], mfaRequired: false, mfaAuthed: false })).token;

  async function listedUsers(token: string): Promise<string[]> {
    const res = await request(t.app, 'GET', '/v1/auth/businesses/users?page_size=100', { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((u: { id: string }) => u.id);
  }
  async function fedUsers(token: string): Promise<string[]> {
    const res = await request(t.app, 'GET', '/v1/auth/sync/changes?after=0&limit=500', { token });
    expect(res.status, res.text).toBe(200);
    return res.body.changes.filter((c: { collection: string }) => c.collection === 'users').map((c: { id: string }) => c.id);
  }

  it('the people list and the users feed leave them out for everyone else, and show a hidden user its own row alone', async () => {
    const { f, hidden } = await withHidden();
    const hiddenIds = Object.values(hidden).map((h) => h.id);
    for (const role of ['admin', 'employee'] as const) {
      const token = await signIn(t.app, f.email(role));
      const listed = await listedUsers(token);
      expect(listed).toContain(f.users.owner);
      expect(listed.filter((id) => hiddenIds.includes(id))).toEqual([]);
      const fed = await fedUsers(token);
      expect(fed).toContain(f.users.employee);
      expect(fed.filter((id) => hiddenIds.includes(id))).toEqual([]);
    }
    // (An advisor's hidden user acts only under a live authorization, FIRM_7005 otherwise: the vendor's shows the rule.)
    const own = await tokenAs(f, hidden.VENDOR_NETWORK_ADMIN);
    const listed = await listedUsers(own);
    expect(listed).toContain(f.users.owner);
    expect(listed.filter((id) => hiddenIds.includes(id))).toEqual([hidden.VENDOR_NETWORK_ADMIN.id]);
    expect((await fedUsers(own)).filter((id) => hiddenIds.includes(id))).toEqual([hidden.VENDOR_NETWORK_ADMIN.id]);
  });

  it('no picker or assignee check takes one: group member, cardholder, delegate, mention (refused, nothing written)', async () => {
    const { f, hidden } = await withHidden(5);
    const admin = await signIn(t.app, f.email('admin'));
    for (const h of Object.values(hidden)) {
      const group = await request(t.app, 'POST', '/v1/auth/approval_policy/group', {
        token: admin, body: { name: `G ${h.id.slice(0, 6)}`, mode: 'any', user_ids: [f.users.manager, h.id] },
      });
      expect(refusal(group)).toEqual([404, 'REQUEST_7004']);
      const card = await request(t.app, 'POST', '/v1/auth/cards', {
        token: admin, body: { user_id: h.id, display_name: 'Nope', limit: { amount: 10_000, currency: 'USD', interval: 'MONTHLY' } },
      });
      expect(refusal(card)).toEqual([404, 'REQUEST_7004']);
      const delegate = await request(t.app, 'PUT', '/v1/auth/copilot', {
        token: admin, body: { delegate_id: h.id, starts_on: '2026-12-01', ends_on: '2026-12-05' },
      });
      expect(refusal(delegate)).toEqual([404, 'REQUEST_7004']);
    }
    const groups = await t.db.query('SELECT 1 FROM approval_groups WHERE business_id = $1', [f.businessId]);
    expect(groups).toEqual([]);
    expect(await t.db.query('SELECT 1 FROM cards WHERE user_id = ANY($1::uuid[])', [Object.values(hidden).map((h) => h.id)])).toEqual([]);

    const txn = { id: f.transactions.admin[0]! };
    const mention = await request(t.app, 'POST', '/v1/auth/comments', {
      token: admin, body: { subject_type: 'transaction', subject_id: txn.id, body: 'Look', mention_ids: [hidden.ADVISOR_CONSOLE_ADMIN.id] },
    });
    expect(mention.status).toBe(422);
    expect(mention.text).toContain('is not a member of this business');
    expect(await t.db.query('SELECT 1 FROM comments WHERE subject_id = $1', [txn.id])).toEqual([]);
  });

  it('is never resolved as an approver: named on a step, or set as someone\'s manager before it was hidden', async () => {
    const { f, hidden } = await withHidden();
    const admin = await signIn(t.app, f.email('admin'));
    const firmUser = hidden.ADVISOR_CONSOLE_ADMIN.id;
    await t.db.query('UPDATE spend_users SET manager_id = $2 WHERE id = $1', [f.users.employee, firmUser]);
    const steps = [{ condition: null, approvers: { kind: 'user', user_id: firmUser } }, { condition: null, approvers: { kind: 'manager' } }];
    expect((await request(t.app, 'PATCH', '/v1/auth/approval_policy/bill', { token: admin, body: { steps } })).status).toBe(200);
    const sim = await request(t.app, 'POST', '/v1/auth/approval_policy/request_simulation', {
      token: admin, body: { object_type: 'bill', subject: { requester_id: f.users.employee, amount: 25_000, currency: 'USD' } },
    });
    expect(sim.status, sim.text).toBe(200);
    const resolved = sim.body.steps.flatMap((s: { resolved_approvers: { user_id: string }[] }) => s.resolved_approvers.map((a) => a.user_id));
    expect(resolved).not.toContain(firmUser);
  });
});
