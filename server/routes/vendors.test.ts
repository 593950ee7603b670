import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncChanges } from '../../schema/api/calls.ts';
import { vendorSchema, type Vendor } from '../../schema/entities/vendor.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, FIXTURE_PASSWORD, type FixtureRole, makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';

/**
 * Vendors (issue 11) through the API: create and edit with the US-state rule (PAYEE_1007),
 * contacts, the bank account masked for everyone and revealed only with `sensitive`, search,
 * payee merges, bulk uploads that report every bad row and create nothing, and §6 refusals.
 * In the fixture `teammate` is made an AP clerk (AP_ACCESS).
 */
const VENDORS = '/v1/auth/vendors';
const ADDRESS = { line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const BANK = { routing_number: '021000021', account_number: '000123456789', account_type: 'CHECKING' };

describe.each(await testDatabases())('vendors on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let bOwner: string;
  let stepped: string;

  const create = async (body: Record<string, unknown>, role: FixtureRole = 'admin') => {
    const res = await request(t.app, 'POST', VENDORS, { token: tokens[role], body });
    expect(res.status, res.text).toBe(201);
    return vendorSchema.parse(res.body);
  };
  const vendorCount = async () =>
    Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM vendors WHERE business_id = $1 AND NOT deleted', [a.businessId]))[0]!.n);

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    const b = await makeBusiness(t.db, { transactions: 0 });
    await t.db.query(`UPDATE spend_users SET user_permissions = '["AP_ACCESS"]' WHERE id = $1`, [a.users.teammate]);
    for (const role of ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'teammate', 'auditor'] as const) {
      tokens[role] = await signIn(t.app, a.email(role));
    }
    bOwner = await signIn(t.app, b.email('owner'));
    const res = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token: tokens.admin, body: { password: FIXTURE_PASSWORD } });
    expect(res.status, res.text).toBe(200);
    stepped = res.body.id_token;
  });

  it('creates a vendor with its address and contacts, and edits it', async () => {
    const v = await create({
      name: 'Acme Supplies', email: 'ap@acme.test', address: ADDRESS,
      contacts: [{ name: 'Wile E.', email: 'wile@acme.test' }], default_gl_account_id: a.glAccounts.active[0],
    });
    expect(v).toMatchObject({
      name: 'Acme Supplies', status: 'ACTIVE', bank_account: null, address: { ...ADDRESS, line2: null },
      default_gl_account_id: a.glAccounts.active[0], default_department_id: null,
    });
    expect(v.contacts).toEqual([{ id: expect.any(String), name: 'Wile E.', email: 'wile@acme.test', phone: null }]);
    const patched = await request(t.app, 'PATCH', `${VENDORS}/${v.id}`, { token: tokens.bookkeeper, body: { phone: '+1 415 555 0100', status: 'ARCHIVED' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ phone: '+1 415 555 0100', status: 'ARCHIVED', name: 'Acme Supplies' });
    expect(patched.body.change_seq).toBeGreaterThan(v.change_seq);
    const got = await request(t.app, 'GET', `${VENDORS}/${v.id}`, { token: tokens.employee });
    expect(got.body).toEqual(patched.body);
  });

  it.each([
    ['a US address without a state', { ...ADDRESS, state: null }, 'PAYEE_1007'],
    ['a US address with an empty state', { ...ADDRESS, state: '' }, 'REQUEST_7001'],
    ['a US state that is no USPS code', { ...ADDRESS, state: 'California' }, 'REQUEST_7001'],
    ['a lower-case country', { ...ADDRESS, country: 'us' }, 'REQUEST_7001'],
  ])('refuses %s, on create and on patch', async (_name, address, code) => {
    const before = await vendorCount();
    const res = await request(t.app, 'POST', VENDORS, { token: tokens.admin, body: { name: `State ${randomUUID()}`, address } });
    expect(refusal(res), res.text).toEqual([422, code]);
    expect(await vendorCount()).toBe(before);
    const v = await create({ name: `Patch ${randomUUID()}`, address: ADDRESS });
    const patch = await request(t.app, 'PATCH', `${VENDORS}/${v.id}`, { token: tokens.admin, body: { address } });
    expect(refusal(patch), patch.text).toEqual([422, code]);
  });

  it('takes a state abroad as free text, and no address at all', async () => {
    await create({ name: 'Maple Ltd', address: { line1: '1 Bay St', city: 'Toronto', state: 'Ontario', postal_code: 'M5J 2N8', country: 'CA' } });
    await create({ name: 'No Address Co' });
  });

  it.each([
    ['no name', {}, 'name'],
    ['an unknown field', { name: 'X Co', iban: 'DE00' }, 'iban'],
    ['a bad email', { name: 'X Co', email: 'nope' }, 'email'],
    ['another business\'s GL account', { name: 'X Co', default_gl_account_id: randomUUID() }, 'default_gl_account_id'],
  ])('answers REQUEST_7001 for %s', async (_name, body, field) => {
    const res = await request(t.app, 'POST', VENDORS, { token: tokens.admin, body });
    expect(refusal(res), res.text).toEqual([422, 'REQUEST_7001']);
    expect(Object.keys(res.body.error_v2.errors ?? {})).toContain(field);
  });

  it('refuses a second live vendor of the same name (trimmed, any case)', async () => {
    await create({ name: 'Globex' });
    const res = await request(t.app, 'POST', VENDORS, { token: tokens.admin, body: { name: '  GLOBEX ' } });
    expect(refusal(res)).toEqual([422, 'REQUEST_7001']);
    expect(res.body.error_v2.message).toContain('already exists');
  });

  it('lets admins, bookkeepers and AP clerks manage vendors; employees, managers and auditors only read', async () => {
    for (const role of ['owner', 'bookkeeper', 'teammate'] as const) await create({ name: `By ${role} ${randomUUID()}` }, role);
    const v = await create({ name: `Read only ${randomUUID()}` });
    for (const role of ['employee', 'manager', 'auditor'] as const) {
      expect(refusal(await request(t.app, 'POST', VENDORS, { token: tokens[role], body: { name: 'Nope' } }))).toEqual([403, 'FORBIDDEN_7003']);
      expect(refusal(await request(t.app, 'PATCH', `${VENDORS}/${v.id}`, { token: tokens[role], body: { name: 'Nope' } }))).toEqual([403, 'FORBIDDEN_7003']);
      expect(refusal(await request(t.app, 'DELETE', `${VENDORS}/${v.id}`, { token: tokens[role] }))).toEqual([403, 'FORBIDDEN_7003']);
      expect((await request(t.app, 'GET', `${VENDORS}/${v.id}`, { token: tokens[role] })).status).toBe(200);
    }
  });

  it('adds, edits and deletes contacts (DELETE with a body, all or none)', async () => {
    const v = await create({ name: `Contacts ${randomUUID()}`, contacts: [{ name: 'First' }] });
    const added = await request(t.app, 'POST', `${VENDORS}/${v.id}/contacts`, { token: tokens.teammate, body: { name: 'Second', phone: '+1 212 555 0199' } });
    expect(added.status, added.text).toBe(201);
    const [first, second] = (added.body as Vendor).contacts;
    expect(second).toMatchObject({ name: 'Second', phone: '+1 212 555 0199' });
    const edited = await request(t.app, 'PATCH', `${VENDORS}/${v.id}/contacts/${first!.id}`, { token: tokens.admin, body: { email: 'first@v.test' } });
    expect(edited.body.contacts[0]).toMatchObject({ name: 'First', email: 'first@v.test' });
    const unknown = await request(t.app, 'DELETE', `${VENDORS}/${v.id}/contacts`, { token: tokens.admin, body: { contact_ids: [second!.id, randomUUID()] } });
    expect(refusal(unknown)).toEqual([404, 'REQUEST_7004']);
    const removed = await request(t.app, 'DELETE', `${VENDORS}/${v.id}/contacts`, { token: tokens.admin, body: { contact_ids: [second!.id] } });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.contacts.map((c: { id: string }) => c.id)).toEqual([first!.id]);
    const elsewhere = await request(t.app, 'PATCH', `${VENDORS}/${v.id}/contacts/${randomUUID()}`, { token: tokens.admin, body: { name: 'X' } });
    expect(refusal(elsewhere)).toEqual([404, 'REQUEST_7004']);
  });

  it('stores the bank account encrypted, shows it masked, and reveals it only with sensitive', async () => {
    const v = await create({ name: `Bank ${randomUUID()}` });
    const plain = await request(t.app, 'POST', `${VENDORS}/${v.id}/bank-account`, { token: tokens.admin, body: BANK });
    expect(refusal(plain)).toEqual([403, 'AUTH_7016']);
    const set = await request(t.app, 'POST', `${VENDORS}/${v.id}/bank-account`, { token: stepped, body: BANK });
    expect(set.status, set.text).toBe(200);
    expect(set.body.bank_account).toEqual({ last_four: '6789', routing_last_four: '0021', account_type: 'CHECKING', verified_at: expect.any(String) });
    expect(set.text).not.toContain('000123456789');
    const [row] = await t.db.query<Record<string, unknown>>('SELECT * FROM vendors WHERE id = $1', [v.id]);
    expect(JSON.stringify(row)).not.toContain('000123456789');
    expect(JSON.stringify(row)).not.toContain('021000021');

    expect(refusal(await request(t.app, 'GET', `${VENDORS}/${v.id}/bank-account`, { token: tokens.admin }))).toEqual([403, 'AUTH_7016']);
    const revealed = await request(t.app, 'GET', `${VENDORS}/${v.id}/bank-account`, { token: stepped });
    expect(revealed.body).toEqual(BANK);
    const listed = await request(t.app, 'GET', `${VENDORS}?q=bank`, { token: tokens.employee });
    expect(listed.text).not.toContain('000123456789');

    const cleared = await request(t.app, 'DELETE', `${VENDORS}/${v.id}/bank-account`, { token: tokens.admin });
    expect(cleared.body.bank_account).toBeNull();
    expect(refusal(await request(t.app, 'GET', `${VENDORS}/${v.id}/bank-account`, { token: stepped }))).toEqual([404, 'REQUEST_7004']);
  });

  it.each([
    ['a routing number failing the ABA checksum', { ...BANK, routing_number: '021000022' }, 'routing_number'],
    ['an 8-digit routing number', { ...BANK, routing_number: '02100002' }, 'routing_number'],
    ['a 3-digit account number', { ...BANK, account_number: '123' }, 'account_number'],
    ['an 18-digit account number', { ...BANK, account_number: '1'.repeat(18) }, 'account_number'],
    ['an unknown account type', { ...BANK, account_type: 'BROKERAGE' }, 'account_type'],
  ])('refuses %s', async (_name, body, field) => {
    const v = await create({ name: `Bad bank ${randomUUID()}` });
    const res = await request(t.app, 'POST', `${VENDORS}/${v.id}/bank-account`, { token: stepped, body });
    expect(refusal(res), res.text).toEqual([422, 'REQUEST_7001']);
    expect(Object.keys(res.body.error_v2.errors)).toEqual([field]);
  });

  it('searches by name and contact, pages, and hides archived vendors unless asked', async () => {
    const tag = randomUUID().slice(0, 6);
    for (const n of ['Alpha', 'Beta', 'Gamma']) await create({ name: `Search ${tag} ${n}` });
    await create({ name: `Quiet ${tag}`, contacts: [{ name: 'Pat', email: `pat-${tag}@x.test` }] });
    const first = await request(t.app, 'GET', `${VENDORS}?q=search%20${tag}&page_size=2&include_count=true`, { token: tokens.employee });
    expect(first.body.total_count).toBe(3);
    expect(first.body.data.map((v: Vendor) => v.name)).toEqual([`Search ${tag} Alpha`, `Search ${tag} Beta`]);
    const next = await request(t.app, 'GET', `${VENDORS}?q=search%20${tag}&page_size=2&start=${first.body.page.next}`, { token: tokens.employee });
    expect(next.body.data.map((v: Vendor) => v.name)).toEqual([`Search ${tag} Gamma`]);
    const byContact = await request(t.app, 'GET', `${VENDORS}?q=pat-${tag}`, { token: tokens.employee });
    expect(byContact.body.data.map((v: Vendor) => v.name)).toEqual([`Quiet ${tag}`]);
    const wild = await request(t.app, 'GET', `${VENDORS}?q=%25`, { token: tokens.employee });
    expect(wild.body.data).toEqual([]);
    const gamma = first.body.data[0] as Vendor;
    await request(t.app, 'PATCH', `${VENDORS}/${gamma.id}`, { token: tokens.admin, body: { status: 'ARCHIVED' } });
    const active = await request(t.app, 'GET', `${VENDORS}?q=search%20${tag}`, { token: tokens.employee });
    expect(active.body.data).toHaveLength(2);
    const all = await request(t.app, 'GET', `${VENDORS}?q=search%20${tag}&status=ALL`, { token: tokens.employee });
    expect(all.body.data).toHaveLength(3);
  });

  it('merges payees: contacts and missing details move to the survivor, the merged become tombstones', async () => {
    const survivor = await create({ name: `Survivor ${randomUUID()}`, contacts: [{ name: 'Keep' }] });
    const dup1 = await create({ name: `Dup one ${randomUUID()}`, email: 'dup@x.test', address: ADDRESS, contacts: [{ name: 'Moved' }] });
    const dup2 = await create({ name: `Dup two ${randomUUID()}`, email: 'other@x.test' });
    await request(t.app, 'POST', `${VENDORS}/${dup2.id}/bank-account`, { token: stepped, body: BANK });
    const body = { survivor_payee_id: survivor.id, merged_payee_ids: [dup1.id, dup2.id] };
    const res = await request(t.app, 'POST', `${VENDORS}/merge-payees`, { token: tokens.bookkeeper, body });
    expect(res.status, res.text).toBe(200);
    expect(res.body.merged_payee_ids).toEqual([dup1.id, dup2.id]);
    expect(res.body.vendor).toMatchObject({ email: 'dup@x.test', address: { ...ADDRESS, line2: null }, bank_account: { last_four: '6789' } });
    expect(res.body.vendor.contacts.map((c: { name: string }) => c.name)).toEqual(['Keep', 'Moved']);
    // The moved account was re-encrypted under the survivor's id: it still opens there.
    expect((await request(t.app, 'GET', `${VENDORS}/${survivor.id}/bank-account`, { token: stepped })).body).toEqual(BANK);
    expect(refusal(await request(t.app, 'GET', `${VENDORS}/${dup1.id}`, { token: tokens.admin }))).toEqual([404, 'REQUEST_7004']);
    const rows = await t.db.query<{ merged_into_id: string; deleted: boolean }>('SELECT merged_into_id::text, deleted FROM vendors WHERE id = ANY($1::uuid[])', [[dup1.id, dup2.id]]);
    expect(rows).toEqual([{ merged_into_id: survivor.id, deleted: true }, { merged_into_id: survivor.id, deleted: true }]);
    // The feed carries the survivor and both tombstones.
    const feed = await request(t.app, 'GET', `${syncChanges.path}?after=${survivor.change_seq}&limit=1000`, { token: tokens.employee });
    const vendorChanges = (feed.body.changes as { collection: string; id: string; deleted?: boolean; doc?: { deleted: boolean } }[])
      .filter((c) => c.collection === 'vendors' && [survivor.id, dup1.id, dup2.id].includes(c.id));
    expect(new Set(vendorChanges.map((c) => c.id))).toEqual(new Set([survivor.id, dup1.id, dup2.id]));
  });

  it.each([
    ['the survivor among the merged', (s: string, m: string) => ({ survivor_payee_id: s, merged_payee_ids: [m, s] }), [422, 'REQUEST_7001']],
    ['a payee twice', (s: string, m: string) => ({ survivor_payee_id: s, merged_payee_ids: [m, m] }), [422, 'REQUEST_7001']],
    ['an unknown payee', (s: string) => ({ survivor_payee_id: s, merged_payee_ids: [randomUUID()] }), [404, 'REQUEST_7004']],
    ['no merged payee', (s: string) => ({ survivor_payee_id: s, merged_payee_ids: [] }), [422, 'REQUEST_7001']],
  ])('refuses a merge with %s and changes nothing', async (_name, body, expected) => {
    const s = await create({ name: `S ${randomUUID()}` });
    const m = await create({ name: `M ${randomUUID()}`, contacts: [{ name: 'Stays' }] });
    const res = await request(t.app, 'POST', `${VENDORS}/merge-payees`, { token: tokens.admin, body: body(s.id, m.id) });
    expect(refusal(res), res.text).toEqual(expected);
    expect((await request(t.app, 'GET', `${VENDORS}/${m.id}`, { token: tokens.admin })).body).toEqual(m);
  });

  it('bulk upload: creates every row of a clean sheet', async () => {
    const tag = randomUUID().slice(0, 6);
    const rows = [
      { name: `Bulk ${tag} one`, email: 'one@x.test', address_line1: '2 Main St', city: 'Austin', state: 'tx', postal_code: '78701', country: 'us' },
      { name: `Bulk ${tag} two`, phone: '' },
    ];
    const res = await request(t.app, 'POST', `${VENDORS}/bulk-upload`, { token: tokens.teammate, body: { rows } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.created).toBe(2);
    expect(res.body.results).toEqual([{ row: 1, ok: true, id: expect.any(String) }, { row: 2, ok: true, id: expect.any(String) }]);
    const one = await request(t.app, 'GET', `${VENDORS}/${res.body.results[0].id}`, { token: tokens.admin });
    expect(one.body).toMatchObject({ name: `Bulk ${tag} one`, phone: null, address: { state: 'TX', country: 'US', line2: null } });
  });

  it('bulk upload: reports each bad row and creates nothing, so the fixed sheet can be sent again', async () => {
    const tag = randomUUID().slice(0, 6);
    await create({ name: `Taken ${tag}` });
    const rows = [
      { name: `Good ${tag}` },
      { name: `NoState ${tag}`, address_line1: '1 A St', city: 'Reno', postal_code: '89501', country: 'US' },
      { name: '', email: 'x@x.test' },
      { name: `Good ${tag} ` },
      { name: `taken ${tag}` },
      { name: `Half ${tag}`, city: 'Paris' },
      { name: `Mail ${tag}`, email: 'not-an-email' },
    ];
    const before = await vendorCount();
    const res = await request(t.app, 'POST', `${VENDORS}/bulk-upload`, { token: tokens.admin, body: { rows } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.created).toBe(0);
    const byRow = Object.fromEntries((res.body.results as { row: number; ok: boolean; errors?: Record<string, string> }[]).map((r) => [r.row, r]));
    expect(byRow[1]).toEqual({ row: 1, ok: true });
    expect(byRow[2]!.errors).toEqual({ state: 'State is required for US vendors.' });
    expect(Object.keys(byRow[3]!.errors!)).toEqual(['name']);
    expect(byRow[4]!.errors).toEqual({ name: 'name repeats row 1' });
    expect(byRow[5]!.errors!.name).toContain('already exists');
    expect(Object.keys(byRow[6]!.errors!).sort()).toEqual(['address_line1', 'country', 'postal_code']);
    expect(Object.keys(byRow[7]!.errors!)).toEqual(['email']);
    expect(await vendorCount()).toBe(before);

    const fixed = await request(t.app, 'POST', `${VENDORS}/bulk-upload`, { token: tokens.admin, body: { rows: [rows[0]] } });
    expect(fixed.body.created).toBe(1);
    const again = await request(t.app, 'POST', `${VENDORS}/bulk-upload`, { token: tokens.admin, body: { rows: [rows[0]] } });
    expect(again.body).toMatchObject({ created: 0, results: [{ row: 1, ok: false }] });
  });

  it('bulk upload from CSV text: quoted cells and any header order, the same per-row report', async () => {
    const tag = randomUUID().slice(0, 6);
    const csv = `\uFEFFCountry,Name,Postal Code,State,City,Address Line1\r\nUS,"Csv ${tag}, Inc.",78701,tx,Austin,"2 Main St, Suite 4"\r\nUS,"NoState ${tag}",89501,,Reno,1 A St\r\n`;
    const bad = await request(t.app, 'POST', `${VENDORS}/bulk-upload`, { token: tokens.admin, body: { csv } });
    expect(bad.status, bad.text).toBe(200);
    expect(bad.body).toEqual({ created: 0, results: [{ row: 1, ok: true }, { row: 2, ok: false, errors: { state: 'State is required for US vendors.' } }] });
    const good = await request(t.app, 'POST', `${VENDORS}/bulk-upload`, { token: tokens.admin, body: { csv: csv.split('\r\n').slice(0, 2).join('\n') } });
    expect(good.status, good.text).toBe(201);
    const made = await request(t.app, 'GET', `${VENDORS}/${good.body.results[0].id}`, { token: tokens.admin });
    expect(made.body).toMatchObject({ name: `Csv ${tag}, Inc.`, address: { line1: '2 Main St, Suite 4', state: 'TX', postal_code: '78701' } });
    const unknown = await request(t.app, 'POST', `${VENDORS}/bulk-upload`, { token: tokens.admin, body: { csv: 'name,iban\nX,DE00' } });
    expect(refusal(unknown)).toEqual([422, 'REQUEST_7001']);
    expect(unknown.body.error_v2.message).toContain('Unknown column "iban"');
    const both = await request(t.app, 'POST', `${VENDORS}/bulk-upload`, { token: tokens.admin, body: { csv, rows: [{ name: 'X' }] } });
    expect(refusal(both)).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'POST', `${VENDORS}/bulk-upload`, { token: tokens.admin, body: {} }))).toEqual([422, 'REQUEST_7001']);
  });

  it('refuses an oversized sheet or an unknown column as a whole', async () => {
    const big = Array.from({ length: 501 }, (_, i) => ({ name: `Row ${i}` }));
    expect(refusal(await request(t.app, 'POST', `${VENDORS}/bulk-upload`, { token: tokens.admin, body: { rows: big } }))).toEqual([422, 'REQUEST_7001']);
    const odd = await request(t.app, 'POST', `${VENDORS}/bulk-upload`, { token: tokens.admin, body: { rows: [{ name: 'X', iban: 'DE00' }] } });
    expect(refusal(odd)).toEqual([422, 'REQUEST_7001']);
  });

  it('answers 404 for another business\'s vendor and contact, and lists none of them', async () => {
    const v = await create({ name: `Private ${randomUUID()}`, contacts: [{ name: 'Secret' }] });
    const c = v.contacts[0]!.id;
    for (const [method, path, body] of [
      ['GET', `${VENDORS}/${v.id}`, undefined], ['PATCH', `${VENDORS}/${v.id}`, { name: 'Mine' }], ['DELETE', `${VENDORS}/${v.id}`, undefined],
      ['POST', `${VENDORS}/${v.id}/contacts`, { name: 'Mine' }], ['PATCH', `${VENDORS}/${v.id}/contacts/${c}`, { name: 'Mine' }],
      ['DELETE', `${VENDORS}/${v.id}/contacts`, { contact_ids: [c] }], ['DELETE', `${VENDORS}/${v.id}/bank-account`, undefined],
    ] as const) {
      expect(refusal(await request(t.app, method, path, { token: bOwner, body })), `${method} ${path}`).toEqual([404, 'REQUEST_7004']);
    }
    const listed = await request(t.app, 'GET', `${VENDORS}?status=ALL&page_size=1000`, { token: bOwner });
    expect(listed.text).not.toContain(v.id);
    expect((await request(t.app, 'GET', `${VENDORS}/${v.id}`, { token: tokens.admin })).body).toEqual(v);
  });

  it('deletes a vendor as a tombstone and frees its name', async () => {
    const v = await create({ name: `Gone ${randomUUID()}` });
    const res = await request(t.app, 'DELETE', `${VENDORS}/${v.id}`, { token: tokens.admin });
    expect(res.body).toMatchObject({ id: v.id, deleted: true });
    await create({ name: v.name });
  });
});
