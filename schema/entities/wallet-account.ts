import { z } from 'zod';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';

/**
 * Issue 30: a wallet account of the business (OPERATING, RESERVE or INVESTMENT), as mirrored:
 * reference data in `refs` (no RxDB slot of its own), visible to admins only (`treasury`), so the
 * Treasury page reads balances and their history offline, marked with the time they were read.
 * Table `ledger_accounts` (migration 058; system accounts are never on the wire). The balance is
 * the ledger's (server/ledger/): a pending transfer's hold has already left it, so `balance` is what
 * can be spent now; `pending_in` / `pending_out` are the PENDING transfers still on their way.
 * Its seq moves with every posting (058's trigger), so a mirror always shows the current balance.
 */
export const WALLET_ACCOUNT_KINDS = ['OPERATING', 'RESERVE', 'INVESTMENT'] as const;
export const walletAccountKindSchema = z.enum(WALLET_ACCOUNT_KINDS);
export type WalletAccountKind = z.infer<typeof walletAccountKindSchema>;

/** Days of closing balances a wallet account's doc carries (the Treasury chart's range). */
export const WALLET_HISTORY_DAYS = 90;

export const walletAccountSchema = z.object({
  id: uuid,
  name: z.string().min(1).max(100),
  kind: walletAccountKindSchema,
  currency: z.string().length(3),
  /** Minor units, never negative: what can be spent or moved now. */
  balance: z.number().int().nonnegative(),
  /** Sum of PENDING transfers into this account (minor units). */
  pending_in: z.number().int().nonnegative(),
  /** Sum of PENDING transfers out of it, amount plus fee (already held: not in `balance`). */
  pending_out: z.number().int().nonnegative(),
  /** The account bill payments, claims and card settlements of its currency draw on. */
  is_primary: z.boolean(),
  /**
   * Closing balance per day with activity, oldest first: the WALLET_HISTORY_DAYS days up to the
   * account's latest activity. Read from the data alone, never the clock, so the doc changes only
   * when a posting re-stamps the account (a window on today would age without a new seq).
   */
  history: z.array(z.object({ day: z.iso.date(), closing: z.number().int() })).max(WALLET_HISTORY_DAYS),
  created_at: isoDateTime,
  ...mirroredFields,
});
export type WalletAccount = z.infer<typeof walletAccountSchema>;

/** Sum of a PENDING transfer side: `dir` 'to' (incoming amount) or 'from' (outgoing amount + fee). */
const pendingSql = (dir: 'to' | 'from') =>
  `(SELECT coalesce(sum(t.amount${dir === 'from' ? ' + t.fee' : ''}), 0)::bigint FROM wallet_transfers t
     WHERE t.business_id = r.business_id AND t.${dir}_account_id = r.id AND t.status = 'PENDING' AND NOT t.deleted)`;

export const walletAccountEntity = defineReference({
  name: 'wallet_accounts',
  schema: walletAccountSchema,
  visibility: 'treasury',
  searchText: ['name'],
  columns: {
    pending_in: { sql: pendingSql('to') },
    pending_out: { sql: pendingSql('from') },
    history: {
      sql: `(SELECT coalesce(jsonb_agg(jsonb_build_object('day', to_char(d.day, 'YYYY-MM-DD'), 'closing', d.closing) ORDER BY d.day), '[]'::jsonb)
               FROM ledger_daily_balances d
              WHERE d.account_id = r.id
                AND d.day > (SELECT max(l.day) FROM ledger_daily_balances l WHERE l.account_id = r.id) - ${WALLET_HISTORY_DAYS})`,
      missing: 'empty list',
    },
  },
});
