import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { linkedBankAccountSchema, statementSchema } from '../../schema/api/calls-banking.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, refusal, request, useTwoBusinesses } from '../test-fixtures.ts';
import { allocateSeqs } from '../db/change-seq.ts';
import { findAccount } from '../ledger/ledger.ts';
import { checkLedger } from '../ledger/check.ts';
import { lockTransfer, releaseTransfer, settleTransfer, startTransfer } from '../domain/treasury/transfer-core.ts';
import { readMicroDeposits } from '../domain/banking/debit-check.ts';
import { matchLines } from '../domain/banking/statements.ts';

/**
 * Banking links (issue 30) through the API: manual accounts (ABA checksum, the number encrypted and
 * masked, reveal and change behind step-up, the EXTERNAL_BANK ledger account), the debit check
 * (dev mailbox, wrong answers, lockout, racing answers), deleting while a transfer is pending,
 * statements (sniffed uploads, the file answer, lines matched to the ledger's entries), entity cash
 * accounts, admins only and another business's ids 404.
 */
const B = '/v1/auth/banking';
const MANUAL = { name: 'Payroll account', bank_name: 'First Bank', account_type: 'CHECKING', routing_number: '021000021', account_number: '000123456789' };
const PDF = new Uint8Array(new TextEncoder().encode('%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n'));

describe.each(await testDatabases())('banking links on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });
  const two = useTwoBusinesses(t, ['owner', 'admin', 'bookkeeper', 'employee']);
  let stepped: string;
  let operating: string;
  let entity: string;

  beforeAll(async () => {
    const res = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token: two.tokens.admin, body: { password: FIXTURE_PASSWORD } });
    expect(res.status, res.text).toBe(200);
    stepped = res.body.id_token;
    const businessId = two.a.businessId;
    // The fixture's funded primary OPERATING account (server/test-fixtures.ts).
    operating = two.a.operatingAccounts.USD!;
    entity = randomUUID();
    await t.db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
       INSERT INTO business_entities (id, business_id, name, country, currency, change_seq) SELECT $1::uuid, $2::uuid, 'Main entity', 'US', 'USD', change_seq FROM seq`,
      [entity, businessId],
    );
  });

  const link = async (body: Record<string, unknown> = MANUAL) => {
    const res = await request(t.app, 'POST', `${B}/manual-account`, { token: stepped, body });
    expect(res.status, res.text).toBe(201);
    return linkedBankAccountSchema.parse(res.body);
  };
  const ledgerOf = async (bankId: string) =>
    (await t.db.query<{ id: string; name: string; kind: string; allow_negative: boolean }>(
      'SELECT id, name, kind, allow_negative FROM ledger_accounts WHERE bank_account_id = $1', [bankId],
    ))[0]!;

  /** A transfer through the transfer core (what the transfer calls do), optionally settled. */
  async function transfer(from: string, to: string, amount: number, day: string, settle: boolean): Promise<string> {
    const id = randomUUID();
    const businessId = two.a.businessId;
    await t.db.transaction(async (tx) => {
      const seqs = await allocateSeqs(tx, businessId, 2);
      const [fromAcct, toAcct] = [await findAccount(tx, businessId, from), await findAccount(tx, businessId, to)];
      await startTransfer(tx, {
        businessId, id, from: fromAcct!, to: toAcct!, amount, fee: 0, memo: 'test', expectedSettlementDate: day, createdBy: null,
        at: new Date(`${day}T09:00:00Z`), seq: seqs!.first,
      });
      if (settle) await settleTransfer(tx, (await lockTransfer(tx, businessId, id))!, new Date(`${day}T18:00:00Z`), seqs!.last);
    });
    return id;
  }

  it('refuses anyone but an admin with TREASURY_7001 before any lookup', async () => {
    for (const role of ['employee', 'bookkeeper'] as const) {
      expect(refusal(await request(t.app, 'GET', `${B}/accounts`, { token: two.tokens[role] }))).toEqual([403, 'TREASURY_7001']);
      expect(refusal(await request(t.app, 'GET', `${B}/statement/${randomUUID()}`, { token: two.tokens[role] }))).toEqual([403, 'TREASURY_7001']);
      expect(refusal(await request(t.app, 'DELETE', `${B}/user/bank-accounts/${randomUUID()}`, { token: two.tokens[role] }))).toEqual([403, 'TREASURY_7001']);
      const up = await t.app.request(`${B}/statement?bank_account_id=${randomUUID()}&file_name=s.pdf`, {
        method: 'POST', headers: { 'RAMP-ID-TOKEN': two.tokens[role], 'content-type': 'application/pdf' }, body: PDF,
      });
      expect(up.status).toBe(403);
    }
  });

  it('links an account: ABA checksum, step-up, the number encrypted and masked, its EXTERNAL_BANK ledger account', async () => {
    expect(refusal(await request(t.app, 'POST', `${B}/manual-account`, { token: two.tokens.admin, body: MANUAL }))).toEqual([403, 'AUTH_7016']);
    const bad = await request(t.app, 'POST', `${B}/manual-account`, { token: stepped, body: { ...MANUAL, routing_number: '021000022' } });
    expect(refusal(bad)).toEqual([422, 'BANKING_7001']);
    expect(Object.keys(bad.body.error_v2.errors)).toEqual(['routing_number']);

    const a = await link({ ...MANUAL, entity_id: entity });
    expect(a).toMatchObject({
      name: 'Payroll account', bank_name: 'First Bank', account_number_masked: '••••6789', currency: 'USD', status: 'UNVERIFIED',
      verified_at: null, attempts_left: null, entity_id: entity, uuid: a.id,
    });
    const [row] = await t.db.query<Record<string, unknown>>('SELECT * FROM bank_accounts WHERE id = $1', [a.id]);
    expect(JSON.stringify(row)).not.toContain('000123456789');
    expect(await ledgerOf(a.id)).toMatchObject({ name: 'First Bank ••6789', kind: 'EXTERNAL_BANK', allow_negative: true });

    const listed = await request(t.app, 'GET', `${B}/accounts`, { token: two.tokens.admin });
    expect(listed.body.accounts.map((x: { id: string }) => x.id)).toContain(a.id);
    expect(listed.text).not.toContain('000123456789');

    expect(refusal(await request(t.app, 'GET', `${B}/accounts/${a.id}/reveal`, { token: two.tokens.admin }))).toEqual([403, 'AUTH_7016']);
    const revealed = await request(t.app, 'GET', `${B}/accounts/${a.id}/reveal`, { token: stepped });
    expect(revealed.body).toEqual({ routing_number: '021000021', account_number: '000123456789', account_type: 'CHECKING' });

    const renamed = await request(t.app, 'PATCH', `${B}/accounts/${a.id}`, { token: stepped, body: { name: 'Ops', bank_name: 'Second Bank' } });
    expect(renamed.body).toMatchObject({ name: 'Ops', bank_name: 'Second Bank', account_number_masked: '••••6789' });
    expect((await ledgerOf(a.id)).name).toBe('Second Bank ••6789');
    expect(refusal(await request(t.app, 'PATCH', `${B}/accounts/${a.id}`, { token: stepped, body: { routing_number: '123456789' } }))).toEqual([422, 'BANKING_7001']);
  });

  it('verifies by the two micro-deposits from the dev mailbox, in any order; wrong amounts count; new numbers reset it', async () => {
    const a = await link();
    const started = await request(t.app, 'POST', `${B}/debit-check/${a.id}`, { token: two.tokens.admin });
    expect(started.body).toMatchObject({ status: 'PENDING_VERIFICATION', attempts_left: 3 });
    const deposits = (await readMicroDeposits(t.db, two.a.businessId, a.id))!;
    for (const d of deposits) expect(d >= 1 && d <= 99).toBe(true);
    const [mail] = await t.db.query<{ body: string }>(
      `SELECT body FROM dev_outbox WHERE recipient = $1 AND subject = 'Verify your bank account' ORDER BY id DESC LIMIT 1`, [two.a.email('admin')],
    );
    expect(mail!.body).toContain('Two small deposits were sent to First Bank ••••6789');
    const cents = (n: number) => `0.${String(n).padStart(2, '0')}`;
    expect(mail!.body).toContain(`${cents(deposits[0])} and ${cents(deposits[1])} USD`);
    expect(started.text).not.toContain('micro');

    const wrong = [deposits[0] === 99 ? 98 : deposits[0] + 1, deposits[1]];
    // The same wrong answer sent twice under one Idempotency-Key counts once.
    const headers = { 'Idempotency-Key': randomUUID() };
    for (let i = 0; i < 2; i++) {
      const miss = await request(t.app, 'POST', `${B}/debit-check/${a.id}/verify`, { token: two.tokens.admin, body: { amounts: wrong }, headers });
      expect(refusal(miss)).toEqual([422, 'BANKING_7002']);
      expect(miss.body.error_v2.errors).toEqual({ amounts: '2 attempts left' });
    }
    const [counted] = await t.db.query<{ verify_attempts: number }>('SELECT verify_attempts FROM bank_accounts WHERE id = $1', [a.id]);
    expect(counted!.verify_attempts).toBe(1);
    const ok = await request(t.app, 'POST', `${B}/debit-check/${a.id}/verify`, { token: two.tokens.admin, body: { amounts: [deposits[1], deposits[0]] } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ status: 'VERIFIED', verified_at: expect.any(String), attempts_left: null });
    expect(refusal(await request(t.app, 'POST', `${B}/debit-check/${a.id}/verify`, { token: two.tokens.admin, body: { amounts: deposits } }))).toEqual([409, 'BANKING_7003']);
    expect(refusal(await request(t.app, 'POST', `${B}/debit-check/${a.id}`, { token: two.tokens.admin }))).toEqual([409, 'BANKING_7003']);

    const changed = await request(t.app, 'PATCH', `${B}/accounts/${a.id}`, { token: stepped, body: { account_number: '55554444' } });
    expect(changed.body).toMatchObject({ status: 'UNVERIFIED', verified_at: null, account_number_masked: '••••4444' });
    expect((await ledgerOf(a.id)).name).toBe('First Bank ••4444');
  });

  it('locks the check after the third wrong answer (FAILED, BANKING_7003), and a new start sends new deposits', async () => {
    const a = await link();
    await request(t.app, 'POST', `${B}/debit-check/${a.id}`, { token: two.tokens.admin });
    const deposits = (await readMicroDeposits(t.db, two.a.businessId, a.id))!;
    const wrong = [deposits[0] === 99 ? 98 : deposits[0] + 1, deposits[1]];
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await request(t.app, 'POST', `${B}/debit-check/${a.id}/verify`, { token: two.tokens.admin, body: { amounts: wrong } }));
    expect(answers.map(refusal)).toEqual([[422, 'BANKING_7002'], [422, 'BANKING_7002'], [409, 'BANKING_7003']]);
    expect(answers[1]!.body.error_v2.errors).toEqual({ amounts: '1 attempt left' });
    const [row] = await t.db.query<{ status: string; micro_deposits_enc: string | null }>('SELECT status, micro_deposits_enc FROM bank_accounts WHERE id = $1', [a.id]);
    expect(row).toEqual({ status: 'FAILED', micro_deposits_enc: null });
    expect(refusal(await request(t.app, 'POST', `${B}/debit-check/${a.id}/verify`, { token: two.tokens.admin, body: { amounts: deposits } }))).toEqual([409, 'BANKING_7003']);
    const again = await request(t.app, 'POST', `${B}/debit-check/${a.id}`, { token: two.tokens.admin });
    expect(again.body).toMatchObject({ status: 'PENDING_VERIFICATION', attempts_left: 3 });
  });

  it('counts racing answers once each: one right answer among racers verifies once, the rest are refused', async () => {
    const a = await link();
    await request(t.app, 'POST', `${B}/debit-check/${a.id}`, { token: two.tokens.admin });
    const deposits = (await readMicroDeposits(t.db, two.a.businessId, a.id))!;
    const answers = await Promise.all([0, 1, 2].map(() =>
      request(t.app, 'POST', `${B}/debit-check/${a.id}/verify`, { token: two.tokens.admin, body: { amounts: deposits } })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });

  it('refuses to delete an account an enabled automation policy uses (BANKING_7004), and deletes it once the policy is off', async () => {
    const bank = await link();
    await t.db.query(`UPDATE bank_accounts SET status = 'VERIFIED', verified_at = now() WHERE id = $1`, [bank.id]);
    const policy = {
      id: randomUUID(), kind: 'SWEEP_ABOVE', account_id: operating, target_account_id: bank.id,
      threshold: { amount: 900_000_000_000_00, currency: 'USD' }, target: { amount: 800_000_000_000_00, currency: 'USD' },
    };
    const put = await request(t.app, 'PUT', '/v1/auth/wallet/automation-policy', { token: two.tokens.admin, body: policy });
    expect(put.status, put.text).toBe(201);
    const refused = await request(t.app, 'DELETE', `${B}/user/bank-accounts/${bank.id}`, { token: two.tokens.admin });
    expect(refusal(refused)).toEqual([409, 'BANKING_7004']);
    expect(refused.body.error_v2.message).toMatch(/automation policy/);
    const off = await request(t.app, 'PUT', '/v1/auth/wallet/automation-policy', { token: two.tokens.admin, body: { ...policy, enabled: false } });
    expect(off.status, off.text).toBe(200);
    expect((await request(t.app, 'DELETE', `${B}/user/bank-accounts/${bank.id}`, { token: two.tokens.admin })).body).toEqual({ id: bank.id, deleted: true });
  });

  it('refuses to delete an account with a pending transfer (BANKING_7004), then deletes it as a tombstone', async () => {
    const a = await link();
    const ledger = await ledgerOf(a.id);
    const id = await transfer(operating, ledger.id, 5_000, '2026-11-10', false);
    expect(refusal(await request(t.app, 'DELETE', `${B}/user/bank-accounts/${a.id}`, { token: two.tokens.admin }))).toEqual([409, 'BANKING_7004']);
    await t.db.transaction(async (tx) => {
      const seqs = await allocateSeqs(tx, two.a.businessId, 1);
      await releaseTransfer(tx, (await lockTransfer(tx, two.a.businessId, id))!, { status: 'CANCELED' }, new Date(), seqs!.first);
    });
    const gone = await request(t.app, 'DELETE', `${B}/user/bank-accounts/${a.id}`, { token: two.tokens.admin });
    expect(gone.body).toEqual({ id: a.id, deleted: true });
    const listed = await request(t.app, 'GET', `${B}/accounts`, { token: two.tokens.admin });
    expect(listed.body.accounts.map((x: { id: string }) => x.id)).not.toContain(a.id);
    expect(refusal(await request(t.app, 'DELETE', `${B}/user/bank-accounts/${a.id}`, { token: two.tokens.admin }))).toEqual([404, 'REQUEST_7004']);
    expect((await checkLedger(t.db, two.a.businessId)).ok).toBe(true);
  });

  it('stores a statement (sniffed), serves its file, and matches its lines to the bank account\'s ledger entries', async () => {
    const a = await link();
    const ledger = await ledgerOf(a.id);
    const upload = (type: string, bytes: Uint8Array<ArrayBuffer>, bank = a.id) =>
      t.app.request(`${B}/statement?bank_account_id=${bank}&file_name=nov.pdf`, {
        method: 'POST', headers: { 'RAMP-ID-TOKEN': two.tokens.admin, 'content-type': type }, body: bytes,
      });
    const fake = await upload('image/png', PDF);
    expect(fake.status).toBe(422);
    expect(((await fake.json()) as { error_v2: { error_code: string } }).error_v2.error_code).toBe('BANKING_7005');
    expect((await upload('application/pdf', PDF, randomUUID())).status).toBe(404);
    const res = await upload('application/pdf', PDF);
    expect(res.status).toBe(201);
    const s = statementSchema.parse(await res.json());
    expect(s).toMatchObject({ status: 'UPLOADED', lines: [], matched: 0, unmatched: 0, size: PDF.length, content_type: 'application/pdf' });

    const file = await t.app.request(`${B}/statement/${s.id}/file`, { headers: { 'RAMP-ID-TOKEN': two.tokens.admin } });
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="statement-${s.id}.pdf"`);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PDF);

    // Into the bank (wallet → bank, settled on the 12th: +7,500 on its ledger account), out of it
    // (bank → wallet, held on the 14th: −2,000), and two equal amounts on the 20th and 21st.
    const into = await transfer(operating, ledger.id, 7_500, '2026-11-12', true);
    const out = await transfer(ledger.id, operating, 2_000, '2026-11-14', false);
    const first = await transfer(operating, ledger.id, 1_000, '2026-11-20', true);
    const second = await transfer(operating, ledger.id, 1_000, '2026-11-21', true);
    const lines = [
      { date: '2026-11-13', description: 'ACH credit Ledgerline', amount: 7_500 },
      { date: '2026-11-14', description: 'ACH debit Ledgerline', amount: -2_000 },
      { date: '2026-11-22', description: 'Credit', amount: 1_000 },
      { date: '2026-11-21', description: 'Credit', amount: 1_000 },
      { date: '2026-11-12', description: 'Wrong amount', amount: 7_499 },
      { date: '2026-11-30', description: 'Too late', amount: 7_500 },
    ];
    const put = await request(t.app, 'PUT', `${B}/statement/${s.id}/lines`, { token: two.tokens.admin, body: { period_start: '2026-11-01', period_end: '2026-11-30', lines } });
    expect(put.status, put.text).toBe(200);
    const read = statementSchema.parse(put.body);
    expect(read).toMatchObject({ status: 'READ', period_start: '2026-11-01', period_end: '2026-11-30', matched: 4, unmatched: 2 });
    expect(read.lines.map((l) => l.matched_transfer_id)).toEqual([into, out, first, second, null, null]);
    const entryKinds = await t.db.query<{ kind: string }>(
      'SELECT e.kind FROM journal_entries e WHERE e.id = ANY($1::uuid[]) ORDER BY e.kind', [read.lines.map((l) => l.matched_entry_id).filter(Boolean)],
    );
    expect(entryKinds.map((e) => e.kind)).toEqual(['TRANSFER_HOLD', 'TRANSFER_SETTLE', 'TRANSFER_SETTLE', 'TRANSFER_SETTLE']);
    const got = await request(t.app, 'GET', `${B}/statement/${s.id}`, { token: two.tokens.admin });
    expect(got.body).toEqual(put.body);

    // A second statement of the same period cannot claim entries the first one holds.
    const dup = statementSchema.parse(await (await upload('application/pdf', PDF)).json());
    const dupPut = await request(t.app, 'PUT', `${B}/statement/${dup.id}/lines`, { token: two.tokens.admin, body: { lines: lines.slice(0, 1) } });
    expect(dupPut.body).toMatchObject({ matched: 0, unmatched: 1 });

    const badDate = await request(t.app, 'PUT', `${B}/statement/${s.id}/lines`, { token: two.tokens.admin, body: { lines: [{ date: '2026-02-30', description: 'x', amount: 5 }] } });
    expect(refusal(badDate)).toEqual([422, 'REQUEST_7001']);
    const zero = await request(t.app, 'PUT', `${B}/statement/${s.id}/lines`, { token: two.tokens.admin, body: { lines: [{ date: '2026-11-02', description: 'x', amount: 0 }] } });
    expect(zero.body.error_v2.errors).toEqual({ 'lines.0.amount': 'lines.0.amount must not be zero' });
    const period = await request(t.app, 'PUT', `${B}/statement/${s.id}/lines`, { token: two.tokens.admin, body: { period_start: '2026-12-01', period_end: '2026-11-01', lines: [] } });
    expect(refusal(period)).toEqual([422, 'REQUEST_7001']);

    const listed = await request(t.app, 'GET', `${B}/statement?bank_account_id=${a.id}`, { token: two.tokens.admin });
    expect(listed.body.data.map((x: { id: string }) => x.id)).toEqual([dup.id, s.id]);
    expect((await request(t.app, 'DELETE', `${B}/statement/${s.id}`, { token: two.tokens.admin })).body).toEqual({ id: s.id, deleted: true });
    expect(refusal(await request(t.app, 'GET', `${B}/statement/${s.id}`, { token: two.tokens.admin }))).toEqual([404, 'REQUEST_7004']);
    // Its entries are free again for the other statement.
    const rematched = await request(t.app, 'PUT', `${B}/statement/${dup.id}/lines`, { token: two.tokens.admin, body: { lines: lines.slice(0, 1) } });
    expect(rematched.body).toMatchObject({ matched: 1, unmatched: 0 });
  });

  it('maps an entity\'s cash account to the business\'s own accounts only', async () => {
    const a = await link();
    const gl = two.a.glAccounts.active[0]!;
    const body = { bank_account_id: a.id, wallet_account_id: operating, gl_account_id: gl };
    const put = await request(t.app, 'PUT', `${B}/entity-cash-accounts/${entity}`, { token: two.tokens.admin, body });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ entity_id: entity, ...body });
    const listed = await request(t.app, 'GET', `${B}/entity-cash-accounts`, { token: two.tokens.admin });
    expect(listed.body.data).toEqual([put.body]);
    const bankLedger = (await ledgerOf(a.id)).id;
    for (const wrong of [
      { ...body, gl_account_id: two.b.glAccounts.active[0]! },
      { ...body, wallet_account_id: bankLedger },
      { ...body, bank_account_id: randomUUID() },
    ]) {
      expect(refusal(await request(t.app, 'PUT', `${B}/entity-cash-accounts/${entity}`, { token: two.tokens.admin, body: wrong }))).toEqual([404, 'REQUEST_7004']);
    }
    expect(refusal(await request(t.app, 'PUT', `${B}/entity-cash-accounts/${randomUUID()}`, { token: two.tokens.admin, body }))).toEqual([404, 'REQUEST_7004']);
  });

  it('answers 404 to another business for every id of this one', async () => {
    const a = await link();
    const other = two.bOwner;
    expect(refusal(await request(t.app, 'GET', `${B}/accounts/${a.id}/reveal`, { token: other }))).toEqual([403, 'AUTH_7016']);
    expect(refusal(await request(t.app, 'POST', `${B}/debit-check/${a.id}`, { token: other }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `${B}/user/bank-accounts/${a.id}`, { token: other }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'GET', `${B}/statement?bank_account_id=${a.id}`, { token: other }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'PUT', `${B}/entity-cash-accounts/${entity}`, {
      token: other, body: { bank_account_id: null, wallet_account_id: null, gl_account_id: null },
    }))).toEqual([404, 'REQUEST_7004']);
    const theirs = await request(t.app, 'GET', `${B}/accounts`, { token: other });
    expect(theirs.body).toEqual({ accounts: [] });
  });
});

describe('statement matching', () => {
  const e = (id: string, date: string, amount: number) => ({ id, date, amount, source_type: null, source_id: null });
  it('pairs closest dates first, each entry once, within three days', () => {
    const lines = [{ date: '2026-01-10', description: 'a', amount: 100 }, { date: '2026-01-08', description: 'b', amount: 100 }];
    const got = matchLines(lines, [e('x', '2026-01-08', 100), e('y', '2026-01-13', 100), e('z', '2026-01-04', 100)]);
    expect(got.map((m) => m?.id ?? null)).toEqual(['y', 'x']);
    expect(matchLines([{ date: '2026-01-01', description: 'c', amount: 5 }], [e('w', '2025-12-28', 5)])).toEqual([null]);
  });
});
