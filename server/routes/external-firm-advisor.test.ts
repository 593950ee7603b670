import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';
import { addMember, makeFirm } from './external-firm-test-kit.ts';

/** Issue 31, D3: a firm user inside a client, held to its authorization's rights and life. */
describe.each(await testDatabases())('the firm user in a client on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });

  async function inClient(rights: string[]) {
    const firm = await makeFirm(t.app, t.db, 'Acme CPAs');
    const member = await addMember(t.app, t.db, firm);
    const fx = await makeBusiness(t.db, { transactions: 8 });
    const clientAdmin = await signIn(t.app, fx.email('admin'));
    const proposal = await request<{ id: string }>(t.app, 'POST', '/v1/auth/external-firm/proposals', {
      token: firm.adminToken, body: { client_email: fx.email('admin'), client_name: 'Client', rights, firm_user_ids: [member.firmUserId] },
    });
    await request(t.app, 'PUT', `/v1/auth/external-firm/proposals/${proposal.body.id}/validate`, { token: firm.adminToken });
    const accepted = await request(t.app, 'PUT', `/v1/auth/businesses/external-firm-proposals/${proposal.body.id}/accept`, { token: clientAdmin, body: {} });
    expect(accepted.status).toBe(200);
    const opened = await request<{ id_token: string }>(t.app, 'POST', `/v1/auth/external-firm/clients/${fx.businessId}/open`, { token: member.token });
    const [auth] = await t.db.query<{ id: string }>('SELECT id::text FROM external_firm_authorizations WHERE business_id = $1', [fx.businessId]);
    return { firm, member, fx, clientAdmin, advisor: opened.body.id_token, authorizationId: auth!.id };
  }

  it('reads the business, codes a transaction (audited with the firm), cannot pay a bill (FIRM_7003)', async () => {
    const { firm, member, fx, advisor } = await inClient(['READ', 'CODE']);
    const list = await request<{ data: { id: string }[] }>(t.app, 'GET', '/v1/auth/transactions?page_size=100', { token: advisor });
    expect(list.status).toBe(200);
    expect(list.body.data.map((r) => r.id).sort()).toEqual([...fx.allTransactions].sort());

    const target = fx.transactions.employee[0]!;
    const coded = await request(t.app, 'PATCH', `/v1/auth/transactions/${target}`, { token: advisor, body: { memo: 'Coded by the firm', gl_account_id: fx.glAccounts.active[0] } });
    expect(coded.status).toBe(200);
    const [row] = await t.db.query<{ memo: string }>('SELECT memo FROM transactions WHERE id = $1', [target]);
    expect(row?.memo).toBe('Coded by the firm');
    const [identity] = await t.db.query<{ identity_id: string }>('SELECT identity_id::text FROM external_firm_users WHERE id = $1', [member.firmUserId]);
    const audit = await t.db.query<{ identity_id: string; business_id: string; external_firm_id: string; status: number }>(
      `SELECT identity_id::text, business_id::text, external_firm_id::text, status FROM audit_log WHERE call_id = 'transactions.patch' AND business_id = $1`,
      [fx.businessId],
    );
    expect(audit).toEqual([{ identity_id: identity!.identity_id, business_id: fx.businessId, external_firm_id: firm.firmId, status: 200 }]);

    const pay = await request(t.app, 'POST', '/v1/auth/bill-pay/bulk-actions/pay-now', { token: advisor, body: { bill_ids: [randomUUID()] } });
    expect(refusal(pay)).toEqual([403, 'FIRM_7003']);
    const refused = await t.db.query<{ status: number }>(`SELECT status FROM audit_log WHERE call_id = 'bills.bulk.payNow' AND business_id = $1`, [fx.businessId]);
    expect(refused).toEqual([{ status: 403 }]);
  });

  it('READ alone cannot code: FIRM_7003 and the transaction unchanged', async () => {
    const { fx, advisor } = await inClient(['READ']);
    const target = fx.transactions.employee[0]!;
    const [before] = await t.db.query<{ memo: string | null }>('SELECT memo FROM transactions WHERE id = $1', [target]);
    const res = await request(t.app, 'PATCH', `/v1/auth/transactions/${target}`, { token: advisor, body: { memo: 'nope' } });
    expect(refusal(res)).toEqual([403, 'FIRM_7003']);
    const [after] = await t.db.query<{ memo: string | null }>('SELECT memo FROM transactions WHERE id = $1', [target]);
    expect(after).toEqual(before);
  });

  it('the token dies with the authorization: the client ends access → FIRM_7005 on the next request', async () => {
    const { firm, fx, clientAdmin, advisor, authorizationId } = await inClient(['READ', 'CODE']);
    expect((await request(t.app, 'GET', '/v1/auth/transactions', { token: advisor })).status).toBe(200);
    const ended = await request(t.app, 'DELETE', `/v1/auth/businesses/external-firms/${authorizationId}`, { token: clientAdmin });
    expect(ended.body).toMatchObject({ status: 'ENDED', ended_by: 'CLIENT', firm_id: firm.firmId });
    expect(refusal(await request(t.app, 'GET', '/v1/auth/transactions', { token: advisor }))).toEqual([403, 'FIRM_7005']);
    const clients = await request<{ data: unknown[] }>(t.app, 'GET', '/v1/auth/external-firm/clients', { token: firm.adminToken });
    expect(clients.body.data).toEqual([]);
    const hidden = await t.db.query(`SELECT 1 FROM spend_users WHERE business_id = $1 AND role LIKE 'ADVISOR%' AND NOT deleted`, [fx.businessId]);
    expect(hidden).toHaveLength(0);
  });

  it('the firm withdraws, or unassigns its last user: the authorization ends, the token answers FIRM_7005', async () => {
    const a = await inClient(['READ']);
    const other = await makeFirm(t.app, t.db);
    expect(refusal(await request(t.app, 'DELETE', `/v1/auth/external-firm/authorizations/${a.authorizationId}`, { token: other.adminToken }))).toEqual([404, 'REQUEST_7004']);
    const withdrawn = await request(t.app, 'DELETE', `/v1/auth/external-firm/authorizations/${a.authorizationId}`, { token: a.firm.adminToken });
    expect(withdrawn.body).toEqual({ business_id: a.fx.businessId, authorization_id: a.authorizationId });
    expect(refusal(await request(t.app, 'GET', '/v1/auth/transactions', { token: a.advisor }))).toEqual([403, 'FIRM_7005']);

    const b = await inClient(['READ']);
    const unassigned = await request(t.app, 'DELETE', `/v1/auth/external-firm/authorizations/${b.authorizationId}/users/${b.member.firmUserId}`, { token: b.firm.adminToken });
    expect(unassigned.body).toEqual({ business_id: b.fx.businessId, authorization_id: b.authorizationId, assigned_firm_user_ids: [] });
    const [row] = await t.db.query<{ status: string; ended_by: string }>('SELECT status, ended_by FROM external_firm_authorizations WHERE id = $1', [b.authorizationId]);
    expect(row).toEqual({ status: 'ENDED', ended_by: 'FIRM' });
    expect(refusal(await request(t.app, 'GET', '/v1/auth/transactions', { token: b.advisor }))).toEqual([403, 'FIRM_7005']);
  });

  it('removing the member ends its clients: its token in the client answers FIRM_7005, the client is no longer listed', async () => {
    const a = await inClient(['READ']);
    const removed = await request(t.app, 'DELETE', `/v1/auth/external-firm/users/${a.member.firmUserId}`, { token: a.firm.adminToken });
    expect(removed.status).toBe(200);
    expect(refusal(await request(t.app, 'GET', '/v1/auth/transactions', { token: a.advisor }))).toEqual([403, 'FIRM_7005']);
    const [row] = await t.db.query<{ status: string; ended_by: string }>('SELECT status, ended_by FROM external_firm_authorizations WHERE id = $1', [a.authorizationId]);
    expect(row).toEqual({ status: 'ENDED', ended_by: 'FIRM' });
    const clients = await request<{ data: unknown[] }>(t.app, 'GET', '/v1/auth/external-firm/clients', { token: a.firm.adminToken });
    expect(clients.body.data).toEqual([]);
  });
});
