import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../schema/api/calls.ts';
import { tokenClaimsSchema } from '../../schema/api/scopes.ts';
import { mintReminderLinkToken, WIZARD_TOKEN_CALLS } from '../domain/expense-policies/wizard-token.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn, type Fixture, type TestResponse } from '../test-fixtures.ts';
import { insertClaim, insertTx, policyBody } from './expense-policies-test-kit.ts';

/**
 * §6 missing-items tokens (issue 29): `missing-items` minted on the caller's session fixes only
 * the holder's own items; `missing-items-restricted` (the reminder link) lists and adds receipts
 * only; every other call of the catalogue answers AUTH_7016 to both (walked), someone else's
 * item 404 like an unknown one. The reminder's link, notification and mail are
 * missing-items-reminders.test.ts.
 */
const MINT = '/v1/auth/users/current/missing-items/token';
const MISSING = '/v1/auth/users/current/missing-items';
const DAY = new Date().toISOString().slice(0, 10);

const jpeg = () => Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, ...crypto.getRandomValues(new Uint8Array(60))]);

/** The catalogue's path with each parameter a fresh uuid (the scope gate answers before validation). */
const filled = (path: string) => path.replace(/:[a-z_]+/g, () => randomUUID());

describe.each(await testDatabases())('missing-items tokens (§6) on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });
  let f: Fixture;
  const full: Record<string, string> = {};
  let tx: { employee: string; teammate: string; admin: string };
  let claim: { employee: string; teammate: string };

  beforeAll(async () => {
    f = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['admin', 'manager', 'employee', 'teammate'] as const) full[role] = await signIn(t.app, f.email(role));
    expect((await request(t.app, 'POST', '/v1/auth/expense-policies', { token: full.admin, body: policyBody() })).status).toBe(201);
    const at = `${DAY}T09:00:00Z`;
    tx = {
      employee: await insertTx(t.db, f, 'employee', { amount: 12000, at }),
      teammate: await insertTx(t.db, f, 'teammate', { amount: 12000, at }),
      admin: await insertTx(t.db, f, 'admin', { amount: 12000, at }),
    };
    claim = { employee: await insertClaim(t.db, f, 'employee', { amount: 9000, date: DAY }), teammate: await insertClaim(t.db, f, 'teammate', { amount: 9000, date: DAY }) };
  });

  const mint = async (token: string) => {
    const res = await request(t.app, 'POST', MINT, { token, body: {} });
    expect(res.status, res.text).toBe(200);
    return res.body as { id_token: string; expires_at: string };
  };
  const upload = async (token: string): Promise<TestResponse> => {
    const res = await t.app.request('/v1/auth/receipts', { method: 'POST', headers: { 'RAMP-ID-TOKEN': token, 'content-type': 'image/jpeg' }, body: jpeg() });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) as unknown, headers: res.headers };
  };
  const restrictedToken = async (role: 'employee' | 'teammate') => {
    // The reminder link's token, as sendReminders mints it (its own session).
    const [u] = await t.db.query<{ identity_id: string }>('SELECT identity_id::text FROM spend_users WHERE id = $1', [f.users[role]]);
    return mintReminderLinkToken(t.app.deps, t.db, { identity_id: u!.identity_id, user_id: f.users[role], business_id: f.businessId });
  };

  it('mints a token with only missing-items, on the same session, never outliving its parent', async () => {
    const { id_token, expires_at } = await mint(full.employee!);
    const parent = tokenClaimsSchema.parse(decodeJwt(full.employee!));
    const claims = tokenClaimsSchema.strict().parse(decodeJwt(id_token));
    expect(claims).toMatchObject({ sub: parent.sub, ramp_user_uuid: f.users.employee, ramp_access_scopes: ['missing-items'], ramp_session_id: parent.ramp_session_id });
    expect(claims.exp).toBeLessThanOrEqual(parent.exp);
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(12 * 3600);
    expect(new Date(expires_at).getTime()).toBe(claims.exp * 1000);
    // Not from itself, nor with a body.
    expect(refusal(await request(t.app, 'POST', MINT, { token: id_token, body: {} }))).toEqual([403, 'AUTH_7016']);
    expect((await request(t.app, 'POST', MINT, { token: full.employee, body: { scopes: ['default'] } })).status).toBe(422);
  });

  it('fixes the holder\'s own items: list, upload and attach a receipt, memo and coding on a transaction and a claim', async () => {
    const { id_token: token } = await mint(full.employee!);
    const list = await request(t.app, 'GET', MISSING, { token });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((i: { object_id: string }) => i.object_id).sort()).toEqual([tx.employee, claim.employee].sort());
    const receipt = await upload(token);
    expect(receipt.status, receipt.text).toBe(201);
    const receiptId = (receipt.body as { id: string }).id;
    const attached = await request(t.app, 'POST', `/v1/auth/transactions/${tx.employee}/receipts`, { token, body: { receipt_id: receiptId } });
    expect(attached.status, attached.text).toBe(200);
    expect(attached.body.receipt_ids).toEqual([receiptId]);
    const coded = await request(t.app, 'PATCH', `/v1/auth/transactions/${tx.employee}`, { token, body: { memo: 'Team lunch', gl_account_id: null } });
    expect(coded.status, coded.text).toBe(200);
    expect(coded.body.memo).toBe('Team lunch');
    const claimed = await request(t.app, 'PATCH', `/v1/auth/reimbursements/${claim.employee}`, { token, body: { memo: 'Printer paper', receipt_ids: [receiptId] } });
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.body).toMatchObject({ memo: 'Printer paper', receipt_ids: [receiptId] });
    expect((await request(t.app, 'GET', MISSING, { token })).body.total_count).toBe(0);
  });

  it('answers 404 for anyone else\'s item, as for an unknown id, even where the holder\'s role could write it', async () => {
    // The manager may code the employee's and teammate's charges with a full token; not through the wizard's.
    const { id_token: token } = await mint(full.manager!);
    const receiptId = ((await upload(token)).body as { id: string }).id;
    for (const id of [tx.employee, tx.teammate, randomUUID()]) {
      expect(refusal(await request(t.app, 'PATCH', `/v1/auth/transactions/${id}`, { token, body: { memo: 'x' } })), id).toEqual([404, 'REQUEST_7004']);
      expect(refusal(await request(t.app, 'POST', `/v1/auth/transactions/${id}/receipts`, { token, body: { receipt_id: receiptId } }))).toEqual([404, 'REQUEST_7004']);
    }
    for (const id of [claim.employee, claim.teammate, randomUUID()]) {
      expect(refusal(await request(t.app, 'PATCH', `/v1/auth/reimbursements/${id}`, { token, body: { memo: 'x' } })), id).toEqual([404, 'REQUEST_7004']);
    }
    const admin = (await mint(full.admin!)).id_token;
    expect(refusal(await request(t.app, 'PATCH', `/v1/auth/transactions/${tx.teammate}`, { token: admin, body: { memo: 'x' } }))).toEqual([404, 'REQUEST_7004']);
    const [row] = await t.db.query<{ memo: string | null }>('SELECT memo FROM transactions WHERE id = $1', [tx.teammate]);
    expect(row!.memo).toBeNull();
  });

  it('sets only the wizard\'s fields through missing-items (AUTH_7016 for anything else)', async () => {
    const { id_token: token } = await mint(full.teammate!);
    expect(refusal(await request(t.app, 'PATCH', `/v1/auth/transactions/${tx.teammate}`, { token, body: { attendees: [] } }))).toEqual([403, 'AUTH_7016']);
    expect(refusal(await request(t.app, 'PATCH', `/v1/auth/reimbursements/${claim.teammate}`, { token, body: { amount: 1 } }))).toEqual([403, 'AUTH_7016']);
  });

  it('restricted (the reminder link): lists and adds receipts only; no memo, no coding', async () => {
    const token = await restrictedToken('teammate');
    const claims = tokenClaimsSchema.parse(decodeJwt(token));
    expect(claims.ramp_access_scopes).toEqual(['missing-items-restricted']);
    expect(claims.exp - claims.iat).toBe(7 * 24 * 3600);
    expect((await request(t.app, 'GET', MISSING, { token })).status).toBe(200);
    const receiptId = ((await upload(token)).body as { id: string }).id;
    expect((await request(t.app, 'POST', `/v1/auth/transactions/${tx.teammate}/receipts`, { token, body: { receipt_id: receiptId } })).status).toBe(200);
    expect(refusal(await request(t.app, 'PATCH', `/v1/auth/transactions/${tx.teammate}`, { token, body: { memo: 'x' } }))).toEqual([403, 'AUTH_7016']);
    const memo = await request(t.app, 'PATCH', `/v1/auth/reimbursements/${claim.teammate}`, { token, body: { memo: 'x', receipt_ids: [receiptId] } });
    expect(refusal(memo)).toEqual([403, 'AUTH_7016']);
    expect(memo.body.error_v2.message).toMatch(/Sign in to add memos and coding/);
    const receipts = await request(t.app, 'PATCH', `/v1/auth/reimbursements/${claim.teammate}`, { token, body: { receipt_ids: [receiptId] } });
    expect(receipts.status, receipts.text).toBe(200);
    // The link adds receipts; it never removes one the claim holds.
    const removing = await request(t.app, 'PATCH', `/v1/auth/reimbursements/${claim.teammate}`, { token, body: { receipt_ids: [] } });
    expect(refusal(removing)).toEqual([403, 'AUTH_7016']);
    expect(removing.body.error_v2.message).toMatch(/only add receipts/);
    expect(refusal(await request(t.app, 'POST', `/v1/auth/transactions/${tx.employee}/receipts`, { token, body: { receipt_id: receiptId } }))).toEqual([404, 'REQUEST_7004']);
  });

  it('walks the catalogue: every other call answers 403 AUTH_7016 to both tokens', async () => {
    const tokens = { 'missing-items': (await mint(full.employee!)).id_token, 'missing-items-restricted': await restrictedToken('employee') };
    const allowed = new Set(WIZARD_TOKEN_CALLS);
    // Other surfaces' calls refuse a business token before its scopes are read (SURFACE_7001, the surface matrix's).
    const gated = CATALOGUE.filter((c) => c.auth.kind !== 'public' && !allowed.has(c.id) && c.surfaces.includes('BUSINESS'));
    expect(gated.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const [name, token] of Object.entries(tokens)) {
      for (const call of gated) {
        const res = await request(t.app, call.method, filled(call.path), { token, ...(call.method !== 'GET' && { body: {} }) });
        const code = (res.body as { error_v2?: { error_code?: string } })?.error_v2?.error_code;
        if (res.status !== 403 || code !== 'AUTH_7016') wrong.push(`${name} ${call.id} ${call.method} ${call.path}: ${res.status} ${code}`);
      }
    }
    expect(wrong).toEqual([]);
    // The calls admitting the scopes are exactly the ones with a rule (a new one must get its rule first).
    const admitting = CATALOGUE.filter((c) => c.auth.kind === 'scopes' && c.auth.scopes.some((s) => s === 'missing-items' || s === 'missing-items-restricted'));
    expect(admitting.map((c) => c.id).sort()).toEqual([...WIZARD_TOKEN_CALLS].sort());
  });
});
