import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';
import { addMember, lastMail, makeFirm } from './external-firm-test-kit.ts';

const P = '/v1/auth/external-firm/proposals';
const B = '/v1/auth/businesses/external-firm-proposals';

describe.each(await testDatabases())('external firms: proposals and clients on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });

  /** A firm with one member, a client business, and a validated proposal to its admin. */
  async function proposed(rights = ['READ', 'CODE']) {
    const firm = await makeFirm(t.app, t.db, 'Ledger & Co');
    const member = await addMember(t.app, t.db, firm);
    const fx = await makeBusiness(t.db, { transactions: 6, name: 'Client Co' });
    const clientAdmin = await signIn(t.app, fx.email('admin'));
    const created = await request<{ id: string; status: string }>(t.app, 'POST', P, {
      token: firm.adminToken, body: { client_email: fx.email('admin'), client_name: 'Client Co', rights, firm_user_ids: [member.firmUserId] },
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('DRAFT');
    const validated = await request(t.app, 'PUT', `${P}/${created.body.id}/validate`, { token: firm.adminToken });
    expect(validated.body).toMatchObject({ status: 'PENDING' });
    return { firm, member, fx, clientAdmin, proposalId: created.body.id };
  }

  it('a validated proposal is mailed to the client, accepted in one go: authorization and hidden spend users', async () => {
    const { firm, member, fx, clientAdmin, proposalId } = await proposed();
    expect((await lastMail(t.db, fx.email('admin'))).subject).toBe('Ledger & Co would like to work on your books');
    const listed = await request<{ data: { id: string }[] }>(t.app, 'GET', B, { token: clientAdmin });
    expect(listed.body.data.map((p) => p.id)).toEqual([proposalId]);
    // Only owners and admins decide.
    const employee = await signIn(t.app, fx.email('employee'));
    expect(refusal(await request(t.app, 'PUT', `${B}/${proposalId}/accept`, { token: employee, body: {} }))).toEqual([403, 'FORBIDDEN_7003']);

    const accepted = await request(t.app, 'PUT', `${B}/${proposalId}/accept`, { token: clientAdmin, body: {} });
    expect(accepted.body).toMatchObject({ status: 'ACCEPTED', business_id: fx.businessId, rights: ['READ', 'CODE'] });
    const auths = await t.db.query<{ status: string; rights: string[] }>('SELECT status, rights FROM external_firm_authorizations WHERE business_id = $1', [fx.businessId]);
    expect(auths).toEqual([{ status: 'ACTIVE', rights: ['READ', 'CODE'] }]);
    const hidden = await t.db.query<{ role: string; external_firm: unknown; has_accepted_cardholder_agreement: boolean }>(
      `SELECT s.role, s.external_firm, s.has_accepted_cardholder_agreement FROM external_firm_authorization_users au
         JOIN spend_users s ON s.id = au.spend_user_id WHERE au.firm_user_id = $1`, [member.firmUserId],
    );
    expect(hidden).toEqual([{ role: 'ADVISOR_CONSOLE_USER', external_firm: { uuid: firm.firmId, id: member.firmUserId }, has_accepted_cardholder_agreement: false }]);
    expect((await lastMail(t.db, firm.adminEmail)).subject).toBe('Client Co accepted your proposal');

    // The firm already works with the client: a new proposal to its admin is FIRM_7001.
    const again = await request(t.app, 'POST', P, { token: firm.adminToken, body: { client_email: fx.email('admin'), client_name: 'Client Co', rights: ['READ'], firm_user_ids: [] } });
    expect(refusal(again)).toEqual([409, 'FIRM_7001']);
    // Accepting twice: FIRM_7002, nothing more written.
    expect(refusal(await request(t.app, 'PUT', `${B}/${proposalId}/accept`, { token: clientAdmin, body: {} }))).toEqual([409, 'FIRM_7002']);
    expect(await t.db.query('SELECT 1 FROM external_firm_authorizations WHERE business_id = $1', [fx.businessId])).toHaveLength(1);
  });

  it('accepting a revoked proposal is FIRM_7002 and writes nothing; a second open proposal to one address is FIRM_7001', async () => {
    const { firm, fx, clientAdmin, proposalId } = await proposed();
    const dup = await request(t.app, 'POST', P, { token: firm.adminToken, body: { client_email: fx.email('admin'), client_name: 'Again', rights: ['READ'], firm_user_ids: [] } });
    expect(refusal(dup)).toEqual([409, 'FIRM_7001']);
    expect((await request(t.app, 'PUT', `${P}/${proposalId}/revoke`, { token: firm.adminToken })).body).toMatchObject({ status: 'REVOKED' });
    const res = await request(t.app, 'PUT', `${B}/${proposalId}/accept`, { token: clientAdmin, body: {} });
    expect(refusal(res)).toEqual([409, 'FIRM_7002']);
    expect(await t.db.query('SELECT 1 FROM external_firm_authorizations WHERE business_id = $1', [fx.businessId])).toHaveLength(0);
    expect(await t.db.query(`SELECT 1 FROM spend_users WHERE business_id = $1 AND role LIKE 'ADVISOR%'`, [fx.businessId])).toHaveLength(0);
  });

  it('a client may narrow the rights, never widen them; reject ends the proposal', async () => {
    const { clientAdmin, proposalId } = await proposed(['READ', 'CODE']);
    const wider = await request(t.app, 'PUT', `${B}/${proposalId}/accept`, { token: clientAdmin, body: { rights: ['READ', 'CLOSE_BOOKS'] } });
    expect(refusal(wider)).toEqual([422, 'REQUEST_7001']);
    const rejected = await request(t.app, 'PUT', `${B}/${proposalId}/reject`, { token: clientAdmin });
    expect(rejected.body).toMatchObject({ status: 'REJECTED' });
  });

  it('the client list: open items, assigned members only, open a client (404 when not assigned)', async () => {
    const { firm, member, fx, clientAdmin, proposalId } = await proposed();
    await request(t.app, 'PUT', `${B}/${proposalId}/accept`, { token: clientAdmin, body: { rights: ['READ'] } });
    const other = await addMember(t.app, t.db, firm);
    const [counts] = await t.db.query<{ uncoded: number }>(
      `SELECT count(*)::int AS uncoded FROM transactions WHERE business_id = $1 AND NOT deleted AND state IN ('PENDING', 'CLEARED') AND gl_account_id IS NULL`,
      [fx.businessId],
    );
    const list = await request<{ data: { business_id: string; rights: string[]; open_items: { uncoded: number } }[] }>(
      t.app, 'GET', '/v1/auth/external-firm/clients', { token: member.token },
    );
    expect(list.body.data).toEqual([expect.objectContaining({ business_id: fx.businessId, business_name: 'Client Co', rights: ['READ'], assigned_firm_user_ids: [member.firmUserId] })]);
    expect(list.body.data[0]!.open_items.uncoded).toBe(counts!.uncoded);
    const unassigned = await request<{ data: unknown[] }>(t.app, 'GET', '/v1/auth/external-firm/clients', { token: other.token });
    expect(unassigned.body.data).toEqual([]);
    expect((await request<{ data: unknown[] }>(t.app, 'GET', '/v1/auth/external-firm/clients', { token: firm.adminToken })).body.data).toHaveLength(1);

    expect(refusal(await request(t.app, 'POST', `/v1/auth/external-firm/clients/${fx.businessId}/open`, { token: other.token }))).toEqual([404, 'REQUEST_7004']);
    const opened = await request<{ id_token: string }>(t.app, 'POST', `/v1/auth/external-firm/clients/${fx.businessId}/open`, { token: member.token });
    expect(opened.status).toBe(200);
    const claims = JSON.parse(Buffer.from(opened.body.id_token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    const [hidden] = await t.db.query<{ id: string }>(
      'SELECT spend_user_id::text AS id FROM external_firm_authorization_users WHERE firm_user_id = $1', [member.firmUserId],
    );
    expect(claims).toMatchObject({ business_id: fx.businessId, ramp_user_uuid: hidden!.id, external_firm_id: firm.firmId });
    expect((await request(t.app, 'GET', '/v1/auth/identity', { token: opened.body.id_token })).status).toBe(200);
  });

  it('bulk validate and revoke answer each id; csv-parse writes nothing', async () => {
    const firm = await makeFirm(t.app, t.db);
    const other = await makeFirm(t.app, t.db);
    const mk = async (f: typeof firm, email: string) => (await request<{ id: string }>(t.app, 'POST', P, {
      token: f.adminToken, body: { client_email: email, client_name: 'X', rights: ['READ'], firm_user_ids: [] },
    })).body.id;
    const a = await mk(firm, 'a@client.test');
    const b = await mk(firm, 'b@client.test');
    const foreign = await mk(other, 'c@client.test');
    const res = await request<{ results: { id: string; ok: boolean; error_v2?: { error_code: string } }[] }>(t.app, 'PUT', `${P}/bulk`, {
      token: firm.adminToken, body: { action: 'validate', ids: [a, b, foreign] },
    });
    expect(res.body.results.map((r) => [r.id, r.ok, r.error_v2?.error_code])).toEqual([[a, true, undefined], [b, true, undefined], [foreign, false, 'REQUEST_7004']]);
    const [row] = await t.db.query<{ status: string }>('SELECT status FROM external_firm_proposals WHERE id = $1', [foreign]);
    expect(row?.status).toBe('DRAFT');
    const parsed = await request<{ rows: unknown[] }>(t.app, 'POST', `${P}/csv-parse`, {
      token: firm.adminToken, body: { csv: 'client_email,client_name,rights\nx@y.test,X Co,READ;CODE\nbad,Y,READ\nx@y.test,Z,READ' },
    });
    expect(parsed.body.rows).toEqual([
      { line: 2, body: { client_email: 'x@y.test', client_name: 'X Co', rights: ['READ', 'CODE'] } },
      { line: 3, errors: { client_email: 'client_email must be a valid email' } },
      { line: 4, errors: { client_email: 'client_email repeats line 2' } },
    ]);
  });

  it('a business proposes to a firm by its admin\'s email; the firm admin accepts and is bound', async () => {
    const firm = await makeFirm(t.app, t.db, 'Numbers LLP');
    const fx = await makeBusiness(t.db, { transactions: 0, name: 'Asker Inc' });
    const clientAdmin = await signIn(t.app, fx.email('admin'));
    const created = await request<{ id: string }>(t.app, 'POST', B, { token: clientAdmin, body: { firm_admin_email: firm.adminEmail, rights: ['READ', 'CLOSE_BOOKS'] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ direction: 'BUSINESS_TO_FIRM', status: 'PENDING', business_id: fx.businessId });
    const accepted = await request(t.app, 'PUT', `/v1/auth/external-firm/business-proposals/${created.body.id}/accept`, { token: firm.adminToken });
    expect(accepted.body).toMatchObject({ status: 'ACCEPTED' });
    const firms = await request<{ data: unknown[] }>(t.app, 'GET', '/v1/auth/businesses/external-firms', { token: clientAdmin });
    expect(firms.body.data).toEqual([expect.objectContaining({ firm_name: 'Numbers LLP', status: 'ACTIVE', rights: ['READ', 'CLOSE_BOOKS'] })]);
    const unknown = await request(t.app, 'POST', B, { token: clientAdmin, body: { firm_admin_email: 'nobody@nowhere.test', rights: ['READ'] } });
    expect(refusal(unknown)).toEqual([404, 'REQUEST_7004']);
  });

  it('firm isolation: another firm cannot validate, revoke or accept this firm\'s proposals (404, unchanged)', async () => {
    const { proposalId } = await proposed();
    const f2 = await makeFirm(t.app, t.db);
    for (const path of [`${P}/${proposalId}/validate`, `${P}/${proposalId}/revoke`, `/v1/auth/external-firm/business-proposals/${proposalId}/accept`]) {
      expect(refusal(await request(t.app, 'PUT', path, { token: f2.adminToken }))).toEqual([404, 'REQUEST_7004']);
    }
    const [row] = await t.db.query<{ status: string }>('SELECT status FROM external_firm_proposals WHERE id = $1', [proposalId]);
    expect(row?.status).toBe('PENDING');
  });

  it('the client list pages by name', async () => {
    const firm = await makeFirm(t.app, t.db);
    const names = ['Bravo Ltd', 'Alpha Inc', 'Charlie Co'];
    for (const name of names) {
      const fx = await makeBusiness(t.db, { transactions: 0, name });
      const p = await request<{ id: string }>(t.app, 'POST', P, { token: firm.adminToken, body: { client_email: fx.email('admin'), client_name: name, rights: ['READ'], firm_user_ids: [] } });
      await request(t.app, 'PUT', `${P}/${p.body.id}/validate`, { token: firm.adminToken });
      const accepted = await request(t.app, 'PUT', `${B}/${p.body.id}/accept`, { token: await signIn(t.app, fx.email('admin')), body: {} });
      expect(accepted.status).toBe(200);
    }
    const seen: string[] = [];
    let start: string | null = null;
    do {
      const q: string = start ? `?page_size=2&start=${start}` : '?page_size=2';
      const page: { body: { data: { business_name: string }[]; page: { next: string | null } } } = await request(t.app, 'GET', `/v1/auth/external-firm/clients${q}`, { token: firm.adminToken });
      seen.push(...page.body.data.map((c) => c.business_name));
      start = page.body.page.next;
    } while (start);
    expect(seen).toEqual(['Alpha Inc', 'Bravo Ltd', 'Charlie Co']);
    expect(refusal(await request(t.app, 'GET', '/v1/auth/external-firm/clients?start=bogus', { token: firm.adminToken }))).toEqual([422, 'REQUEST_7001']);
  });
});
