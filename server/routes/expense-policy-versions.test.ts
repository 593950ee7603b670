import { describe, expect, it } from 'vitest';
import { expensePolicySchema, type ExpensePolicy } from '../../schema/entities/expense-policy.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { expectConflict, refusal, request, useTwoBusinesses } from '../test-fixtures.ts';
import { policyBody, rules } from './expense-policies-test-kit.ts';

/**
 * Issue 29: PATCH /expense-policies/{id} honours If-Match like the other versioned PATCHes (issue 24,
 * migration 057): GET and PATCH answer `ETag: "<change_seq>"`; two admins editing one policy from the
 * same version are merged field by field; a field the other changed since answers 409 CONFLICT with
 * the field, both values, who changed it and the current version, and nothing of the request is
 * applied; saving again on that version keeps mine. Without If-Match a PATCH is as before; a bad
 * If-Match is 422; another business's policy is 404 before any conflict.
 */
const BASE = '/v1/auth/expense-policies';

describe.each(await testDatabases())('expense policy versions on %s', (kind) => {
  const t = useTestApp(kind);
  const biz = useTwoBusinesses(t, ['owner', 'admin', 'employee']);

  const patch = (id: string, body: unknown, role: 'owner' | 'admin', ifMatch?: string) =>
    request(t.app, 'PATCH', `${BASE}/${id}`, { token: biz.tokens[role], body, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } });
  const stored = async (id: string) => expensePolicySchema.parse((await request(t.app, 'GET', `${BASE}/${id}`, { token: biz.tokens.admin })).body);

  it('answers an ETag on GET and PATCH; merges disjoint edits of one version; refuses a field changed since with 409 CONFLICT', async () => {
    const created = await request<ExpensePolicy>(t.app, 'POST', BASE, { token: biz.tokens.admin, body: policyBody({ name: 'Travel policy' }) });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    const read = await request<ExpensePolicy>(t.app, 'GET', `${BASE}/${id}`, { token: biz.tokens.admin });
    expect(read.headers.get('ETag')).toBe(`"${read.body.change_seq}"`);
    const v1 = read.body.change_seq;

    // The owner renames it on v1; the admin, also on v1, changes only the rules: both land.
    const renamed = await patch(id, { name: 'Travel and meals' }, 'owner', `"${v1}"`);
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.headers.get('ETag')).toBe(`"${renamed.body.change_seq}"`);
    const newRules = rules({ receipt_required_from: { amount: 2500, currency: 'USD' } });
    const merged = await patch(id, { rules: newRules }, 'admin', `"${v1}"`);
    expect(merged.status, merged.text).toBe(200);
    expect(await stored(id)).toMatchObject({ name: 'Travel and meals', rules: { receipt_required_from: { amount: 2500, currency: 'USD' } } });

    // The admin, still on v1, sends the whole form: the name the owner changed conflicts; nothing applies.
    const before = await stored(id);
    const stale = await patch(id, { ...policyBody({ name: 'Travel policy (2027)', enabled: false }), rules: newRules }, 'admin', `"${v1}"`);
    expect(refusal(stale)).toEqual([409, 'CONFLICT']);
    expectConflict(stale.body, {
      field: 'name', server_value: 'Travel and meals', your_value: 'Travel policy (2027)',
      changed_by: { user_id: biz.a.users.owner, name: expect.any(String) }, changed_at: expect.any(String),
    }, before.change_seq);
    expect(await stored(id)).toEqual(before);
    // Saving again on the version the conflict named keeps mine.
    const kept = await patch(id, { name: 'Travel policy (2027)', enabled: false }, 'admin', `"${stale.body.error_v2.current_version}"`);
    expect(kept.status, kept.text).toBe(200);
    expect(await stored(id)).toMatchObject({ name: 'Travel policy (2027)', enabled: false });
  });

  it('without If-Match applies as before; a malformed one is 422; another business\'s policy is 404, never a 409', async () => {
    const created = await request<ExpensePolicy>(t.app, 'POST', BASE, { token: biz.tokens.admin, body: policyBody({ name: 'Meals' }) });
    const id = created.body.id;
    await patch(id, { name: 'Meals and snacks' }, 'owner');
    expect((await patch(id, { name: 'Meals (old copy)' }, 'admin')).status).toBe(200);
    expect((await stored(id)).name).toBe('Meals (old copy)');
    for (const bad of ['*', '"v3"', '"1", "2"']) {
      const res = await patch(id, { name: 'x' }, 'admin', bad);
      expect(refusal(res), bad).toEqual([422, 'REQUEST_7001']);
    }
    const foreign = await request(t.app, 'PATCH', `${BASE}/${id}`, { token: biz.bOwner, body: { name: 'Theirs' }, headers: { 'If-Match': '"1"' } });
    expect(refusal(foreign)).toEqual([404, 'REQUEST_7004']);
    // An employee may not write it, version or not (403 before any conflict).
    const employee = await request(t.app, 'PATCH', `${BASE}/${id}`, { token: biz.tokens.employee, body: { name: 'Mine' }, headers: { 'If-Match': '"1"' } });
    expect(employee.status).toBe(403);
  });
});
