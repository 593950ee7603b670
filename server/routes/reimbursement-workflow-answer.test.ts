/**
 * A claim a claim.submitted workflow approves in the submitting transaction answers APPROVED, on
 * a create that submits and on PATCH /submit: the client's mirror stores a confirmed answer as
 * the row, so an answer of SUBMITTED would show the claim waiting until the feed corrected it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';

type Claim = { id: string; status: string; change_seq: number };
const OOP = '/v1/auth/reimbursements/out_of_pocket';
const oop = (over: Record<string, unknown>) => ({ merchant: 'Blue Bottle', currency: 'USD', transaction_date: '2026-11-20', ...over });

describe.each(await testDatabases())('a claim approved by a workflow at submission, on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.parse('2026-12-01T12:00:00Z') });
  let a: Fixture;
  let admin: string;
  let employee: string;
  const stored = async (id: string) =>
    (await t.db.query<{ status: string; change_seq: number }>('SELECT status, change_seq::int AS change_seq FROM reimbursements WHERE id = $1', [id]))[0];

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    admin = await signIn(t.app, a.email('admin'));
    employee = await signIn(t.app, a.email('employee'));
    const wf = await request(t.app, 'POST', '/v1/auth/workflows', {
      token: admin,
      body: { name: 'Small claims', trigger: 'claim.submitted', enabled: true, conditions: [], actions: [{ kind: 'auto_approve', under: { amount: 2500, currency: 'USD' } }] },
    });
    expect(wf.status, wf.text).toBe(201);
  });

  it('answers a create that submits with the final status and its seq; one the workflow leaves waits SUBMITTED', async () => {
    const small = await request<Claim>(t.app, 'POST', OOP, { token: employee, body: oop({ amount: 2000 }) });
    expect(small.status, small.text).toBe(200);
    expect(small.body.status).toBe('APPROVED');
    expect(await stored(small.body.id)).toEqual({ status: 'APPROVED', change_seq: small.body.change_seq });
    const big = await request<Claim>(t.app, 'POST', OOP, { token: employee, body: oop({ amount: 3000 }) });
    expect(big.body.status).toBe('SUBMITTED');
    expect(await stored(big.body.id)).toEqual({ status: 'SUBMITTED', change_seq: big.body.change_seq });
    // A repeat of the create (same client id, as an outbox retry) answers the stored row: APPROVED.
    const again = await request<Claim>(t.app, 'POST', OOP, { token: employee, body: oop({ amount: 2000, id: small.body.id }) });
    expect(again.body).toMatchObject({ id: small.body.id, status: 'APPROVED', change_seq: small.body.change_seq });
  });

  it('answers PATCH /submit of a draft with APPROVED and the seq of the approval write', async () => {
    const draft = await request<Claim>(t.app, 'POST', OOP, { token: employee, body: oop({ amount: 1500, submit: false }) });
    expect(draft.body.status).toBe('DRAFT');
    const submitted = await request<Claim>(t.app, 'PATCH', `/v1/auth/reimbursements/${draft.body.id}/submit`, { token: employee });
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body.status).toBe('APPROVED');
    expect(submitted.body.change_seq).toBeGreaterThan(draft.body.change_seq);
    expect(await stored(draft.body.id)).toEqual({ status: 'APPROVED', change_seq: submitted.body.change_seq });
  });
});
