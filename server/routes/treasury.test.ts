import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  accountActionSchema, businessAccountSchema, investmentAccountSchema, transferAnswerSchema, transferPreviewSchema, type BusinessAccount, type TransferAnswer,
} from '../../schema/api/calls-treasury.ts';
import { syncChanges } from '../../schema/api/calls.ts';
import { expectedSettlementDate } from '../../schema/business-days.ts';
import { checkLedger } from '../ledger/check.ts';
import { postEntry, systemAccount } from '../ledger/ledger.ts';
import { settleDueTransfers } from '../domain/treasury/settlement-job.ts';
import { accrueYield } from '../domain/treasury/yield.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';
import { fundAccount, linkBank, openAccount, openWallet, type Wallet } from './treasury-test-kit.ts';

/**
 * Issue 30: the treasury calls (routes/treasury.ts) on PGlite and PostgreSQL: the transfer
 * lifecycle (preview → create: the hold at once → the settlement job → SETTLED, the fee in FEES),
 * cancel, a pull from a bank, retries by body id and Idempotency-Key, every bad input refused
 * with nothing posted, the settlement job failing a transfer to a bank no longer verified, the
 * accounts' activity, the accounts' management, wallet settings, the daily yield (once per day) and
 * the business's currencies (§7 Businesses "PUT currencies").
 * The ledger check holds after every test.
 */
const NOW = Date.parse('2026-11-30T15:00:00Z'); // a Monday, a bank business day
const TODAY = '2026-11-30';
const T = '/v1/auth/treasury';
const usd = (amount: number) => ({ amount, currency: 'USD' });

describe.each(await testDatabases())('treasury on %s', (kind) => {
  const t = useTestApp(kind, { now: () => NOW });
  let a: Fixture;
  let b: Fixture;
  let w: Wallet;
  let bw: Wallet;
  let bank: string;
  let unverified: string;
  let admin: string;
  let employee: string;
  let bOwner: string;

  beforeAll(async () => {
    a = await makeBusiness(t.db, { operating: {} });
    b = await makeBusiness(t.db, { operating: {} });
    w = await openWallet(t.db, a.businessId, 1_000_000);
    bw = await openWallet(t.db, b.businessId, 50_000);
    bank = await linkBank(t.db, a.businessId);
    unverified = await linkBank(t.db, a.businessId, { verified: false, name: 'New savings' });
    admin = await signIn(t.app, a.email('admin'));
    employee = await signIn(t.app, a.email('employee'));
    bOwner = await signIn(t.app, b.email('owner'));
    await t.db.query(
      'INSERT INTO wallet_settings (business_id, external_transfer_fee, external_settlement_days) VALUES ($1, 250, 2)', [a.businessId],
    );
  });

  afterEach(async () => {
    for (const business of [a.businessId, b.businessId]) {
      const report = await checkLedger(t.db, business);
      expect(report.ok, JSON.stringify(report)).toBe(true);
    }
  });

  const accounts = async (token = admin) => {
    const res = await request<{ accounts: BusinessAccount[] }>(t.app, 'GET', `${T}/business-accounts`, { token });
    expect(res.status, res.text).toBe(200);
    return new Map(res.body.accounts.map((x) => [x.uuid, businessAccountSchema.parse(x)]));
  };
  const entries = async (business = a.businessId) =>
    Number((await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM journal_entries WHERE business_id = $1', [business]))[0]!.n);
  const transfer = async (body: Record<string, unknown>, from = w.operating, token = admin, headers?: Record<string, string>) =>
    request(t.app, 'POST', `${T}/business-accounts/${from}/transfers`, { token, body, headers });
  const created = async (body: Record<string, unknown>, from = w.operating) => {
    const res = await transfer(body, from);
    expect(res.status, res.text).toBe(201);
    return transferAnswerSchema.parse(res.body);
  };
  const systemBalance = async (kindName: string) =>
    Number((await t.db.query<{ b: string }>('SELECT balance::text AS b FROM ledger_accounts WHERE business_id = $1 AND kind = $2', [a.businessId, kindName]))[0]?.b ?? 0);

  it('refuses everyone but admins with TREASURY_7001 before any lookup', async () => {
    expect(refusal(await request(t.app, 'GET', `${T}/business-accounts`, { token: employee }))).toEqual([403, 'TREASURY_7001']);
    expect(refusal(await transfer({ to_account_id: randomUUID(), amount: usd(1) }, randomUUID(), employee))).toEqual([403, 'TREASURY_7001']);
    expect(refusal(await request(t.app, 'GET', '/v1/auth/wallet/settings', { token: employee }))).toEqual([403, 'TREASURY_7001']);
    expect(refusal(await request(t.app, 'GET', `${T}/investment-accounts`, { token: employee }))).toEqual([403, 'TREASURY_7001']);
  });

  it('previews, creates with the hold at once, and settles on the day through the job', async () => {
    const body = { to_account_id: w.reserve, amount: usd(10_000), memo: 'To reserve' };
    const preview = await request(t.app, 'POST', `${T}/business-accounts/${w.operating}/transfers/preview`, { token: admin, body });
    expect(preview.status, preview.text).toBe(200);
    const before = (await accounts()).get(w.operating)!.balance.amount;
    expect(transferPreviewSchema.parse(preview.body)).toEqual({ fee: usd(0), expected_settlement_date: TODAY, balance_after: usd(before - 10_000) });

    const made = await created({ ...body, expected_fee: usd(0) });
    expect(made).toMatchObject({ status: 'PENDING', fee: usd(0), amount: usd(10_000), expected_settlement_date: TODAY, from_name: 'Operating', to_name: 'Reserve' });
    let list = await accounts();
    expect(list.get(w.operating)).toMatchObject({ balance: usd(before - 10_000), pending_out: usd(10_000) });
    expect(list.get(w.reserve)).toMatchObject({ pending_in: usd(10_000) });

    const reserveBefore = list.get(w.reserve)!.balance.amount;
    expect(await settleDueTransfers(t.db, new Date(NOW))).toMatchObject({ settled: 1 });
    expect(await settleDueTransfers(t.db, new Date(NOW))).toMatchObject({ settled: 0, failed: 0 });
    list = await accounts();
    expect(list.get(w.reserve)).toMatchObject({ balance: usd(reserveBefore + 10_000), pending_in: usd(0) });
    expect(list.get(w.operating)).toMatchObject({ pending_out: usd(0) });
    const page = await request<{ data: TransferAnswer[] }>(t.app, 'GET', `${T}/business-accounts/${w.reserve}/transfers`, { token: admin });
    expect(page.body.data.find((x) => x.id === made.id)).toMatchObject({ status: 'SETTLED' });
  });

  it('puts the transfer and both accounts\' new figures on the admins\' change feed, and nothing of it on an employee\'s', async () => {
    const [{ seq }] = (await t.db.query<{ seq: string }>('SELECT change_seq::text AS seq FROM businesses WHERE id = $1', [a.businessId])) as [{ seq: string }];
    const made = await created({ to_account_id: w.reserve, amount: usd(50) });
    const feed = await request(t.app, 'GET', `${syncChanges.path}?after=${seq}&limit=1000`, { token: admin });
    expect(feed.status, feed.text).toBe(200);
    const changes = feed.body.changes as { collection: string; id: string; doc: Record<string, unknown> | null }[];
    expect(changes.find((c) => c.collection === 'wallet_transfers' && c.id === made.id)?.doc).toMatchObject({ status: 'PENDING', amount: 50, fee: 0 });
    const list = await accounts();
    expect(changes.find((c) => c.collection === 'wallet_accounts' && c.id === w.operating)?.doc)
      .toMatchObject({ balance: list.get(w.operating)!.balance.amount, pending_out: list.get(w.operating)!.pending_out.amount });
    expect(changes.find((c) => c.collection === 'wallet_accounts' && c.id === w.reserve)?.doc).toMatchObject({ pending_in: list.get(w.reserve)!.pending_in.amount });
    const theirs = await request(t.app, 'GET', `${syncChanges.path}?after=${seq}&limit=1000`, { token: employee });
    expect((theirs.body.changes as { collection: string }[]).filter((c) => c.collection.startsWith('wallet_'))).toEqual([]);
    await settleDueTransfers(t.db, new Date(NOW));
  });

  it('charges the external fee, refuses a stale expected_fee with the new figures, settles after the bank days', async () => {
    const date = expectedSettlementDate(TODAY, 2);
    const body = { to_account_id: bank, amount: usd(5_000) };
    const preview = await request(t.app, 'POST', `${T}/business-accounts/${w.operating}/transfers/preview`, { token: admin, body });
    expect(preview.body).toMatchObject({ fee: usd(250), expected_settlement_date: date });
    const n = await entries();
    const stale = await transfer({ ...body, expected_fee: usd(0) });
    expect(refusal(stale)).toEqual([409, 'TREASURY_7006']);
    expect(stale.body).toMatchObject({ error_v2: { errors: { fee: '2.50 USD', expected_settlement_date: date } } });
    expect(await entries()).toBe(n);

    const before = (await accounts()).get(w.operating)!.balance.amount;
    const fees = await systemBalance('FEES');
    const made = await created({ ...body, expected_fee: usd(250) });
    expect(made).toMatchObject({ fee: usd(250), expected_settlement_date: date, status: 'PENDING', to_name: 'Payroll checking ••6789' });
    expect((await accounts()).get(w.operating)).toMatchObject({ balance: usd(before - 5_250), pending_out: usd(5_250) });
    expect(await settleDueTransfers(t.db, new Date(NOW))).toMatchObject({ settled: 0 });
    expect(await settleDueTransfers(t.db, new Date(`${date}T12:00:00Z`))).toMatchObject({ settled: 1 });
    expect(await systemBalance('FEES')).toBe(fees + 250);
    expect((await accounts()).get(w.operating)).toMatchObject({ balance: usd(before - 5_250), pending_out: usd(0) });
  });

  it('cancels a pending transfer (the hold comes back); a second cancel or one after settlement is 409 TREASURY_7005', async () => {
    const before = (await accounts()).get(w.operating)!.balance.amount;
    const made = await created({ to_account_id: bank, amount: usd(7_000) });
    const cancel = (id: string, path = w.operating) => request(t.app, 'POST', `${T}/business-accounts/${path}/transfers/${id}/cancel`, { token: admin });
    const res = await cancel(made.id);
    expect(res.status, res.text).toBe(200);
    expect(transferAnswerSchema.parse(res.body)).toMatchObject({ status: 'CANCELED' });
    expect((await accounts()).get(w.operating)).toMatchObject({ balance: usd(before), pending_out: usd(0) });
    expect(refusal(await cancel(made.id))).toEqual([409, 'TREASURY_7005']);

    const internal = await created({ to_account_id: w.reserve, amount: usd(100) });
    await settleDueTransfers(t.db, new Date(NOW));
    expect(refusal(await cancel(internal.id, w.reserve))).toEqual([409, 'TREASURY_7005']);
  });

  it('pulls from a verified bank account into the wallet', async () => {
    const before = (await accounts()).get(w.reserve)!.balance.amount;
    const made = await created({ from_bank_account_id: bank, to_account_id: w.reserve, amount: usd(20_000) }, w.reserve);
    expect(made).toMatchObject({ fee: usd(0), to_account_id: w.reserve, status: 'PENDING' });
    expect((await accounts()).get(w.reserve)).toMatchObject({ balance: usd(before), pending_in: usd(20_000) });
    await settleDueTransfers(t.db, new Date(`${made.expected_settlement_date}T12:00:00Z`));
    expect((await accounts()).get(w.reserve)).toMatchObject({ balance: usd(before + 20_000), pending_in: usd(0) });
    // The target must be the path's account.
    expect(refusal(await transfer({ from_bank_account_id: bank, to_account_id: w.operating, amount: usd(1) }, w.reserve))).toEqual([422, 'REQUEST_7001']);
  });

  it('answers a retry of the same body id with the stored transfer, and an Idempotency-Key replays', async () => {
    const id = randomUUID();
    const body = { id, to_account_id: w.reserve, amount: usd(300) };
    const first = await transfer(body);
    expect(first.status, first.text).toBe(201);
    const again = await transfer(body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const holds = await t.db.query('SELECT 1 FROM journal_entries WHERE business_id = $1 AND idem_key = $2', [a.businessId, `transfer:${id}:hold`]);
    expect(holds).toHaveLength(1);

    // The id of another business's transfer is used: 422.
    const theirs = await request(t.app, 'POST', `${T}/business-accounts/${bw.operating}/transfers`, {
      token: bOwner, body: { to_account_id: bw.reserve, amount: usd(100) },
    });
    expect(theirs.status, theirs.text).toBe(201);
    expect(refusal(await transfer({ id: (theirs.body as TransferAnswer).id, to_account_id: w.reserve, amount: usd(1) }))).toEqual([422, 'REQUEST_7001']);

    const key = `k-${randomUUID()}`;
    const n = await entries();
    const k1 = await transfer({ to_account_id: w.reserve, amount: usd(200) }, w.operating, admin, { 'Idempotency-Key': key });
    const k2 = await transfer({ to_account_id: w.reserve, amount: usd(200) }, w.operating, admin, { 'Idempotency-Key': key });
    expect(k1.status).toBe(201);
    expect(k2.status).toBe(201);
    expect(k2.headers.get('idempotent-replayed')).toBe('true');
    expect(k2.body).toEqual(k1.body);
    expect(await entries()).toBe(n + 1);
  });

  it('refuses every bad input with a clear error_v2 and posts nothing', async () => {
    const n = await entries();
    const bad = async (body: Record<string, unknown>, from = w.operating) => refusal(await transfer(body, from));
    expect(await bad({ to_account_id: w.reserve, amount: usd(0) })).toEqual([422, 'REQUEST_7001']);
    expect(await bad({ to_account_id: w.reserve, amount: usd(-5) })).toEqual([422, 'REQUEST_7001']);
    expect(await bad({ to_account_id: w.reserve, amount: usd(1.5) })).toEqual([422, 'REQUEST_7001']);
    expect(await bad({ to_account_id: w.reserve, amount: usd(100), extra: 1 })).toEqual([422, 'REQUEST_7001']);
    expect(await bad({ to_account_id: w.reserve, amount: { amount: 100, currency: 'EUR' } })).toEqual([422, 'TREASURY_7002']);
    const euro = await openAccount(t.db, a.businessId, 'RESERVE', 'Euro reserve', true, new Date(NOW), 'EUR');
    expect(await bad({ to_account_id: euro, amount: usd(100) })).toEqual([422, 'TREASURY_7002']);
    expect(await bad({ to_account_id: w.operating, amount: usd(100) })).toEqual([422, 'TREASURY_7003']);
    const poor = await transfer({ to_account_id: w.operating, amount: usd(1_000_000_000) }, w.reserve);
    expect(refusal(poor)).toEqual([422, 'TREASURY_7004']);
    expect((poor.body as { error_v2: { errors: { amount: string } } }).error_v2.errors.amount).toMatch(/^[\d,.]+ USD is available$/);
    expect(await bad({ to_account_id: unverified, amount: usd(100) })).toEqual([422, 'TREASURY_7007']);
    expect(await bad({ from_bank_account_id: unverified, to_account_id: w.operating, amount: usd(100) })).toEqual([422, 'TREASURY_7007']);
    expect(await bad({ to_account_id: randomUUID(), amount: usd(100) })).toEqual([404, 'REQUEST_7004']);
    const preview = await request(t.app, 'POST', `${T}/business-accounts/${w.reserve}/transfers/preview`, {
      token: admin, body: { to_account_id: w.operating, amount: usd(1_000_000_000) },
    });
    expect(refusal(preview)).toEqual([422, 'TREASURY_7004']);
    expect(await entries()).toBe(n);
  });

  it('answers 404 for another business\'s accounts and transfers', async () => {
    const theirs = await request<TransferAnswer>(t.app, 'POST', `${T}/business-accounts/${bw.operating}/transfers`, {
      token: bOwner, body: { to_account_id: bw.reserve, amount: usd(100) },
    });
    expect(theirs.status).toBe(201);
    const n = await entries(b.businessId);
    expect(refusal(await transfer({ to_account_id: w.reserve, amount: usd(1) }, bw.operating))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await transfer({ to_account_id: bw.operating, amount: usd(1) }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'POST', `${T}/business-accounts/${w.operating}/transfers/${theirs.body.id}/cancel`, { token: admin }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'POST', `${T}/business-accounts/${bw.operating}/transfers/${theirs.body.id}/cancel`, { token: admin }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'GET', `${T}/business-accounts/${bw.operating}/actions`, { token: admin }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'GET', `${T}/business-accounts/${bw.operating}/transfers`, { token: admin }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'PATCH', `${T}/business-accounts/${bw.operating}`, { token: admin, body: { name: 'Mine' } }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `${T}/business-accounts/${bw.reserve}`, { token: admin }))).toEqual([404, 'REQUEST_7004']);
    expect((await accounts()).has(bw.operating)).toBe(false);
    expect(await entries(b.businessId)).toBe(n);
  });

  it('fails a transfer whose bank account is no longer verified when it comes due (the hold released)', async () => {
    const other = await linkBank(t.db, a.businessId, { name: 'Old checking' });
    const before = (await accounts()).get(w.operating)!.balance.amount;
    const made = await created({ to_account_id: other, amount: usd(1_000) });
    await t.db.query("UPDATE bank_accounts SET status = 'FAILED', verified_at = NULL WHERE id = $1", [other]);
    expect(await settleDueTransfers(t.db, new Date(`${made.expected_settlement_date}T12:00:00Z`))).toMatchObject({ failed: 1 });
    const list = await request<{ data: TransferAnswer[] }>(t.app, 'GET', `${T}/business-accounts/${w.operating}/transfers?page_size=200`, { token: admin });
    expect(list.body.data.find((x) => x.id === made.id)).toMatchObject({ status: 'FAILED', failure_reason: expect.stringMatching(/no longer verified/) });
    expect((await accounts()).get(w.operating)).toMatchObject({ balance: usd(before) });
  });

  it('lists an account\'s activity newest first with the balance after each entry, page by page', async () => {
    const all: { amount: { amount: number }; balance_after: { amount: number } }[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `?page_size=3&cursor=${cursor}` : '?page_size=3';
      const res = await request<{ data: typeof all; page: { next: string | null } }>(t.app, 'GET', `${T}/business-accounts/${w.operating}/actions${q}`, { token: admin });
      expect(res.status, res.text).toBe(200);
      all.push(...res.body.data);
      cursor = res.body.page.next;
    } while (cursor);
    const balance = (await accounts()).get(w.operating)!.balance.amount;
    expect(all[0]!.balance_after.amount).toBe(balance);
    for (let i = 0; i + 1 < all.length; i++) expect(all[i + 1]!.balance_after.amount).toBe(all[i]!.balance_after.amount - all[i]!.amount.amount);
    expect(all[all.length - 1]!.balance_after.amount).toBe(all[all.length - 1]!.amount.amount);
    expect(refusal(await request(t.app, 'GET', `${T}/business-accounts/${w.operating}/actions?cursor=nope`, { token: admin }))).toEqual([422, 'REQUEST_7001']);
  });

  it('opens, renames, makes primary and closes wallet accounts', async () => {
    const res = await request<BusinessAccount>(t.app, 'POST', `${T}/business-accounts`, { token: admin, body: { name: 'Tax reserve', kind: 'RESERVE', currency: 'USD' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'Tax reserve', kind: 'RESERVE', is_primary: false, balance: usd(0) });
    const id = res.body.uuid;
    const renamed = await request(t.app, 'PATCH', `${T}/business-accounts/${id}`, { token: admin, body: { name: 'Taxes', is_primary: true } });
    expect(renamed.body).toMatchObject({ name: 'Taxes', is_primary: true });
    expect((await accounts()).get(w.reserve)).toMatchObject({ is_primary: false });
    expect(refusal(await request(t.app, 'DELETE', `${T}/business-accounts/${id}`, { token: admin }))).toEqual([409, 'TREASURY_7010']);
    await request(t.app, 'PATCH', `${T}/business-accounts/${w.reserve}`, { token: admin, body: { is_primary: true } });
    expect(refusal(await request(t.app, 'DELETE', `${T}/business-accounts/${w.reserve}`, { token: admin }))).toEqual([409, 'TREASURY_7010']);
    const closed = await request(t.app, 'DELETE', `${T}/business-accounts/${id}`, { token: admin });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body).toEqual({ uuid: id, deleted: true });
    expect((await accounts()).has(id)).toBe(false);
  });

  it('reads and changes the wallet settings', async () => {
    const s = await request(t.app, 'GET', '/v1/auth/wallet/settings', { token: admin });
    expect(s.body).toEqual({ yield_rate_bps: 0, external_transfer_fee: 250, external_settlement_days: 2 });
    const u = await request(t.app, 'PATCH', '/v1/auth/wallet/settings', { token: admin, body: { yield_rate_bps: 450 } });
    expect(u.body).toEqual({ yield_rate_bps: 450, external_transfer_fee: 250, external_settlement_days: 2 });
    expect(refusal(await request(t.app, 'PATCH', '/v1/auth/wallet/settings', { token: admin, body: { yield_rate_bps: 5000 } }))).toEqual([422, 'REQUEST_7001']);
  });

  it('accrues the investment yield once per account and day, catching up missed days', async () => {
    await request(t.app, 'PATCH', '/v1/auth/wallet/settings', { token: admin, body: { yield_rate_bps: 500 } });
    const opened = new Date('2026-11-25T09:00:00Z');
    const inv = await openAccount(t.db, a.businessId, 'INVESTMENT', 'Treasury bills', true, opened);
    await fundAccount(t.db, a.businessId, inv, 1_000_000, opened);
    const first = await accrueYield(t.db, new Date(NOW), a.businessId);
    expect(first.days).toBe(5); // 25th to 29th
    expect(first.accrued).toBeGreaterThan(5 * 136);
    expect(await accrueYield(t.db, new Date(NOW), a.businessId)).toEqual({ days: 0, accrued: 0 });
    const keys = await t.db.query<{ k: string }>(`SELECT idem_key AS k FROM journal_entries WHERE business_id = $1 AND kind = 'YIELD_ACCRUAL' ORDER BY k`, [a.businessId]);
    expect(keys.map((k) => k.k)).toEqual(['25', '26', '27', '28', '29'].map((d) => `yield:${inv}:2026-11-${d}`));
    const res = await request<{ accounts: unknown[] }>(t.app, 'GET', `${T}/investment-accounts`, { token: admin });
    expect(res.status, res.text).toBe(200);
    const [account] = res.body.accounts.map((x) => investmentAccountSchema.parse(x));
    expect(account).toMatchObject({
      uuid: inv, kind: 'INVESTMENT', yield_rate_bps: 500, balance: usd(1_000_000 + first.accrued),
      accrued_total: usd(first.accrued), accrued_this_month: usd(first.accrued), last_accrual_date: '2026-11-29',
    });
  });

  it('a yield day keeps the rate it accrued at when the rate changes, and /actions says it', async () => {
    const opened = new Date('2026-11-26T09:00:00Z');
    const inv = await openAccount(t.db, a.businessId, 'INVESTMENT', 'Money market', false, opened);
    await fundAccount(t.db, a.businessId, inv, 2_000_000, opened);
    await request(t.app, 'PATCH', '/v1/auth/wallet/settings', { token: admin, body: { yield_rate_bps: 400 } });
    expect((await accrueYield(t.db, new Date('2026-11-28T01:00:00Z'), a.businessId)).days).toBeGreaterThanOrEqual(2); // 26th, 27th
    await request(t.app, 'PATCH', '/v1/auth/wallet/settings', { token: admin, body: { yield_rate_bps: 150 } });
    await accrueYield(t.db, new Date(NOW), a.businessId); // 28th, 29th
    const res = await request<{ data: unknown[] }>(t.app, 'GET', `${T}/business-accounts/${inv}/actions`, { token: admin });
    expect(res.status, res.text).toBe(200);
    const rows = res.body.data.map((x) => accountActionSchema.parse(x));
    expect(rows.map((r) => [r.kind, r.effective_date, r.yield_rate_bps])).toEqual([
      ['YIELD_ACCRUAL', '2026-11-29', 150], ['YIELD_ACCRUAL', '2026-11-28', 150],
      ['YIELD_ACCRUAL', '2026-11-27', 400], ['YIELD_ACCRUAL', '2026-11-26', 400],
      ['FUNDING', '2026-11-26', null],
    ]);
    // Each day's amount is the one its rate gives: the later, lower rate earns less on a larger balance.
    expect(rows[0]!.amount.amount).toBeLessThan(rows[2]!.amount.amount);
  });
});

describe.each(await testDatabases())('business currencies on %s', (kind) => {
  const t = useTestApp(kind, { now: () => NOW });
  let f: Fixture;
  let admin: string;
  const put = (currencies: unknown, token = admin) => request(t.app, 'PUT', '/v1/auth/businesses/currencies', { token, body: { currencies } });

  beforeAll(async () => {
    f = await makeBusiness(t.db, { operating: {} });
    admin = await signIn(t.app, f.email('admin'));
  });
  afterEach(async () => {
    const report = await checkLedger(t.db, f.businessId);
    expect(report.ok, JSON.stringify(report)).toBe(true);
  });

  it('opens a primary OPERATING account per new currency, keeps the home one, and drops only empty currencies', async () => {
    const [home] = await t.db.query<{ currency: string }>('SELECT currency FROM businesses WHERE id = $1', [f.businessId]);
    const other = home!.currency === 'EUR' ? 'GBP' : 'EUR';
    const first = await put([other, home!.currency]);
    expect(first.status, first.text).toBe(200);
    expect(first.body.currencies.map((c: { currency: string }) => c.currency)).toEqual([home!.currency, other]);
    for (const c of first.body.currencies) expect(businessAccountSchema.parse(c.primary_account)).toMatchObject({ kind: 'OPERATING', is_primary: true, balance: { amount: 0, currency: c.currency } });
    const again = await put([home!.currency, other, other]);
    expect(again.body).toEqual(first.body);

    expect(refusal(await put([other]))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await put([home!.currency, 'ZZZ']))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await put([]))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await put([home!.currency], await signIn(t.app, f.email('employee'))))).toEqual([403, 'TREASURY_7001']);

    const foreign = first.body.currencies[1].primary_account.uuid as string;
    await fundAccount(t.db, f.businessId, foreign, 500, new Date(NOW), other);
    expect(refusal(await put([home!.currency]))).toEqual([409, 'TREASURY_7010']);
    await t.db.transaction(async (tx) => {
      const funding = await systemAccount(tx, f.businessId, 'FUNDING', other);
      await postEntry(tx, { businessId: f.businessId, kind: 'TEST', key: `out-${randomUUID()}`, currency: other, at: new Date(NOW),
        lines: [{ account: foreign, amount: -500 }, { account: funding, amount: 500 }] });
    });
    const dropped = await put([home!.currency]);
    expect(dropped.status, dropped.text).toBe(200);
    expect(dropped.body.currencies).toHaveLength(1);
    const list = await request<{ accounts: BusinessAccount[] }>(t.app, 'GET', `${T}/business-accounts`, { token: admin });
    expect(list.body.accounts.map((x) => x.balance.currency)).toEqual([home!.currency]);
  });
});
