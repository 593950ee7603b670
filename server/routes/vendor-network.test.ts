import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, FIXTURE_PASSWORD, makeBusiness, makeVendor, refusal, request, signIn } from '../test-fixtures.ts';
import { ACH, ACH2, acceptNew, ADDRESS, invite, mailedToken, portalToken } from './vendor-network-test-kit.ts';

/**
 * Issue 31, the vendor network through the API: the payer's invite (BILL_PAY_7017), joining by the
 * mailed link (public) and signed in (a second payer links the same network vendor), the portal's
 * details with D9 (fill an empty field at once; a changed one is an edit proposal the payer
 * accepts with the sensitive scope), TIN and address rules, and the surface gate both ways.
 */
const NEW = '/v1/auth/vendors/new';
const PORTAL = '/v1/auth/vendor-network';

describe.each(await testDatabases())('vendor network on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });
  let a: Fixture;
  let b: Fixture;
  let admin: string;
  let employee: string;
  let bAdmin: string;
  let aStepped: string;
  const vendorEmail = `billing-${randomUUID().slice(0, 8)}@acme.test`;
  let vendorA: string;
  let nv: { token: string; networkVendorId: string; identityId: string };
  let sensitive: string;

  const vendorCount = async (businessId: string) =>
    Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM vendors WHERE business_id = $1', [businessId]))[0]!.n);

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    admin = await signIn(t.app, a.email('admin'));
    employee = await signIn(t.app, a.email('employee'));
    bAdmin = await signIn(t.app, b.email('admin'));
    const res = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token: admin, body: { password: FIXTURE_PASSWORD } });
    aStepped = res.body.id_token;
  });

  it('creates a vendor with a network invite: mailed with a link token stored hashed', async () => {
    const res = await request(t.app, 'POST', NEW, { token: admin, body: { name: 'Acme LLC', network_invite_email: vendorEmail } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.network_invite).toMatchObject({ invited_email: vendorEmail, status: 'INVITED' });
    vendorA = res.body.vendor.id;
    expect(res.body.vendor.network).toEqual({ status: 'INVITED', verified_at: null, verified_fields: [], pending_edit_proposal_id: null });
    const token = await mailedToken(t.db, vendorEmail);
    const [link] = await t.db.query<{ invite_token_hash: string }>('SELECT invite_token_hash FROM network_vendor_links WHERE vendor_id = $1', [vendorA]);
    expect(link!.invite_token_hash).not.toContain(token);
    const plain = await request(t.app, 'POST', NEW, { token: admin, body: { name: 'No Invite Co' } });
    expect([plain.status, plain.body.network_invite]).toEqual([201, null]);
  });

  it.each([
    ['not-an-email', 'not an email address'],
    ['noreply@acme.test', 'no-reply'],
    ['member', 'member of your business'],
  ])('refuses the network email %s with BILL_PAY_7017, writing nothing', async (email, reason) => {
    const before = await vendorCount(a.businessId);
    const asked = email === 'member' ? a.email('manager') : email;
    const res = await request(t.app, 'POST', NEW, { token: admin, body: { name: `Refused ${randomUUID()}`, network_invite_email: asked } });
    expect(refusal(res)).toEqual([422, 'BILL_PAY_7017']);
    expect(res.body.error_v2.errors.email).toContain(reason);
    expect(await vendorCount(a.businessId)).toBe(before);
    const vendorId = await makeVendor(t.app, admin, `Invitee ${randomUUID()}`);
    const again = await request(t.app, 'POST', `/v1/auth/vendors/${vendorId}/network-invite`, { token: admin, body: { email: asked } });
    expect(refusal(again)).toEqual([422, 'BILL_PAY_7017']);
    expect(await t.db.query('SELECT 1 FROM network_vendor_links WHERE vendor_id = $1', [vendorId])).toEqual([]);
  });

  it('refuses an employee (403 before any lookup) and another business\'s vendor (404)', async () => {
    const res = await request(t.app, 'POST', `/v1/auth/vendors/${vendorA}/network-invite`, { token: employee, body: { email: 'x@vendor.test' } });
    expect(refusal(res)).toEqual([403, 'FORBIDDEN_7003']);
    const other = await request(t.app, 'POST', `/v1/auth/vendors/${vendorA}/network-invite`, { token: bAdmin, body: { email: 'x@vendor.test' } });
    expect(refusal(other)).toEqual([404, 'REQUEST_7004']);
  });

  it('looks the invite up and joins by the mailed link: identity, network vendor, admin, hidden ACTIVE spend user', async () => {
    const token = await mailedToken(t.db, vendorEmail);
    const look = await request(t.app, 'GET', `/v1/public/vendor-network/invites/${token}`);
    expect(look.status, look.text).toBe(200);
    expect(look.body).toMatchObject({ vendor_name: 'Acme LLC', status: 'INVITED', existing_account: false });
    expect(look.body.masked_email).toBe(`b***@acme.test`);
    nv = await acceptNew(t.app, t.db, token);
    const [user] = await t.db.query<{ role: string; status: string }>(
      'SELECT su.role, su.status FROM network_vendor_links l JOIN spend_users su ON su.id = l.spend_user_id WHERE l.vendor_id = $1', [vendorA],
    );
    expect(user).toEqual({ role: 'VENDOR_NETWORK_ADMIN', status: 'ACTIVE' });
    const again = await request(t.app, 'POST', `/v1/public/vendor-network/invites/${token}/accept`, {
      body: { password: 'vendor-password-1', first_name: 'V', last_name: 'W' },
    });
    expect(refusal(again)).toEqual([422, 'REQUEST_7001']);
    sensitive = await portalToken(t.app, t.db, nv.identityId, nv.networkVendorId, ['sensitive', 'email-otp']);
  });

  it('keeps each surface to its own calls (SURFACE_7001 both ways)', async () => {
    expect(refusal(await request(t.app, 'GET', `${PORTAL}/profile`, { token: admin }))).toEqual([403, 'SURFACE_7001']);
    expect(refusal(await request(t.app, 'GET', '/v1/auth/vendors', { token: nv.token }))).toEqual([403, 'SURFACE_7001']);
    const profile = await request(t.app, 'GET', `${PORTAL}/profile`, { token: nv.token });
    expect(profile.status, profile.text).toBe(200);
    expect(profile.body).toMatchObject({ id: nv.networkVendorId, legal_name: 'Acme LLC', bank: null, tin: null });
  });

  it('ACH details need the sensitive scope, then fill the payer\'s empty bank account at once (D9)', async () => {
    expect(refusal(await request(t.app, 'POST', `${PORTAL}/ach-details`, { token: nv.token, body: ACH }))).toEqual([403, 'AUTH_7016']);
    const before = (await request(t.app, 'GET', `/v1/auth/vendors/${vendorA}`, { token: admin })).body;
    expect(before.network).toMatchObject({ status: 'ACTIVE', verified_fields: [] });
    const res = await request(t.app, 'POST', `${PORTAL}/ach-details`, { token: sensitive, body: ACH });
    expect(res.status, res.text).toBe(200);
    expect(res.body.payers).toEqual([{ vendor_id: vendorA, business_name: expect.any(String), outcome: 'filled' }]);
    expect(res.body.profile.bank).toMatchObject({ routing_last_four: '0021', account_last_four: '6789', type: 'CHECKING' });
    expect(res.text).not.toContain(ACH.account_number);
    const [row] = await t.db.query<{ bank_account_cipher: string }>('SELECT bank_account_cipher FROM network_vendors WHERE id = $1', [nv.networkVendorId]);
    expect(row!.bank_account_cipher).not.toContain(ACH.account_number);
    const revealed = await request(t.app, 'GET', `/v1/auth/vendors/${vendorA}/bank-account`, { token: aStepped });
    expect(revealed.body).toMatchObject({ routing_number: ACH.routing_number, account_number: ACH.account_number });
    const audit = await t.db.query<{ surface: string; surface_id: string; status: number; row: string }>(
      `SELECT surface, surface_id::text, status, to_jsonb(a)::text AS row FROM audit_log a WHERE call_id = 'vendorNetwork.achDetails' AND surface_id = $1 ORDER BY id`,
      [nv.networkVendorId],
    );
    expect(audit.map((r) => [r.surface, r.surface_id, r.status])).toEqual([['VENDOR_PORTAL', nv.networkVendorId, 200]]);
    for (const r of audit) expect(r.row).not.toContain(ACH.account_number);
    const after = (await request(t.app, 'GET', `/v1/auth/vendors/${vendorA}`, { token: admin })).body;
    expect(after.network).toMatchObject({ status: 'ACTIVE', verified_fields: ['bank'], verified_at: expect.any(String) });
    expect(after.bank_account).toMatchObject({ last_four: '6789' });
    expect(after.change_seq).toBeGreaterThan(before.change_seq);
    const payers = await request(t.app, 'GET', `${PORTAL}/payers`, { token: nv.token });
    expect(payers.body.data).toEqual([expect.objectContaining({ vendor_id: vendorA, status: 'ACTIVE', verified_fields: ['bank'] })]);
  });

  it('a second payer\'s invite, accepted signed in, links the same network vendor; another email is AUTH_7018', async () => {
    const vendorB = await makeVendor(t.app, bAdmin, 'Acme (B)');
    const token = await invite(t.app, t.db, bAdmin, vendorB, vendorEmail);
    const wrong = await request(t.app, 'POST', `${PORTAL}/invites/${token}/accept`, { token: employee, body: {} });
    expect(refusal(wrong)).toEqual([422, 'AUTH_7018']);
    const fresh = await portalToken(t.app, t.db, nv.identityId, nv.networkVendorId, []);
    const res = await request(t.app, 'POST', `${PORTAL}/invites/${token}/accept`, { token: fresh, body: {} });
    expect(res.status, res.text).toBe(200);
    const [link] = await t.db.query<{ network_vendor_id: string; status: string }>(
      'SELECT network_vendor_id::text, status FROM network_vendor_links WHERE vendor_id = $1', [vendorB],
    );
    expect(link).toEqual({ network_vendor_id: nv.networkVendorId, status: 'ACTIVE' });
    const bank = await request(t.app, 'GET', `/v1/auth/vendors/${vendorB}`, { token: bAdmin });
    expect(bank.body.bank_account).toBeNull();
  });

  it('a changed bank account is an edit proposal the payer accepts (sensitive) once; an empty one is filled', async () => {
    const res = await request(t.app, 'POST', `${PORTAL}/ach-details`, { token: sensitive, body: ACH2 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.payers.map((p: { outcome: string }) => p.outcome).sort()).toEqual(['filled', 'proposed']);
    const list = await request(t.app, 'GET', '/v1/auth/vendors/edit-proposals', { token: admin });
    expect(list.body.data).toHaveLength(1);
    const proposal = list.body.data[0];
    expect(proposal).toMatchObject({ vendor_id: vendorA, status: 'PENDING', fields: { bank: { account_last_four: '4444', type: 'SAVINGS' } } });
    expect((await request(t.app, 'GET', '/v1/auth/vendors/edit-proposals', { token: bAdmin })).body.data).toEqual([]);
    const waiting = (await request(t.app, 'GET', `/v1/auth/vendors/${vendorA}`, { token: admin })).body.network;
    expect(waiting).toMatchObject({ pending_edit_proposal_id: proposal.id, verified_fields: [] });
    const path = `/v1/auth/vendors/edit-proposals/${proposal.id}/accept`;
    expect(refusal(await request(t.app, 'PUT', path, { token: admin }))).toEqual([403, 'AUTH_7016']);
    expect(refusal(await request(t.app, 'PUT', path, { token: (await signIn(t.app, b.email('admin'))) }))).toEqual([403, 'AUTH_7016']);
    const accepted = await request(t.app, 'PUT', path, { token: aStepped });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.status).toBe('ACCEPTED');
    const revealed = await request(t.app, 'GET', `/v1/auth/vendors/${vendorA}/bank-account`, { token: aStepped });
    expect(revealed.body).toMatchObject({ routing_number: ACH2.routing_number, account_number: ACH2.account_number, account_type: 'SAVINGS' });
    expect((await request(t.app, 'GET', `/v1/auth/vendors/${vendorA}`, { token: admin })).body.network)
      .toMatchObject({ pending_edit_proposal_id: null, verified_fields: ['bank'] });
    expect(refusal(await request(t.app, 'PUT', path, { token: aStepped }))).toEqual([409, 'VENDOR_NETWORK_7001']);
    const withdraw = await request(t.app, 'DELETE', `${PORTAL}/edit-proposals/${proposal.id}`, { token: nv.token });
    expect(refusal(withdraw)).toEqual([409, 'VENDOR_NETWORK_7001']);
  });

  it('the vendor withdraws a pending proposal; the payer rejects and hides another', async () => {
    await request(t.app, 'POST', `${PORTAL}/ach-details`, { token: sensitive, body: ACH });
    const [p1] = (await request(t.app, 'GET', `${PORTAL}/edit-proposals`, { token: nv.token })).body.data;
    expect(p1.status).toBe('PENDING');
    const w = await request(t.app, 'DELETE', `${PORTAL}/edit-proposals/${p1.id}`, { token: nv.token });
    expect([w.status, w.body.status]).toEqual([200, 'WITHDRAWN']);
    await request(t.app, 'POST', `${PORTAL}/ach-details`, { token: sensitive, body: ACH2 });
    await request(t.app, 'POST', `${PORTAL}/ach-details`, { token: sensitive, body: ACH });
    const pending = (await request(t.app, 'GET', '/v1/auth/vendors/edit-proposals?status=PENDING', { token: admin })).body.data;
    expect(pending).toHaveLength(1);
    const del = await request(t.app, 'DELETE', `/v1/auth/vendors/edit-proposals/${pending[0].id}`, { token: admin });
    expect([del.status, del.body.status]).toEqual([200, 'REJECTED']);
    const listed = (await request(t.app, 'GET', '/v1/auth/vendors/edit-proposals', { token: admin })).body.data;
    expect(listed.map((p: { id: string }) => p.id)).not.toContain(pending[0].id);
  });

  it('TIN: 422 naming tin for a bad EIN or SSN, nothing written; a valid EIN fills both payers', async () => {
    for (const body of [{ tin_type: 'EIN', tin: '00-1234567' }, { tin_type: 'SSN', tin: '666-12-3456' }, { tin_type: 'EIN', tin: '12345' }]) {
      const res = await request(t.app, 'POST', `${PORTAL}/tin`, { token: sensitive, body });
      expect(refusal(res)).toEqual([422, 'REQUEST_7001']);
      expect(Object.keys(res.body.error_v2.errors)).toEqual(['tin']);
    }
    expect((await request(t.app, 'GET', `${PORTAL}/profile`, { token: nv.token })).body.tin).toBeNull();
    const ok = await request(t.app, 'POST', `${PORTAL}/tin`, { token: sensitive, body: { tin_type: 'EIN', tin: '12-3456789' } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.profile.tin).toMatchObject({ type: 'EIN', last_four: '6789' });
    expect(ok.body.payers.map((p: { outcome: string }) => p.outcome)).toEqual(['filled', 'filled']);
    expect(ok.text).not.toContain('123456789');
  });

  it('address: PAYEE_1007 for a US address without a state; a good one fills the payer', async () => {
    const bad = await request(t.app, 'PUT', `${PORTAL}/address`, { token: sensitive, body: { address: { ...ADDRESS, state: null } } });
    expect(refusal(bad)).toEqual([422, 'PAYEE_1007']);
    expect(refusal(await request(t.app, 'PUT', `${PORTAL}/address`, { token: nv.token, body: { address: ADDRESS } }))).toEqual([403, 'AUTH_7016']);
    const res = await request(t.app, 'PUT', `${PORTAL}/address`, { token: sensitive, body: { address: ADDRESS } });
    expect(res.status, res.text).toBe(200);
    const vendor = await request(t.app, 'GET', `/v1/auth/vendors/${vendorA}`, { token: admin });
    expect(vendor.body.address).toMatchObject({ line1: '1 Market St', state: 'CA' });
  });

  it('wire details are masked and removable; a second delete is 404', async () => {
    const res = await request(t.app, 'POST', `${PORTAL}/bank-account`, {
      token: sensitive, body: { bank_name: 'First Bank', routing_number: ACH.routing_number, account_number: '9876543210' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.wire).toEqual({ bank_name: 'First Bank', routing_last_four: '0021', account_last_four: '3210' });
    expect(res.text).not.toContain('9876543210');
    expect((await request(t.app, 'DELETE', `${PORTAL}/bank-account`, { token: sensitive })).body.wire).toBeNull();
    expect(refusal(await request(t.app, 'DELETE', `${PORTAL}/bank-account`, { token: sensitive }))).toEqual([404, 'REQUEST_7004']);
  });
  it('a new legal name is a proposal to every payer; accepting renames the vendor, a taken name is 422 and stays pending', async () => {
    const res = await request(t.app, 'PATCH', `${PORTAL}/profile`, { token: nv.token, body: { legal_name: 'Acme Corporation' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.profile.legal_name).toBe('Acme Corporation');
    expect(res.body.payers.map((p: { outcome: string }) => p.outcome)).toEqual(['proposed', 'proposed']);
    const [mine] = (await request(t.app, 'GET', '/v1/auth/vendors/edit-proposals?status=PENDING', { token: admin })).body.data;
    expect(mine.fields).toEqual({ legal_name: 'Acme Corporation' });
    const ok = await request(t.app, 'PUT', `/v1/auth/vendors/edit-proposals/${mine.id}/accept`, { token: aStepped });
    expect(ok.status, ok.text).toBe(200);
    expect((await request(t.app, 'GET', `/v1/auth/vendors/${vendorA}`, { token: admin })).body.name).toBe('Acme Corporation');
    await makeVendor(t.app, bAdmin, 'ACME corporation');
    const step = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token: bAdmin, body: { password: FIXTURE_PASSWORD } });
    const [theirs] = (await request(t.app, 'GET', '/v1/auth/vendors/edit-proposals?status=PENDING', { token: bAdmin })).body.data;
    const clash = await request(t.app, 'PUT', `/v1/auth/vendors/edit-proposals/${theirs.id}/accept`, { token: step.body.id_token });
    expect(refusal(clash)).toEqual([422, 'REQUEST_7001']);
    expect(clash.body.error_v2.errors.legal_name).toContain('already exists');
    expect(await t.db.query('SELECT status FROM vendor_edit_proposals WHERE id = $1', [theirs.id])).toEqual([{ status: 'PENDING' }]);
  });
});
