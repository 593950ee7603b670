import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { automationPolicySchema } from '../../schema/api/calls-treasury.ts';
import { ERROR_CATALOGUE } from '../../schema/errors.ts';
import { checkLedger } from '../ledger/check.ts';
import { fund, openWalletAccount, type WalletKind } from '../ledger/ledger.ts';
import { runDuePolicies } from '../domain/treasury/automation-job.ts';
import { lockTransfer, settleTransfer } from '../domain/treasury/transfer-core.ts';
import { writeMirrored } from '../domain/collections.ts';
import { testDatabases } from '../test-db.ts';
import { refusal, request, signIn, useTwoBusinesses } from '../test-fixtures.ts';
import { useTestApp } from '../test-app.ts';

/**
 * Issue 30: automation policies (sweeps) — the five calls and the daily job on PGlite and
 * PostgreSQL: admins only, bad input refused naming the field, another business's ids 404; a
 * sweep moves the excess once a day, a top-up the shortfall, a refusal is a FAILED run that is
 * acknowledged once; the ledger checks out after each.
 */
const BASE = '/v1/auth/wallet/automation-policy';
const usd = (amount: number) => ({ amount, currency: 'USD' });

describe.each(await testDatabases())('wallet automation policies on %s', (kind) => {
  const clock = { ms: Date.parse('2026-11-16T09:00:00Z') };
  const t = useTestApp(kind, { now: () => clock.ms });
  const biz = useTwoBusinesses(t, ['owner', 'admin', 'bookkeeper', 'employee']);
  const { tokens } = biz;
  const at = () => new Date(clock.ms);
  let businessId: string;
  let verifiedBank: string;
  let unverifiedBank: string;
  let euroReserve: string;

  const open = (k: WalletKind, name: string, currency = 'USD') =>
    t.db.transaction((tx) => openWalletAccount(tx, { businessId, kind: k, currency, name }));
  const deposit = (account: string, amount: number) =>
    t.db.transaction((tx) => fund(tx, { businessId, account, amount, currency: 'USD', key: `deposit:${randomUUID()}`, at: at() }));
  const balance = async (id: string) =>
    Number((await t.db.query<{ b: string }>('SELECT balance::text AS b FROM ledger_accounts WHERE id = $1', [id]))[0]!.b);
  const bankAccount = async (status: 'VERIFIED' | 'UNVERIFIED', currency = 'USD') => {
    const id = randomUUID();
    await t.db.query(
      `INSERT INTO bank_accounts (id, business_id, name, account_type, routing_number, account_number_enc, account_last4, currency, status, verified_at)
       VALUES ($1, $2, 'Chase', 'CHECKING', '021000021', 'v1.x.y.z', '6789', $3, $4, $5)`,
      [id, businessId, currency, status, status === 'VERIFIED' ? at().toISOString() : null],
    );
    return id;
  };
  const put = (body: Record<string, unknown>, token = tokens.admin) => request(t.app, 'PUT', BASE, { token, body });
  const sweep = (account: string, target: string, threshold = 100_000, to = 50_000) =>
    ({ kind: 'SWEEP_ABOVE', account_id: account, target_account_id: target, threshold: usd(threshold), target: usd(to) });
  const topUp = (account: string, source: string, threshold = 20_000, to = 50_000) =>
    ({ kind: 'TOP_UP_BELOW', account_id: account, target_account_id: source, threshold: usd(threshold), target: usd(to) });
  const created = async (body: Record<string, unknown>) => {
    const res = await put(body);
    expect(res.status, res.text).toBe(201);
    return automationPolicySchema.parse(res.body);
  };
  const listed = async (id: string) => {
    const res = await request(t.app, 'GET', BASE, { token: tokens.admin });
    expect(res.status, res.text).toBe(200);
    return (res.body.policies as { id: string }[]).map((p) => automationPolicySchema.parse(p)).find((p) => p.id === id);
  };
  const ledgerOk = async () => {
    const report = await checkLedger(t.db, businessId);
    expect(report.ok, JSON.stringify(report)).toBe(true);
  };
  const transfersOf = (policyId: string) => t.db.query<{ id: string; amount: string; fee: string; from_account_id: string; to_account_id: string; status: string; run_day: string }>(
    `SELECT id, amount::text, fee::text, from_account_id, to_account_id, status, to_char(automation_run_day, 'YYYY-MM-DD') AS run_day
       FROM wallet_transfers WHERE automation_policy_id = $1 ORDER BY automation_run_day`, [policyId],
  );
  /** Moves the clock (tokens last 12 h on it: the admin signs in again). */
  const setClock = async (iso: string) => {
    clock.ms = Date.parse(iso);
    tokens.admin = await signIn(t.app, biz.a.email('admin'));
  };
  const job = async () => {
    const { results, errors } = await runDuePolicies(t.db, at());
    expect(errors).toEqual([]);
    return results;
  };

  beforeAll(async () => {
    businessId = biz.a.businessId;
    verifiedBank = await bankAccount('VERIFIED');
    unverifiedBank = await bankAccount('UNVERIFIED');
    euroReserve = await open('RESERVE', 'Euro reserve', 'EUR');
  });

  it('admins create, replace, list and delete a policy; everyone else is refused first', async () => {
    const operating = await open('OPERATING', 'Operating 1');
    const reserve = await open('RESERVE', 'Reserve 1');
    for (const role of ['employee', 'bookkeeper'] as const) {
      const token = tokens[role];
      expect(refusal(await request(t.app, 'GET', BASE, { token }))).toEqual([403, 'TREASURY_7001']);
      expect(refusal(await put(sweep(operating, reserve), token))).toEqual([403, 'TREASURY_7001']);
      expect(refusal(await request(t.app, 'DELETE', `${BASE}/${randomUUID()}`, { token }))).toEqual([403, 'TREASURY_7001']);
      expect(refusal(await request(t.app, 'POST', `${BASE}/acknowledge-failed-runs`, { token, body: { policy_ids: [randomUUID()] } }))).toEqual([403, 'TREASURY_7001']);
      expect(refusal(await request(t.app, 'POST', `${BASE}/sweep-status`, { token, body: { run: true } }))).toEqual([403, 'TREASURY_7001']);
    }
    const policy = await created(sweep(operating, reserve));
    expect(policy).toMatchObject({
      kind: 'SWEEP_ABOVE', account_id: operating, target_account_id: reserve, threshold: usd(100_000), target: usd(50_000),
      enabled: true, runs: [], unacknowledged_failures: 0,
    });
    // Replaced by id (200): a linked, verified bank account as the target, answered by its bank_accounts id.
    const replaced = await put({ ...sweep(operating, verifiedBank, 200_000, 0), id: policy.id, enabled: false });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ id: policy.id, target_account_id: verifiedBank, threshold: usd(200_000), target: usd(0), enabled: false });
    expect(await listed(policy.id)).toMatchObject({ target_account_id: verifiedBank, enabled: false });
    // The owner is an admin too; a client-chosen id creates.
    const own = randomUUID();
    const byOwner = await put({ ...topUp(reserve, operating), id: own }, tokens.owner);
    expect([byOwner.status, byOwner.body.id]).toEqual([201, own]);
    const del = await request(t.app, 'DELETE', `${BASE}/${policy.id}`, { token: tokens.admin });
    expect([del.status, del.body]).toEqual([200, { id: policy.id, deleted: true }]);
    expect(refusal(await request(t.app, 'DELETE', `${BASE}/${policy.id}`, { token: tokens.admin }))).toEqual([404, 'REQUEST_7004']);
    expect(await listed(policy.id)).toBeUndefined();
    // A deleted policy's id is not taken again.
    expect(refusal(await put({ ...sweep(operating, reserve), id: policy.id }))).toEqual([404, 'REQUEST_7004']);
  });

  it('refuses bad input naming the field, and nothing is stored', async () => {
    const operating = await open('OPERATING', 'Operating 2');
    const reserve = await open('RESERVE', 'Reserve 2');
    const errorOf = async (body: Record<string, unknown>) => {
      const res = await put(body);
      return [res.status, res.body.error_v2?.error_code, res.body.error_v2?.errors ?? res.body.errors] as const;
    };
    for (const threshold of [usd(0), usd(-5), usd(10.5)]) {
      expect((await errorOf({ ...sweep(operating, reserve), threshold })).slice(0, 2)).toEqual([422, 'REQUEST_7001']);
    }
    expect((await errorOf({ ...sweep(operating, reserve), target: usd(-1) })).slice(0, 2)).toEqual([422, 'REQUEST_7001']);
    expect((await errorOf({ ...sweep(operating, reserve), extra: 1 })).slice(0, 2)).toEqual([422, 'REQUEST_7001']);
    expect((await errorOf({ ...sweep(operating, reserve), kind: 'SWEEP_BELOW' })).slice(0, 2)).toEqual([422, 'REQUEST_7001']);
    const same = await errorOf(sweep(operating, operating));
    expect(same.slice(0, 2)).toEqual([422, 'TREASURY_7009']);
    expect(JSON.stringify(same[2])).toContain('target_account_id');
    const otherCurrency = await errorOf(sweep(operating, euroReserve));
    expect(otherCurrency.slice(0, 2)).toEqual([422, 'TREASURY_7009']);
    expect(JSON.stringify(otherCurrency[2])).toMatch(/target_account_id.*EUR/);
    const euros = await errorOf({ ...sweep(operating, reserve), threshold: { amount: 100_000, currency: 'EUR' } });
    expect(euros.slice(0, 2)).toEqual([422, 'TREASURY_7002']);
    expect(JSON.stringify(euros[2])).toContain('threshold.currency');
    const sweepUp = await errorOf(sweep(operating, reserve, 100_000, 100_001));
    expect(sweepUp.slice(0, 2)).toEqual([422, 'TREASURY_7009']);
    expect(JSON.stringify(sweepUp[2])).toContain('target.amount');
    const topDown = await errorOf(topUp(operating, reserve, 50_000, 49_999));
    expect(topDown.slice(0, 2)).toEqual([422, 'TREASURY_7009']);
    expect(JSON.stringify(topDown[2])).toContain('target.amount');
    const unverified = await errorOf(sweep(operating, unverifiedBank));
    expect(unverified.slice(0, 2)).toEqual([422, 'TREASURY_7009']);
    expect(JSON.stringify(unverified[2])).toMatch(/target_account_id.*not verified/);
    const bankWatched = await errorOf(sweep(verifiedBank, operating));
    expect(bankWatched.slice(0, 2)).toEqual([422, 'TREASURY_7009']);
    expect(JSON.stringify(bankWatched[2])).toContain('account_id');
    expect((await errorOf(sweep(operating, randomUUID()))).slice(0, 2)).toEqual([404, 'REQUEST_7004']);
    // One live policy of a kind per account.
    await created(sweep(operating, reserve));
    const twin = await errorOf(sweep(operating, verifiedBank));
    expect(twin.slice(0, 2)).toEqual([422, 'TREASURY_7009']);
    expect(JSON.stringify(twin[2])).toContain('account_id');
    const rows = await t.db.query('SELECT 1 FROM automation_policies WHERE business_id = $1 AND account_id = $2', [businessId, operating]);
    expect(rows).toHaveLength(1);
  });

  it('the same create sent twice makes one policy: the repeat answers it (200); other figures on its key are refused', async () => {
    const operating = await open('OPERATING', 'Operating 9');
    const reserve = await open('RESERVE', 'Reserve 9');
    const first = await created(sweep(operating, reserve));
    const again = await put(sweep(operating, reserve));
    expect([again.status, again.body.id], again.text).toEqual([200, first.id]);
    expect(automationPolicySchema.parse(again.body)).toEqual(first);
    // enabled omitted means true: the same request spelled out is still a repeat.
    expect((await put({ ...sweep(operating, reserve), enabled: true })).status).toBe(200);
    for (const other of [sweep(operating, reserve, 100_000, 40_000), { ...sweep(operating, reserve), enabled: false }, sweep(operating, verifiedBank)]) {
      const res = await put(other);
      expect(refusal(res), res.text).toEqual([422, 'TREASURY_7009']);
      expect(res.body.error_v2.errors).toHaveProperty('account_id');
    }
    // A client-chosen id repeated replaces the same policy with the same values.
    const own = randomUUID();
    expect((await put({ ...topUp(operating, reserve), id: own })).status).toBe(201);
    expect((await put({ ...topUp(operating, reserve), id: own })).status).toBe(200);
    const rows = await t.db.query<{ kind: string; id: string }>(
      'SELECT kind, id FROM automation_policies WHERE business_id = $1 AND account_id = $2 AND NOT deleted ORDER BY kind', [businessId, operating],
    );
    expect(rows).toEqual([{ kind: 'SWEEP_ABOVE', id: first.id }, { kind: 'TOP_UP_BELOW', id: own }]);
    for (const id of [first.id, own]) await request(t.app, 'DELETE', `${BASE}/${id}`, { token: tokens.admin });
  });

  it("another business's accounts and policies are 404 and stay as they are", async () => {
    const operating = await open('OPERATING', 'Operating 3');
    const reserve = await open('RESERVE', 'Reserve 3');
    const policy = await created(sweep(operating, reserve));
    const b = biz.bOwner;
    expect(refusal(await put(sweep(operating, reserve), b))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await put({ ...sweep(operating, reserve), id: policy.id }, b))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `${BASE}/${policy.id}`, { token: b }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'POST', `${BASE}/acknowledge-failed-runs`, { token: b, body: { policy_ids: [policy.id] } }))).toEqual([404, 'REQUEST_7004']);
    expect((await request(t.app, 'GET', BASE, { token: b })).body).toEqual({ policies: [] });
    const status = await request(t.app, 'POST', `${BASE}/sweep-status`, { token: b, body: { run: true } });
    expect([status.status, status.body.policies]).toEqual([200, []]);
    expect(await listed(policy.id)).toMatchObject({ enabled: true, threshold: usd(100_000) });
    await request(t.app, 'DELETE', `${BASE}/${policy.id}`, { token: tokens.admin });
  });

  it('a sweep moves the excess once a day, and again the next day when there is more', async () => {
    await setClock('2026-11-17T09:00:00Z');
    const operating = await open('OPERATING', 'Operating 4');
    const reserve = await open('RESERVE', 'Reserve 4');
    await deposit(operating, 300_000);
    const policy = await created(sweep(operating, reserve));
    const before = await request(t.app, 'POST', `${BASE}/sweep-status`, { token: tokens.admin, body: {} });
    expect(before.body.policies.find((p: { id: string }) => p.id === policy.id)).toEqual({ id: policy.id, status: 'DUE', transfer_id: null });
    const results = (await job()).filter((r) => r.policyId === policy.id);
    expect(results).toMatchObject([{ outcome: 'MOVED', amount: 250_000 }]);
    expect(await balance(operating)).toBe(50_000);
    // Again the same day: by the job, or on demand: nothing more.
    expect((await job()).filter((r) => r.policyId === policy.id)).toEqual([]);
    const status = await request(t.app, 'POST', `${BASE}/sweep-status`, { token: tokens.admin, body: { run: true } });
    expect(status.status, status.text).toBe(200);
    expect(status.body.day).toBe('2026-11-17');
    expect(status.body.policies.find((p: { id: string }) => p.id === policy.id)).toEqual({ id: policy.id, status: 'MOVED', transfer_id: results[0]!.transferId });
    const transfers = await transfersOf(policy.id);
    expect(transfers).toMatchObject([{ amount: '250000', fee: '0', from_account_id: operating, to_account_id: reserve, status: 'PENDING', run_day: '2026-11-17' }]);
    await ledgerOk();
    // Settled, then the next day: 2,000.00 more came in, 2,000.00 goes out (down to the 500.00 target).
    await t.db.transaction((tx) => writeMirrored(tx, businessId, 1, async ({ seqs }) =>
      settleTransfer(tx, (await lockTransfer(tx, businessId, transfers[0]!.id))!, at(), seqs.first)));
    expect(await balance(reserve)).toBe(250_000);
    await setClock('2026-11-18T00:30:00Z');
    await deposit(operating, 200_000);
    const run = await request(t.app, 'POST', `${BASE}/sweep-status`, { token: tokens.admin, body: { run: true } });
    expect(run.body.policies.find((p: { id: string }) => p.id === policy.id)).toMatchObject({ status: 'MOVED' });
    expect((await transfersOf(policy.id)).map((x) => [x.amount, x.run_day])).toEqual([['250000', '2026-11-17'], ['200000', '2026-11-18']]);
    expect(await balance(operating)).toBe(50_000);
    // The day after: nothing above the threshold.
    await setClock('2026-11-19T00:30:00Z');
    expect((await job()).filter((r) => r.policyId === policy.id)).toMatchObject([{ outcome: 'NOTHING_TO_DO' }]);
    const runs = (await listed(policy.id))!.runs;
    expect(runs.map((r) => [r.run_day, r.status, r.amount?.amount ?? null])).toEqual([
      ['2026-11-19', 'NOTHING_TO_DO', null], ['2026-11-18', 'MOVED', 200_000], ['2026-11-17', 'MOVED', 250_000],
    ]);
    await ledgerOk();
  });

  it('a top-up moves the shortfall once, counting what is already on its way', async () => {
    await setClock('2026-11-17T10:00:00Z');
    const source = await open('OPERATING', 'Operating 5');
    const watched = await open('RESERVE', 'Reserve 5');
    await deposit(source, 100_000);
    await deposit(watched, 5_000);
    const policy = await created(topUp(watched, source));
    expect((await job()).filter((r) => r.policyId === policy.id)).toMatchObject([{ outcome: 'MOVED', amount: 45_000 }]);
    expect(await balance(source)).toBe(55_000);
    await ledgerOk();
    // Next day, still pending: 5,000 + 45,000 on its way is not below the threshold.
    await setClock('2026-11-18T10:00:00Z');
    expect((await job()).filter((r) => r.policyId === policy.id)).toMatchObject([{ outcome: 'NOTHING_TO_DO' }]);
    expect(await transfersOf(policy.id)).toHaveLength(1);
  });

  it('a refused run is FAILED with the reason, acknowledged once; a sweep to a bank pays its fee from the excess', async () => {
    await setClock('2026-11-17T11:00:00Z');
    const empty = await open('OPERATING', 'Operating 6');
    const watched = await open('RESERVE', 'Reserve 6');
    const policy = await created(topUp(watched, empty));
    const entriesBefore = (await checkLedger(t.db, businessId)).entries;
    expect((await job()).filter((r) => r.policyId === policy.id)).toMatchObject([{ outcome: 'FAILED', amount: 50_000 }]);
    expect((await checkLedger(t.db, businessId)).entries).toBe(entriesBefore);
    expect(await transfersOf(policy.id)).toEqual([]);
    const shown = (await listed(policy.id))!;
    expect(shown.unacknowledged_failures).toBe(1);
    expect(shown.runs[0]).toMatchObject({ status: 'FAILED', transfer_id: null, amount: usd(50_000), acknowledged_at: null });
    expect(shown.runs[0]!.failure_reason).toMatch(/Not enough funds in Operating 6/);
    const status = await request(t.app, 'POST', `${BASE}/sweep-status`, { token: tokens.admin, body: { run: true } });
    expect(status.body.policies.find((p: { id: string }) => p.id === policy.id)).toEqual({ id: policy.id, status: 'FAILED', transfer_id: null });
    const ack = await request(t.app, 'POST', `${BASE}/acknowledge-failed-runs`, { token: tokens.admin, body: { policy_ids: [policy.id] } });
    expect([ack.status, ack.body]).toEqual([200, { acknowledged: 1 }]);
    expect((await listed(policy.id))!.unacknowledged_failures).toBe(0);
    const again = await request(t.app, 'POST', `${BASE}/acknowledge-failed-runs`, { token: tokens.admin, body: { policy_ids: [policy.id] } });
    expect(refusal(again)).toEqual([409, 'TREASURY_7008']);
    expect(refusal(await request(t.app, 'POST', `${BASE}/acknowledge-failed-runs`, { token: tokens.admin, body: { policy_ids: [] } }))).toEqual([422, 'REQUEST_7001']);

    // A sweep to a linked bank account: the fee comes out of the excess, the account lands on its target.
    await t.db.query(`INSERT INTO wallet_settings (business_id, external_transfer_fee, external_settlement_days) VALUES ($1, 250, 2)`, [businessId]);
    const operating = await open('OPERATING', 'Operating 7');
    await deposit(operating, 160_000);
    const toBank = await created(sweep(operating, verifiedBank));
    expect((await job()).filter((r) => r.policyId === toBank.id)).toMatchObject([{ outcome: 'MOVED', amount: 109_750 }]);
    expect(await balance(operating)).toBe(50_000);
    const [transfer] = await t.db.query<{ fee: string; date: string }>(
      `SELECT fee::text, to_char(expected_settlement_date, 'YYYY-MM-DD') AS date FROM wallet_transfers WHERE automation_policy_id = $1`, [toBank.id]);
    expect(transfer).toEqual({ fee: '250', date: '2026-11-19' });
    // The bank account is no longer verified the next day: the run fails with the reason.
    await setClock('2026-11-18T11:00:00Z');
    await deposit(operating, 100_000);
    await t.db.query(`UPDATE bank_accounts SET status = 'UNVERIFIED', verified_at = NULL WHERE id = $1`, [verifiedBank]);
    expect((await job()).filter((r) => r.policyId === toBank.id)).toMatchObject([{ outcome: 'FAILED', reason: ERROR_CATALOGUE.TREASURY_7007.message }]);
    await t.db.query(`UPDATE bank_accounts SET status = 'VERIFIED', verified_at = now() WHERE id = $1`, [verifiedBank]);
    await t.db.query('DELETE FROM wallet_settings WHERE business_id = $1', [businessId]);
    await ledgerOk();
  });

  it('a disabled policy is not run, and says so', async () => {
    await setClock('2026-11-20T11:00:00Z');
    const operating = await open('OPERATING', 'Operating 8');
    const reserve = await open('RESERVE', 'Reserve 8');
    await deposit(operating, 300_000);
    const policy = await created({ ...sweep(operating, reserve), enabled: false });
    const status = await request(t.app, 'POST', `${BASE}/sweep-status`, { token: tokens.admin, body: { run: true } });
    expect(status.body.policies.find((p: { id: string }) => p.id === policy.id)).toEqual({ id: policy.id, status: 'DISABLED', transfer_id: null });
    expect(await transfersOf(policy.id)).toEqual([]);
    expect(await balance(operating)).toBe(300_000);
    // Enabled again, but its target account was closed meanwhile: the run fails, nothing moves.
    expect((await put({ ...sweep(operating, reserve), id: policy.id })).status).toBe(200);
    await t.db.query('UPDATE ledger_accounts SET deleted = true WHERE id = $1', [reserve]);
    expect((await job()).filter((r) => r.policyId === policy.id)).toMatchObject([{ outcome: 'FAILED', reason: 'An account of this policy was closed.' }]);
    expect(await balance(operating)).toBe(300_000);
    await ledgerOk();
  });
});
