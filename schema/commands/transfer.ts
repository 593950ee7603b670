import { z } from 'zod';
import { produce } from 'immer';
import { allInMirror, defineCommand, type BlankContext, type CommandCheckContext } from './define-command.ts';
import { cancelTransfer, createTransfer, transferBodySchema } from '../api/calls-treasury.ts';
import { moneyValueSchema } from '../money.ts';
import type { WalletAccount } from '../entities/wallet-account.ts';
import type { WalletTransfer } from '../entities/wallet-transfer.ts';

/**
 * Issue 30, treasury transfers through the outbox: a transfer the admin confirmed (amount, both
 * accounts, fee and settlement date named first) is queued — offline too — and sent exactly once:
 * the body's `id` is the client's id for the transfer (a retry answers the stored transfer) and the
 * outbox's command id is the Idempotency-Key. The row shows at once PENDING, and the hold (amount
 * plus fee) leaves the source's balance at once (`also` on `wallet_accounts`), as the server posts
 * it. A refusal (TREASURY_7004 not enough money, 7006 the fee changed, 7007 an unverified bank
 * account) rolls both back and keeps the command, with the server's figures, for the person to see.
 */

/**
 * The create's args: the call's body with the client id and the previewed fee required, the path's
 * wallet account (the source; the destination when `from_bank_account_id` pulls money in), and
 * what only the optimistic row needs (names and the previewed date: never sent).
 */
export const transferCreateArgs = transferBodySchema.extend({
  id: z.uuid(),
  wallet_account_id: z.uuid(),
  expected_fee: moneyValueSchema,
  from_name: z.string().max(200),
  to_name: z.string().max(200),
  expected_settlement_date: z.iso.date(),
});
export type TransferCreateArgs = z.output<typeof transferCreateArgs>;

/** The body as sent: the call's fields only. */
export function transferCreateBody(a: TransferCreateArgs) {
  const { wallet_account_id: _w, from_name: _f, to_name: _t, expected_settlement_date: _d, ...body } = a;
  return body;
}

/** Where the money leaves: the linked bank account a pull names, else the path's wallet account. */
export const transferSource = (a: Pick<TransferCreateArgs, 'from_bank_account_id' | 'wallet_account_id'>) => a.from_bank_account_id ?? a.wallet_account_id;

/** The transfer before its create's `apply`: the actor's, PENDING, as the server starts it. */
export function newTransfer(a: TransferCreateArgs, { id, actor, at }: BlankContext): WalletTransfer {
  return {
    id, from_account_id: transferSource(a), from_name: a.from_name, to_account_id: a.to_account_id, to_name: a.to_name,
    amount: a.amount.amount, fee: a.expected_fee.amount, currency: a.amount.currency, memo: a.memo ?? '', status: 'PENDING',
    expected_settlement_date: a.expected_settlement_date, settled_at: null, canceled_at: null, failed_at: null, failure_reason: null,
    created_by: actor.user_id, automation_policy_id: null, created_at: at,
    business_id: actor.business_id, change_seq: 0, updated_at: at, deleted: false,
  };
}

/**
 * A wallet account with a transfer's hold taken (`sign` 1) or given back (-1): the source loses
 * amount plus fee from its balance into `pending_out`, the destination shows the amount in
 * `pending_in`. A hold the balance cannot cover is not shown (the server refuses it: TREASURY_7004);
 * an account the transfer does not name is left as it is.
 */
export function applyHold(
  row: WalletAccount,
  t: { from: string; to: string; amount: number; fee: number },
  sign: 1 | -1,
): WalletAccount {
  const held = t.amount + t.fee;
  if (row.id === t.from) {
    if (sign === 1 && row.balance < held) return row;
    if (sign === -1 && row.pending_out < held) return row;
    return produce(row, (d) => {
      d.balance -= sign * held;
      d.pending_out += sign * held;
    });
  }
  if (row.id === t.to) {
    if (sign === -1 && row.pending_in < t.amount) return row;
    return produce(row, (d) => {
      d.pending_in += sign * t.amount;
    });
  }
  return row;
}

/** The create's fields over the blank row (a row the server already answered is left as it is). */
export function applyTransferCreate(row: WalletTransfer, a: TransferCreateArgs): WalletTransfer {
  if (row.change_seq > 0) return row;
  return produce(row, (d) => {
    d.amount = a.amount.amount;
    d.fee = a.expected_fee.amount;
    d.memo = a.memo ?? '';
    d.status = 'PENDING';
  });
}

export const transferCreate = defineCommand({
  name: 'transfer.create',
  args: transferCreateArgs,
  collection: 'wallet_transfers',
  entityIds: (a) => [a.id],
  call: createTransfer,
  // The id goes with the body: the server creates the transfer under it (a repeat answers that transfer).
  request: (a) => ({ params: { wallet_account_uuid: a.wallet_account_id }, body: transferCreateBody(a) }),
  apply: (row, a) => applyTransferCreate(row, a),
  blank: (a, ctx) => newTransfer(a, ctx),
  check: (a) => (transferSource(a) === a.to_account_id ? 'TREASURY_7003' : null),
  also: {
    wallet_accounts: {
      // Both sides: a linked bank account's id names no wallet row, so `applyHold` never meets it.
      ids: (a) => [transferSource(a), a.to_account_id],
      apply: (row, a) => applyHold(row, { from: transferSource(a), to: a.to_account_id, amount: a.amount.amount, fee: a.expected_fee.amount }, 1),
    },
  },
  // The answer is the transfer without its seq: the hold stays shown until the feed brings the rows.
  confirm: 'change_seq',
});

/**
 * A PENDING transfer canceled: the row CANCELED and the hold given back at once. The args carry
 * what the hold was (from the row as shown when asked) for the accounts' optimistic effect; only
 * the ids are sent. A transfer no longer PENDING is refused before queueing (TREASURY_7005).
 */
export const transferCancelArgs = z.object({
  transfer_id: z.uuid(),
  /** The path's wallet account: the source, or the destination of a pull from a bank account. */
  wallet_account_id: z.uuid(),
  from_account_id: z.uuid(),
  to_account_id: z.uuid(),
  amount: z.number().int().positive(),
  fee: z.number().int().nonnegative(),
  canceled_at: z.iso.datetime({ offset: true }),
});
export type TransferCancelArgs = z.output<typeof transferCancelArgs>;

export function applyTransferCancel(row: WalletTransfer, a: TransferCancelArgs): WalletTransfer {
  if (row.status !== 'PENDING') return row;
  return produce(row, (d) => {
    d.status = 'CANCELED';
    d.canceled_at = a.canceled_at;
  });
}

function checkCancel(a: TransferCancelArgs, mirror: CommandCheckContext) {
  const missing = allInMirror([a.transfer_id], mirror);
  if (missing) return missing;
  const row = mirror.get?.(a.transfer_id) as Pick<WalletTransfer, 'status'> | undefined;
  return row && row.status !== 'PENDING' ? ('TREASURY_7005' as const) : null;
}

export const transferCancel = defineCommand({
  name: 'transfer.cancel',
  args: transferCancelArgs,
  collection: 'wallet_transfers',
  entityIds: (a) => [a.transfer_id],
  call: cancelTransfer,
  request: (a) => ({ params: { wallet_account_uuid: a.wallet_account_id, transfer_uuid: a.transfer_id } }),
  apply: (row, a) => applyTransferCancel(row, a),
  check: checkCancel,
  also: {
    wallet_accounts: {
      ids: (a) => [a.from_account_id, a.to_account_id],
      apply: (row, a) => applyHold(row, { from: a.from_account_id, to: a.to_account_id, amount: a.amount, fee: a.fee }, -1),
    },
  },
  confirm: 'change_seq',
});
