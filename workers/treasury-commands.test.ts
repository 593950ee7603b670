import { describe, expect, it } from 'vitest';
import type { WalletAccount } from '../schema/entities/wallet-account.ts';
import type { WalletTransfer } from '../schema/entities/wallet-transfer.ts';
import { jsonResponse } from '../sync/testing.ts';
import type { MirrorRuntime } from './mirror-runtime.ts';
import { testUuid } from './test-fixtures.ts';
import { commandId, entryOf, feedChange, mirrorDevice, outboxOver, serverRows } from './testing/mirror-device.ts';

/**
 * Treasury transfers in the worker (issue 30): a transfer confirmed offline shows at once PENDING
 * with its hold taken from the source (reference data `wallet_accounts`), survives a restart, and is
 * sent once under its client id and the command's Idempotency-Key; a refusal (not enough money)
 * gives the hold back and keeps the transfer with the server's words; a cancel queued behind the
 * create goes after it and returns the hold at once.
 */
const ACTOR = { user_id: testUuid(2, 1), business_id: testUuid(0xb, 1) };
const OPERATING = testUuid(0xa, 1);
const RESERVE = testUuid(0xa, 2);
const TRANSFER = testUuid(0xc, 1);
const AT = '2026-11-29T12:00:00.000Z';

const device = (name: string) => mirrorDevice(name, ACTOR);
const accounts = (rt: MirrorRuntime) => Object.fromEntries(rt.referenceData().wallet_accounts.map((a) => [a.name, a]));
const transfers = (rt: MirrorRuntime) => rt.referenceData().wallet_transfers;

const wallet = (id: string, name: string, over: Partial<WalletAccount> = {}): WalletAccount => ({
  id, name, kind: name === 'Operating' ? 'OPERATING' : 'RESERVE', currency: 'USD', balance: 1_000_000, pending_in: 0, pending_out: 0,
  is_primary: name === 'Operating', history: [{ day: '2026-11-28', closing: 1_000_000 }], created_at: AT,
  business_id: ACTOR.business_id, change_seq: 3, updated_at: AT, deleted: false, ...over,
});
const serverTransfer = (over: Partial<WalletTransfer> = {}): WalletTransfer => ({
  id: TRANSFER, from_account_id: OPERATING, from_name: 'Operating', to_account_id: RESERVE, to_name: 'Reserve', amount: 250_000, fee: 0,
  currency: 'USD', memo: 'Quarter reserve', status: 'PENDING', expected_settlement_date: '2026-11-30', settled_at: null, canceled_at: null,
  failed_at: null, failure_reason: null, created_by: ACTOR.user_id, automation_policy_id: null, created_at: AT,
  business_id: ACTOR.business_id, change_seq: 10, updated_at: AT, deleted: false, ...over,
});
const { business_id: _b, change_seq: _s, updated_at: _u, deleted: _d, ...answer } = serverTransfer();

const create = {
  id: TRANSFER, wallet_account_id: OPERATING, to_account_id: RESERVE, amount: { amount: 250_000, currency: 'USD' as const }, memo: 'Quarter reserve',
  expected_fee: { amount: 0, currency: 'USD' }, from_name: 'Operating', to_name: 'Reserve', expected_settlement_date: '2026-11-30',
};
const body = { id: TRANSFER, to_account_id: RESERVE, amount: { amount: 250_000, currency: 'USD' }, memo: 'Quarter reserve', expected_fee: { amount: 0, currency: 'USD' } };

async function withAccounts(name: string) {
  const open = device(name);
  const rt = await open();
  await serverRows(rt, [feedChange('wallet_accounts', wallet(OPERATING, 'Operating')), feedChange('wallet_accounts', wallet(RESERVE, 'Reserve', { change_seq: 4 }))]);
  await expect.poll(() => rt.referenceData().wallet_accounts.length).toBe(2);
  return { open, rt };
}

describe('a transfer confirmed offline', () => {
  it('shows PENDING with its hold at once, survives a restart, is sent once, and the feed’s rows replace it with no second hold', async () => {
    const { open, rt } = await withAccounts('transfer-offline');
    const { result } = await rt.commands.run('transfer.create', create);
    expect(result).toMatchObject({ ok: true, affected: 1 });
    expect(transfers(rt)).toEqual([expect.objectContaining({ id: TRANSFER, status: 'PENDING', amount: 250_000, fee: 0, from_name: 'Operating', to_name: 'Reserve', pending: 'pending' })]);
    expect(accounts(rt).Operating).toMatchObject({ balance: 750_000, pending_out: 250_000, pending: 'pending' });
    expect(accounts(rt).Reserve).toMatchObject({ balance: 1_000_000, pending_in: 250_000 });
    await rt.close();

    const again = await open();
    await expect.poll(() => transfers(again).length).toBe(1);
    expect(accounts(again).Operating).toMatchObject({ balance: 750_000, pending_out: 250_000 });
    const net = outboxOver(again, [jsonResponse(201, answer)]);
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([`POST /v1/auth/treasury/business-accounts/${OPERATING}/transfers`]);
    expect(net.transport.requests[0]!.body).toEqual(body);
    expect(net.transport.requests[0]!.headers['idempotency-key']).toBe(commandId(result));
    // The feed brings the server's rows: the hold is counted once (the server's), the marks gone.
    await serverRows(again, [
      feedChange('wallet_transfers', serverTransfer()),
      feedChange('wallet_accounts', wallet(OPERATING, 'Operating', { balance: 750_000, pending_out: 250_000, change_seq: 11 })),
      feedChange('wallet_accounts', wallet(RESERVE, 'Reserve', { pending_in: 250_000, change_seq: 12 })),
    ]);
    await expect.poll(() => accounts(again).Operating?.change_seq).toBe(11);
    expect(accounts(again).Operating).toMatchObject({ balance: 750_000, pending_out: 250_000, pending: null });
    expect(accounts(again).Reserve).toMatchObject({ pending_in: 250_000 });
    expect(transfers(again)).toEqual([expect.objectContaining({ id: TRANSFER, status: 'PENDING', change_seq: 10, pending: null })]);
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests).toHaveLength(1);
  });

  it('refused for want of money: the hold comes back and the transfer stays, failed, in the server’s words', async () => {
    const { rt } = await withAccounts('transfer-refused');
    await rt.commands.run('transfer.create', create);
    const message = 'There is not enough money in this account for that.';
    const net = outboxOver(rt, [jsonResponse(422, { error_v2: { error_code: 'TREASURY_7004', message, errors: { available: '$1,200.00' } } })]);
    net.outbox.kick();
    await net.outbox.whenIdle();
    await expect.poll(() => transfers(rt)[0]?.failure?.message ?? null).not.toBeNull();
    expect(transfers(rt)[0]).toMatchObject({ id: TRANSFER, amount: 250_000, memo: 'Quarter reserve', failure: { message } });
    // The figures stay with the outbox entry, for the page to say (refusal-text.ts).
    const entry = await entryOf(rt, transfers(rt)[0]!.failure!.command_id);
    expect(entry.last_error).toMatchObject({ error_code: 'TREASURY_7004', errors: { available: '$1,200.00' } });
    expect(accounts(rt).Operating).toMatchObject({ balance: 1_000_000, pending_out: 0 });
    expect(accounts(rt).Reserve).toMatchObject({ pending_in: 0 });
  });

  it('a cancel queued behind the create goes after it; the transfer shows CANCELED and the hold is back at once', async () => {
    const { rt } = await withAccounts('transfer-cancel');
    await rt.commands.run('transfer.create', create);
    const cancel = await rt.commands.run('transfer.cancel', {
      transfer_id: TRANSFER, wallet_account_id: OPERATING, from_account_id: OPERATING, to_account_id: RESERVE, amount: 250_000, fee: 0, canceled_at: AT,
    });
    expect(cancel.result).toMatchObject({ ok: true });
    expect(transfers(rt)[0]).toMatchObject({ status: 'CANCELED', canceled_at: AT });
    expect(accounts(rt).Operating).toMatchObject({ balance: 1_000_000, pending_out: 0 });
    expect(accounts(rt).Reserve).toMatchObject({ pending_in: 0 });
    const { business_id: _b2, change_seq: _s2, updated_at: _u2, deleted: _d2, ...canceled } = serverTransfer({ status: 'CANCELED', canceled_at: AT });
    const net = outboxOver(rt, [jsonResponse(201, answer), jsonResponse(200, canceled)]);
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      `POST /v1/auth/treasury/business-accounts/${OPERATING}/transfers`,
      `POST /v1/auth/treasury/business-accounts/${OPERATING}/transfers/${TRANSFER}/cancel`,
    ]);
    // A settled transfer cannot be canceled: refused before queueing.
    await serverRows(rt, [feedChange('wallet_transfers', serverTransfer({ status: 'SETTLED', settled_at: AT, change_seq: 20 }))]);
    await expect.poll(() => transfers(rt)[0]?.status).toBe('SETTLED');
    const late = await rt.commands.run('transfer.cancel', {
      transfer_id: TRANSFER, wallet_account_id: OPERATING, from_account_id: OPERATING, to_account_id: RESERVE, amount: 250_000, fee: 0, canceled_at: AT,
    });
    expect(late.result).toMatchObject({ ok: false, error: { error_code: 'TREASURY_7005' } });
  });
});
