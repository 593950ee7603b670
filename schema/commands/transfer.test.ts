import { describe, expect, it } from 'vitest';
import { walletAccountSchema, type WalletAccount } from '../entities/wallet-account.ts';
import { walletTransferSchema, type WalletTransfer } from '../entities/wallet-transfer.ts';
import { transferBodySchema } from '../api/calls-treasury.ts';
import { COMMANDS } from './index.ts';
import { applyHold, transferCancel, transferCreate } from './transfer.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const OPERATING = id(1);
const RESERVE = id(2);
const BANK = id(3);
const AT = '2026-11-29T12:00:00.000Z';
const actor = { user_id: id(7), business_id: id(9) };

const account = (over: Partial<WalletAccount> = {}): WalletAccount => walletAccountSchema.parse({
  id: OPERATING, name: 'Operating', kind: 'OPERATING', currency: 'USD', balance: 1_000_000, pending_in: 0, pending_out: 0, is_primary: true,
  history: [], created_at: AT, business_id: id(9), change_seq: 4, updated_at: AT, deleted: false, ...over,
});

const create = (over: Record<string, unknown> = {}) => transferCreate.args.parse({
  id: id(20), wallet_account_id: OPERATING, to_account_id: BANK, amount: { amount: 250_000, currency: 'USD' }, memo: 'Payroll float',
  expected_fee: { amount: 500, currency: 'USD' }, from_name: 'Operating', to_name: 'Chase ••6789', expected_settlement_date: '2026-12-01', ...over,
});

describe('transfer.create', () => {
  it('is registered and shows a PENDING row at once (a valid mirrored row) under the client id', () => {
    expect(COMMANDS['transfer.create']).toBe(transferCreate);
    const args = create();
    const blank = transferCreate.blank!(args, { id: args.id, actor, at: AT });
    const row = transferCreate.apply(blank, args);
    expect(walletTransferSchema.parse(row)).toEqual(row);
    expect(row).toMatchObject({
      id: id(20), from_account_id: OPERATING, to_account_id: BANK, amount: 250_000, fee: 500, currency: 'USD', status: 'PENDING',
      memo: 'Payroll float', expected_settlement_date: '2026-12-01', created_by: actor.user_id, to_name: 'Chase ••6789',
    });
    expect(transferCreate.entityIds(args)).toEqual([id(20)]);
  });

  it('sends the call body only (the client id and the previewed fee), on the path of the wallet account', () => {
    const req = transferCreate.request(create());
    expect(req.params).toEqual({ wallet_account_uuid: OPERATING });
    expect(transferBodySchema.strict().parse(req.body)).toEqual({
      id: id(20), to_account_id: BANK, amount: { amount: 250_000, currency: 'USD' }, memo: 'Payroll float', expected_fee: { amount: 500, currency: 'USD' },
    });
    expect(transferCreate.confirm).toBe('change_seq');
  });

  it('a pull from a bank account: the source is the bank account, the path the receiving wallet account', () => {
    const args = create({ from_bank_account_id: BANK, to_account_id: OPERATING, expected_fee: { amount: 0, currency: 'USD' } });
    const row = transferCreate.blank!(args, { id: args.id, actor, at: AT });
    expect(row).toMatchObject({ from_account_id: BANK, to_account_id: OPERATING });
    expect(transferCreate.request(args).params).toEqual({ wallet_account_uuid: OPERATING });
  });

  it('takes the hold (amount plus fee) from the source at once and shows it pending in at the destination', () => {
    const args = create({ to_account_id: RESERVE, expected_fee: { amount: 0, currency: 'USD' } });
    const also = transferCreate.also!.wallet_accounts!;
    expect(also.ids(args, { get: () => undefined, matching: () => [] })).toEqual([OPERATING, RESERVE]);
    const from = also.apply(account(), args);
    expect(from).toMatchObject({ balance: 750_000, pending_out: 250_000 });
    const to = also.apply(account({ id: RESERVE, name: 'Reserve', kind: 'RESERVE', is_primary: false, balance: 10 }), args);
    expect(to).toMatchObject({ balance: 10, pending_in: 250_000 });
    // Fee included for an external transfer.
    expect(also.apply(account(), create())).toMatchObject({ balance: 749_500, pending_out: 250_500 });
  });

  it('never shows a balance below zero: a hold the balance cannot cover is left to the server (TREASURY_7004)', () => {
    expect(applyHold(account({ balance: 100 }), { from: OPERATING, to: BANK, amount: 250_000, fee: 0 }, 1)).toMatchObject({ balance: 100, pending_out: 0 });
  });

  it('refuses the same account on both sides before queueing (TREASURY_7003), and bad amounts by the schema', () => {
    expect(transferCreate.check!(create({ to_account_id: OPERATING }), { has: () => true })).toBe('TREASURY_7003');
    expect(transferCreate.check!(create(), { has: () => true })).toBeNull();
    expect(transferCreate.args.safeParse({ ...create(), amount: { amount: 0, currency: 'USD' } }).success).toBe(false);
    expect(transferCreate.args.safeParse({ ...create(), amount: { amount: 1.5, currency: 'USD' } }).success).toBe(false);
  });
});

describe('transfer.cancel', () => {
  const pending: WalletTransfer = walletTransferSchema.parse({
    id: id(20), from_account_id: OPERATING, from_name: 'Operating', to_account_id: RESERVE, to_name: 'Reserve', amount: 250_000, fee: 0,
    currency: 'USD', memo: '', status: 'PENDING', expected_settlement_date: '2026-11-30', settled_at: null, canceled_at: null, failed_at: null,
    failure_reason: null, created_by: actor.user_id, automation_policy_id: null, created_at: AT, business_id: id(9), change_seq: 5, updated_at: AT, deleted: false,
  });
  const args = transferCancel.args.parse({
    transfer_id: id(20), wallet_account_id: OPERATING, from_account_id: OPERATING, to_account_id: RESERVE, amount: 250_000, fee: 0, canceled_at: AT,
  });

  it('cancels a PENDING transfer at once and gives the hold back', () => {
    expect(transferCancel.apply(pending, args)).toMatchObject({ status: 'CANCELED', canceled_at: AT });
    const also = transferCancel.also!.wallet_accounts!;
    expect(also.apply(account({ balance: 750_000, pending_out: 250_000 }), args)).toMatchObject({ balance: 1_000_000, pending_out: 0 });
    expect(also.apply(account({ id: RESERVE, pending_in: 250_000 }), args)).toMatchObject({ pending_in: 0 });
    expect(transferCancel.request(args)).toEqual({ params: { wallet_account_uuid: OPERATING, transfer_uuid: id(20) } });
  });

  it('leaves a settled one as it is, and refuses it before queueing (TREASURY_7005); an unknown one is REQUEST_7004', () => {
    const settled = { ...pending, status: 'SETTLED' as const };
    expect(transferCancel.apply(settled, args)).toBe(settled);
    expect(transferCancel.check!(args, { has: () => true, get: () => settled })).toBe('TREASURY_7005');
    expect(transferCancel.check!(args, { has: () => true, get: () => pending })).toBeNull();
    expect(transferCancel.check!(args, { has: () => false })).toBe('REQUEST_7004');
  });
});
