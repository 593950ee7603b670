/**
 * Issue 31: admin.auditLog.list, the business's audit log for its admins: newest first, keyset
 * pages, filters by person and call, each row naming the person (a firm user with its firm).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { listAuditLog } from '../../schema/api/calls-audit-log.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';
import { auditActorName } from './audit-log.ts';

/** The firms' names are the firm server's (helper A); here one firm is known. */
const FIRMS = vi.hoisted(() => new Map<string, string>());
vi.mock('../auth/surfaces/firm.ts', async (original) => ({
  ...(await original<object>()),
  firmNames: async (_db: unknown, ids: readonly string[]) => new Map(ids.flatMap((id) => (FIRMS.has(id) ? [[id, FIRMS.get(id)!]] : []))),
}));

describe('auditActorName', () => {
  it.each([
    [{ first_name: 'Jane', last_name: 'Roe', email: 'j@x.test' }, 'Acme CPAs', 'Jane Roe (Acme CPAs)'],
    [{ first_name: 'Jane', last_name: 'Roe', email: 'j@x.test' }, null, 'Jane Roe'],
    [{ first_name: null, last_name: ' ', email: 'j@x.test' }, null, 'j@x.test'],
    [{ first_name: null, last_name: null, email: null }, null, 'Someone'],
  ])('%j with %s → %s', (row, firm, expected) => expect(auditActorName(row, firm)).toBe(expected));
});

describe.each(await testDatabases())('audit log read on %s', (kind) => {
  const t = useTestApp(kind);
  const list = (token: string, query = '') => request(t.app, 'GET', `/v1/auth/businesses/audit-log${query}`, { token });

  it('answers the business own rows newest first, naming each person; a firm user as "Name (Firm)"', async () => {
    const f = await makeBusiness(t.db, { transactions: 10 });
    const other = await makeBusiness(t.db, { transactions: 5 });
    const admin = await signIn(t.app, f.email('admin'));
    const employee = await signIn(t.app, f.email('employee'));
    const memo = (token: string, id: string, text: string) =>
      request(t.app, 'PATCH', `/v1/auth/transactions/${id}`, { token, body: { memo: text } });
    expect((await memo(employee, f.transactions.employee[0]!, 'lunch')).status).toBe(200);
    expect((await memo(admin, f.transactions.admin[0]!, 'paper')).status).toBe(200);
    expect((await memo(employee, f.transactions.admin[0]!, 'not mine')).status).toBe(404); // a refusal is a row too
    expect((await memo(await signIn(t.app, other.email('admin')), other.transactions.admin[0]!, 'elsewhere')).status).toBe(200);
    // A firm user in the business (its hidden spend user), as register writes its rows.
    const firmId = randomUUID();
    FIRMS.set(firmId, 'Acme CPAs');
    const jane = randomUUID();
    const hiddenUser = randomUUID();
    await t.db.query(`INSERT INTO identities (id, email, password_hash) VALUES ($1, $2, 'x')`, [jane, `jane-${jane.slice(0, 8)}@acme.test`]);
    await t.db.query(
      `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, change_seq, external_firm)
       VALUES ($1, $2, $3, 'ADVISOR_CONSOLE_USER', 'Jane', 'Roe', 'jane@acme.test', 0, $4)`,
      [hiddenUser, f.businessId, jane, JSON.stringify({ uuid: firmId, id: randomUUID() })],
    );
    await t.db.query(
      `INSERT INTO audit_log (identity_id, spend_user_id, business_id, call_id, method, path, status, external_firm_id)
       VALUES ($1, $2, $3, 'transactions.patch', 'PATCH', '/v1/auth/transactions/x', 200, $4)`,
      [jane, hiddenUser, f.businessId, firmId],
    );

    const res = await list(admin, '?include_count=true');
    expect(res.status, res.text).toBe(200);
    const body = listAuditLog.response.parse(res.body);
    expect(body.total_count).toBe(4);
    expect(body.data.map((r) => [r.actor.name, r.call_id, r.status])).toEqual([
      ['Jane Roe (Acme CPAs)', 'transactions.patch', 200],
      [expect.stringMatching(/^Employee /), 'transactions.patch', 404],
      [expect.stringMatching(/^Admin /), 'transactions.patch', 200],
      [expect.stringMatching(/^Employee /), 'transactions.patch', 200],
    ]);
    expect(body.data[0]!.actor).toEqual({ spend_user_id: hiddenUser, name: 'Jane Roe (Acme CPAs)', external_firm_id: firmId });
    // The call's declared path, never the requested one (a refusal's path may name another business's ids).
    expect(body.data.map((r) => r.path)).toEqual(Array(4).fill('/v1/auth/transactions/:transaction_canonical_uuid'));
    expect(res.text).not.toContain(f.transactions.admin[0]!);
    expect(res.text).not.toContain(other.businessId);
    expect(res.text).not.toContain('elsewhere');

    // Filters: one person's rows; one call's rows.
    const mine = listAuditLog.response.parse((await list(admin, `?actor=${f.users.employee}`)).body);
    expect(mine.data.map((r) => r.status)).toEqual([404, 200]);
    expect((await list(admin, '?call=users.signOut')).body.data).toEqual([]);

    // Keyset pages of one: every row once, in order, then no next page.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = listAuditLog.response.parse((await list(admin, `?page_size=1${cursor ? `&start=${cursor}` : ''}`)).body);
      seen.push(...page.data.map((r) => r.id));
      cursor = page.page.next;
    } while (cursor);
    expect(seen).toEqual(body.data.map((r) => r.id));
  });

  it('is for admins only, and refuses a malformed cursor or filter', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['employee', 'bookkeeper', 'manager', 'auditor'] as const) {
      expect(refusal(await list(await signIn(t.app, f.email(role))))).toEqual([403, 'FORBIDDEN_7003']);
    }
    const owner = await signIn(t.app, f.email('owner'));
    expect((await list(owner)).status).toBe(200);
    expect((await list(owner, '?start=abc')).status).toBe(422);
    expect((await list(owner, '?actor=nope')).status).toBe(422);
    expect((await list(owner, '?call=a%20b')).status).toBe(422);
  });
});
