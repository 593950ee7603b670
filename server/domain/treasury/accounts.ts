import { z } from 'zod';
import type { Queryable } from '../../db/db.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import { decodeCursor, encodeCursor } from '../../core/cursor.ts';
import { openWalletAccount, type WalletKind } from '../../ledger/ledger.ts';
import { allocateSeqs, announceChange } from '../../db/change-seq.ts';
import type { BusinessAccount } from '../../../schema/api/calls-treasury.ts';

/**
 * Issue 30: the wallet's accounts (ledger_accounts of the kinds OPERATING, RESERVE, INVESTMENT;
 * mirrored as `wallet_accounts`) as the treasury calls answer them: `balance` is what can be
 * moved now (a pending transfer's hold has already left it), `pending_in` / `pending_out` the
 * PENDING transfers on their way (out: amount plus fee). Another business's id reads as none (404).
 */
const pending = (dir: 'to' | 'from') =>
  `(SELECT coalesce(sum(t.amount${dir === 'from' ? ' + t.fee' : ''}), 0)::bigint FROM wallet_transfers t
     WHERE t.business_id = a.business_id AND t.${dir}_account_id = a.id AND t.status = 'PENDING' AND NOT t.deleted)`;

const WIRE = `a.id, a.name, a.kind, a.currency, a.balance::bigint AS balance, ${pending('to')} AS pending_in,
  ${pending('from')} AS pending_out, a.is_primary, ll_iso(a.created_at) AS created_at`;

type Row = {
  id: string; name: string; kind: WalletKind; currency: string; balance: number; pending_in: number; pending_out: number;
  is_primary: boolean; created_at: string;
};

const toWire = (r: Row): BusinessAccount => ({
  uuid: r.id,
  name: r.name,
  kind: r.kind,
  balance: { amount: Number(r.balance), currency: r.currency },
  pending_in: { amount: Number(r.pending_in), currency: r.currency },
  pending_out: { amount: Number(r.pending_out), currency: r.currency },
  is_primary: r.is_primary,
  created_at: r.created_at,
});

const WALLET_WHERE = `a.business_id = $1 AND a.kind IN ('OPERATING', 'RESERVE', 'INVESTMENT') AND NOT a.deleted`;

/** The business's wallet accounts: OPERATING, RESERVE, INVESTMENT, primary first, then by name. */
export async function listWalletAccounts(db: Queryable, businessId: string, kinds?: readonly WalletKind[]): Promise<BusinessAccount[]> {
  const rows = await db.query<Row>(
    `SELECT ${WIRE} FROM ledger_accounts a WHERE ${WALLET_WHERE} ${kinds ? 'AND a.kind = ANY($2::text[])' : ''}
      ORDER BY array_position(ARRAY['OPERATING', 'RESERVE', 'INVESTMENT'], a.kind), a.currency, a.is_primary DESC, lower(a.name), a.id`,
    kinds ? [businessId, kinds] : [businessId],
  );
  return rows.map(toWire);
}

/** One wallet account as answered, or 404 REQUEST_7004 (another business's, a system account, a closed one). */
export async function walletAccount(db: Queryable, businessId: string, id: string): Promise<BusinessAccount> {
  const [row] = await db.query<Row>(`SELECT ${WIRE} FROM ledger_accounts a WHERE ${WALLET_WHERE} AND a.id = $2`, [businessId, id]);
  if (!row) throw new ApiError('REQUEST_7004');
  return toWire(row);
}

/** Opens an account; the first of its kind and currency becomes that kind's primary. */
export async function createWalletAccount(tx: Queryable, businessId: string, body: { name: string; kind: WalletKind; currency: string }, at: Date): Promise<BusinessAccount> {
  await lockBusiness(tx, businessId);
  const [primary] = await tx.query(
    `SELECT 1 FROM ledger_accounts a WHERE ${WALLET_WHERE} AND a.kind = $2 AND a.currency = $3 AND a.is_primary`,
    [businessId, body.kind, body.currency],
  );
  const id = await openWalletAccount(tx, { businessId, kind: body.kind, currency: body.currency, name: body.name, primary: !primary, at });
  return walletAccount(tx, businessId, id);
}

/** Renames, or makes the account its kind and currency's primary (the former primary stops being one). */
export async function updateWalletAccount(tx: Queryable, businessId: string, id: string, body: { name?: string; is_primary?: true }): Promise<BusinessAccount> {
  await lockBusiness(tx, businessId);
  const [account] = await tx.query<{ kind: string; currency: string; is_primary: boolean }>(
    `SELECT a.kind, a.currency, a.is_primary FROM ledger_accounts a WHERE ${WALLET_WHERE} AND a.id = $2 FOR UPDATE`, [businessId, id],
  );
  if (!account) throw new ApiError('REQUEST_7004');
  const demote = body.is_primary && !account.is_primary;
  const seqs = await allocateSeqs(tx, businessId, 2);
  if (!seqs) throw new ApiError('REQUEST_7004');
  if (demote) {
    await tx.query(
      `UPDATE ledger_accounts SET is_primary = false, change_seq = $5, updated_at = now()
        WHERE business_id = $1 AND kind = $2 AND currency = $3 AND is_primary AND NOT deleted AND id <> $4`,
      [businessId, account.kind, account.currency, id, seqs.first],
    );
  }
  await tx.query(
    `UPDATE ledger_accounts SET name = coalesce($3, name), is_primary = is_primary OR $4, change_seq = $5, updated_at = now()
      WHERE business_id = $1 AND id = $2`,
    [businessId, id, body.name ?? null, body.is_primary === true, seqs.last],
  );
  await announceChange(tx, businessId, seqs.last);
  return walletAccount(tx, businessId, id);
}

/** Closes an empty account with nothing on its way (TREASURY_7010); a primary account stays (TREASURY_7010 too). */
export async function deleteWalletAccount(tx: Queryable, businessId: string, id: string): Promise<void> {
  await lockBusiness(tx, businessId);
  const [row] = await tx.query<Row>(`SELECT ${WIRE} FROM ledger_accounts a WHERE ${WALLET_WHERE} AND a.id = $2 FOR UPDATE`, [businessId, id]);
  if (!row) throw new ApiError('REQUEST_7004');
  if (row.is_primary) {
    throw new ApiError('TREASURY_7010', 'This is the primary account payments draw on: make another account primary before closing it.', {
      is_primary: 'A primary account cannot be closed',
    });
  }
  if (Number(row.balance) !== 0 || Number(row.pending_in) !== 0 || Number(row.pending_out) !== 0) throw new ApiError('TREASURY_7010');
  const seqs = await allocateSeqs(tx, businessId, 1);
  if (!seqs) throw new ApiError('REQUEST_7004');
  await tx.query('UPDATE ledger_accounts SET deleted = true, change_seq = $3, updated_at = now() WHERE business_id = $1 AND id = $2', [businessId, id, seqs.first]);
  await announceChange(tx, businessId, seqs.last);
}

/** The business row first: every mirrored writer's first lock (writeMirrored's reservation). */
export const lockBusiness = async (tx: Queryable, businessId: string): Promise<void> => {
  const [row] = await tx.query('SELECT id FROM businesses WHERE id = $1 FOR UPDATE', [businessId]);
  if (!row) throw new ApiError('REQUEST_7004');
};

const ACTIONS_SORT = 'actions';
const cursorShape = z.tuple([z.number().int().positive()]);

export type AccountAction = {
  entry_id: string; kind: string; memo: string; amount: { amount: number; currency: string };
  balance_after: { amount: number; currency: string }; effective_date: string; created_at: string;
  source_type: string | null; source_id: string | null; yield_rate_bps: number | null;
};

/**
 * `/actions`: every ledger entry that moved the account, newest first (the order its postings
 * were written), each with the balance right after it; keyset cursor on the entry's last posting id.
 */
export async function accountActions(db: Queryable, businessId: string, id: string, q: { cursor?: string; page_size?: number }): Promise<{ data: AccountAction[]; page: { next: string | null } }> {
  const account = await walletAccount(db, businessId, id);
  const limit = q.page_size ?? 50;
  const before = q.cursor ? (decodeCursor(q.cursor, ACTIONS_SORT, cursorShape, 'cursor')[0] as number) : null;
  const rows = await db.query<{
    entry_id: string; kind: string; memo: string; amount: string; last_posting: string; effective_date: string; created_at: string;
    source_type: string | null; source_id: string | null; balance_after: string; yield_rate_bps: number | null;
  }>(
    `WITH moves AS (
       SELECT p.entry_id, sum(p.amount) AS amount, max(p.id) AS last_posting
         FROM postings p WHERE p.business_id = $1 AND p.account_id = $2 ${before === null ? '' : 'AND p.id < $4'}
        GROUP BY p.entry_id ORDER BY max(p.id) DESC LIMIT $3)
     SELECT m.entry_id, e.kind, e.memo, m.amount::text, m.last_posting::text, to_char(e.effective_date, 'YYYY-MM-DD') AS effective_date,
            ll_iso(e.created_at) AS created_at, e.source_type, e.source_id,
            (SELECT coalesce(sum(q.amount), 0) FROM postings q WHERE q.account_id = $2 AND q.id <= m.last_posting)::text AS balance_after,
            y.rate_bps AS yield_rate_bps
       FROM moves m JOIN journal_entries e ON e.business_id = $1 AND e.id = m.entry_id
       -- The rate a yield day accrued at, as recorded then (a later rate change leaves it as it was).
       LEFT JOIN yield_accruals y ON y.business_id = $1 AND y.account_id = $2 AND y.entry_id = m.entry_id
      ORDER BY m.last_posting DESC`,
    before === null ? [businessId, id, limit + 1] : [businessId, id, limit + 1, before],
  );
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const currency = account.balance.currency;
  return {
    data: page.map((r) => ({
      entry_id: r.entry_id, kind: r.kind, memo: r.memo, amount: { amount: Number(r.amount), currency },
      balance_after: { amount: Number(r.balance_after), currency }, effective_date: r.effective_date, created_at: r.created_at,
      source_type: r.source_type, source_id: r.source_id, yield_rate_bps: r.yield_rate_bps === null ? null : Number(r.yield_rate_bps),
    })),
    page: { next: more ? encodeCursor(ACTIONS_SORT, [Number(page[page.length - 1]!.last_posting)]) : null },
  };
}

/**
 * §7 Businesses "PUT currencies": the currencies the business keeps money in. A listed currency
 * with no primary OPERATING account gets one; a currency left out has its wallet accounts closed
 * (all empty with nothing on its way, else 409 TREASURY_7010 naming it); the home currency stays.
 * Answers each currency with its primary OPERATING account, home currency first.
 */
export async function putBusinessCurrencies(tx: Queryable, businessId: string, listed: readonly string[], at: Date): Promise<{ currency: string; primary_account: BusinessAccount }[]> {
  await lockBusiness(tx, businessId);
  const [business] = await tx.query<{ currency: string }>('SELECT currency FROM businesses WHERE id = $1', [businessId]);
  const home = business!.currency;
  const wanted = [...new Set(listed)];
  if (!wanted.includes(home)) {
    throw validationError({ currencies: `currencies must include the business's home currency ${home}` });
  }
  const current = await tx.query<Row>(`SELECT ${WIRE} FROM ledger_accounts a WHERE ${WALLET_WHERE} ORDER BY a.id FOR UPDATE`, [businessId]);
  const dropped = current.filter((r) => !wanted.includes(r.currency));
  const busy = dropped.find((r) => Number(r.balance) !== 0 || Number(r.pending_in) !== 0 || Number(r.pending_out) !== 0);
  if (busy) {
    throw new ApiError('TREASURY_7010', `${busy.name} (${busy.currency}) still holds money or has transfers on their way: move it out before dropping ${busy.currency}.`, {
      currencies: `${busy.currency} cannot be dropped while ${busy.name} holds money`,
    });
  }
  if (dropped.length > 0) {
    const seqs = await allocateSeqs(tx, businessId, dropped.length);
    if (!seqs) throw new ApiError('REQUEST_7004');
    for (const [i, r] of dropped.entries()) {
      await tx.query(
        'UPDATE ledger_accounts SET deleted = true, is_primary = false, change_seq = $3, updated_at = now() WHERE business_id = $1 AND id = $2',
        [businessId, r.id, seqs.first + i],
      );
    }
    await announceChange(tx, businessId, seqs.last);
  }
  const ordered = [home, ...wanted.filter((c) => c !== home).sort()];
  const out: { currency: string; primary_account: BusinessAccount }[] = [];
  for (const currency of ordered) {
    const [primary] = await tx.query<{ id: string }>(
      `SELECT a.id FROM ledger_accounts a WHERE ${WALLET_WHERE} AND a.kind = 'OPERATING' AND a.currency = $2 AND a.is_primary`, [businessId, currency],
    );
    const id = primary?.id ?? await openWalletAccount(tx, { businessId, kind: 'OPERATING', currency, name: `Operating (${currency})`, primary: true, at });
    out.push({ currency, primary_account: await walletAccount(tx, businessId, id) });
  }
  return out;
}
