import { randomUUID } from 'node:crypto';
import { minorToDecimal } from '../../schema/money.ts';
import type { Queryable } from '../db/db.ts';
import { ApiError } from '../core/errors.ts';

/**
 * Issue 30: the one double-entry ledger every money movement posts through (migration 058 holds
 * its rules in the database: balanced entries at commit, immutable postings, balances kept by the
 * posting trigger, no overdraft of a wallet account). Nothing here knows about transfers, bills or
 * claims: they call `postEntry` / `move` with a key that names the movement, so a retry, a racing
 * request or a second server process posts nothing the second time.
 *
 * Lock order: a caller that also writes mirrored rows reserves its seqs first (the business row),
 * then `move` locks the accounts it debits in id order (`FOR UPDATE`), then posts.
 */

export const WALLET_KINDS = ['OPERATING', 'RESERVE', 'INVESTMENT'] as const;
export type WalletKind = (typeof WALLET_KINDS)[number];
export const SYSTEM_KINDS = [
  'FLEX_LINE', 'TRANSFERS_IN_FLIGHT', 'PAYMENTS_IN_FLIGHT', 'CARD_NETWORK', 'VENDOR_PAYMENTS', 'EMPLOYEE_PAYMENTS',
  'FEES', 'YIELD', 'FUNDING',
] as const;
export type SystemKind = (typeof SYSTEM_KINDS)[number];
export type LedgerAccountKind = WalletKind | SystemKind | 'EXTERNAL_BANK';

const SYSTEM_NAMES: Record<SystemKind, string> = {
  FLEX_LINE: 'Flex line',
  TRANSFERS_IN_FLIGHT: 'Transfers in flight',
  PAYMENTS_IN_FLIGHT: 'Payments in flight',
  CARD_NETWORK: 'Card network',
  VENDOR_PAYMENTS: 'Vendor payments',
  EMPLOYEE_PAYMENTS: 'Employee payments',
  FEES: 'Fees',
  YIELD: 'Yield',
  FUNDING: 'Funding',
};

export interface LedgerAccount {
  id: string;
  business_id: string;
  kind: LedgerAccountKind;
  currency: string;
  name: string;
  balance: number;
  allow_negative: boolean;
  is_primary: boolean;
  bank_account_id: string | null;
}

const ACCOUNT_COLUMNS = 'id, business_id, kind, currency, name, balance, allow_negative, is_primary, bank_account_id';

/** One posting: what `account` gains (+) or loses (−), in minor units of the entry's currency. */
export interface PostingLine {
  account: string;
  amount: number;
}

export interface EntryInput {
  businessId: string;
  /** What moved (journal_entries.kind): TRANSFER_HOLD, BILL_PAYMENT_SEND, CARD_SETTLEMENT… */
  kind: string;
  /** The movement's identity within the business: the same key again posts nothing new. */
  key: string;
  currency: string;
  lines: readonly PostingLine[];
  memo?: string;
  source?: { type: string; id: string };
  /** The bank day it counts on (YYYY-MM-DD); default: `at`'s UTC date. */
  effectiveDate?: string;
  at: Date;
  createdBy?: string | null;
}

export interface PostedEntry {
  id: string;
  /** false: an entry with this key already existed and nothing was posted now. */
  created: boolean;
}

/**
 * Posts one balanced entry, exactly once per (business, key). Throws (a programming error, not a
 * caller's) when the lines do not balance; the database refuses it at commit anyway. A wallet
 * account driven below zero fails with TREASURY_7004: use `move` (or `requireFunds`) first to
 * refuse with the available amount.
 */
export async function postEntry(tx: Queryable, e: EntryInput): Promise<PostedEntry> {
  const sum = e.lines.reduce((s, l) => s + l.amount, 0);
  if (e.lines.length < 2 || sum !== 0 || e.lines.some((l) => !Number.isSafeInteger(l.amount) || l.amount === 0)) {
    throw new Error(`ledger entry ${e.kind}/${e.key} does not balance: ${JSON.stringify(e.lines)}`);
  }
  const id = randomUUID();
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO journal_entries (id, business_id, kind, idem_key, memo, source_type, source_id, effective_date, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::date, $9, $10)
     ON CONFLICT (business_id, idem_key) DO NOTHING RETURNING id`,
    [id, e.businessId, e.kind, e.key, (e.memo ?? '').slice(0, 500), e.source?.type ?? null, e.source?.id ?? null,
      e.effectiveDate ?? e.at.toISOString().slice(0, 10), e.createdBy ?? null, e.at.toISOString()],
  );
  if (inserted.length === 0) {
    const existing = await tx.query<{ id: string }>(
      'SELECT id FROM journal_entries WHERE business_id = $1 AND idem_key = $2', [e.businessId, e.key],
    );
    return { id: existing[0]!.id, created: false };
  }
  try {
    await tx.query(
      `INSERT INTO postings (business_id, entry_id, account_id, amount, currency)
       SELECT $1, $2, l.account, l.amount, $3 FROM unnest($4::uuid[], $5::bigint[]) AS l(account, amount)`,
      [e.businessId, id, e.currency, e.lines.map((l) => l.account), e.lines.map((l) => l.amount)],
    );
  } catch (err) {
    if (isOverdraft(err)) throw new ApiError('TREASURY_7004');
    throw err;
  }
  return { id, created: true };
}

function isOverdraft(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { constraint?: unknown }).constraint === 'ledger_accounts_no_overdraft';
}

/** Locks accounts in id order (every writer's order, so two moves never deadlock) and reads them. */
export async function lockAccounts(tx: Queryable, businessId: string, ids: readonly string[]): Promise<Map<string, LedgerAccount>> {
  const sorted = [...new Set(ids)].sort();
  const rows = await tx.query<LedgerAccount>(
    `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts WHERE business_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`,
    [businessId, sorted],
  );
  return new Map(rows.map((r) => [r.id, { ...r, balance: Number(r.balance) }]));
}

/**
 * Refuses with TREASURY_7004 (422) naming the available amount when `account` cannot give
 * `amount` (a wallet account never goes below zero). Call it with the account locked.
 */
export function requireFunds(account: LedgerAccount, amount: number): void {
  if (account.allow_negative || account.balance >= amount) return;
  const available = `${minorToDecimal(Math.max(0, account.balance), account.currency)} ${account.currency}`;
  throw new ApiError('TREASURY_7004', `Not enough funds in ${account.name}: ${available} is available.`, {
    amount: `${available} is available`,
  });
}

/**
 * Moves `amount` from one account to another as one entry (plus any extra lines, e.g. a fee),
 * exactly once per key: locks the accounts that give money, checks their funds (TREASURY_7004
 * with the available amount), then posts. A repeat of the key answers the first entry and checks
 * nothing (the money already moved).
 */
export async function move(tx: Queryable, m: Omit<EntryInput, 'lines' | 'currency'> & {
  from: string; to: string; amount: number; currency: string; extra?: readonly PostingLine[];
}): Promise<PostedEntry> {
  if (!Number.isSafeInteger(m.amount) || m.amount <= 0) throw new Error(`cannot move ${m.amount}`);
  const lines: PostingLine[] = [{ account: m.from, amount: -m.amount }, { account: m.to, amount: m.amount }, ...(m.extra ?? [])];
  const done = await tx.query<{ id: string }>('SELECT id FROM journal_entries WHERE business_id = $1 AND idem_key = $2', [m.businessId, m.key]);
  if (done[0]) return { id: done[0].id, created: false };
  const net = new Map<string, number>();
  for (const l of lines) net.set(l.account, (net.get(l.account) ?? 0) + l.amount);
  const accounts = await lockAccounts(tx, m.businessId, [...net.keys()]);
  for (const [id, change] of net) {
    const account = accounts.get(id);
    if (!account) throw new ApiError('REQUEST_7004');
    if (account.currency !== m.currency) throw new ApiError('TREASURY_7002');
    if (change < 0) requireFunds(account, -change);
  }
  return postEntry(tx, { ...m, lines: collapse(net) });
}

function collapse(net: Map<string, number>): PostingLine[] {
  return [...net].filter(([, amount]) => amount !== 0).map(([account, amount]) => ({ account, amount }));
}

/** The business's system account of a kind and currency, created on first use (race-safe). */
export async function systemAccount(tx: Queryable, businessId: string, kind: SystemKind, currency: string): Promise<string> {
  const found = await tx.query<{ id: string }>(
    'SELECT id FROM ledger_accounts WHERE business_id = $1 AND kind = $2 AND currency = $3', [businessId, kind, currency],
  );
  if (found[0]) return found[0].id;
  await tx.query(
    `INSERT INTO ledger_accounts (id, business_id, kind, currency, name, allow_negative)
     VALUES ($1, $2, $3, $4, $5, true)
     ON CONFLICT (business_id, kind, currency) WHERE kind NOT IN ('OPERATING', 'RESERVE', 'INVESTMENT', 'EXTERNAL_BANK') DO NOTHING`,
    [randomUUID(), businessId, kind, currency, `${SYSTEM_NAMES[kind]} (${currency})`],
  );
  const rows = await tx.query<{ id: string }>(
    'SELECT id FROM ledger_accounts WHERE business_id = $1 AND kind = $2 AND currency = $3', [businessId, kind, currency],
  );
  return rows[0]!.id;
}

/**
 * Opens a wallet account (OPERATING, RESERVE or INVESTMENT), mirrored as `wallet_accounts`: it
 * takes a seq from the business counter now, and a new one whenever its balance moves (058's
 * trigger). `primary`: the account payments of that currency draw on (one per kind and currency).
 */
export async function openWalletAccount(tx: Queryable, a: {
  businessId: string; kind: WalletKind; currency: string; name: string; primary?: boolean; id?: string; at?: Date;
}): Promise<string> {
  const id = a.id ?? randomUUID();
  const at = (a.at ?? new Date()).toISOString();
  const seq = await tx.query<{ seq: number }>(
    'UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $1 RETURNING change_seq AS seq', [a.businessId],
  );
  if (!seq[0]) throw new ApiError('REQUEST_7004');
  await tx.query(
    `INSERT INTO ledger_accounts (id, business_id, kind, currency, name, allow_negative, is_primary, created_at, change_seq, updated_at)
     VALUES ($1, $2, $3, $4, $5, false, $6, $7, $8, $7)`,
    [id, a.businessId, a.kind, a.currency, a.name, a.primary ?? false, at, seq[0].seq],
  );
  await tx.notify('ledgerline_changes', JSON.stringify({ business_id: a.businessId, seq: Number(seq[0].seq) }));
  return id;
}

/** The business's primary wallet account of a kind and currency, or null (nothing to pay from). */
export async function primaryAccount(tx: Queryable, businessId: string, kind: WalletKind, currency: string): Promise<LedgerAccount | null> {
  const rows = await tx.query<LedgerAccount>(
    `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts
      WHERE business_id = $1 AND kind = $2 AND currency = $3 AND is_primary AND NOT deleted`,
    [businessId, kind, currency],
  );
  return rows[0] ? { ...rows[0], balance: Number(rows[0].balance) } : null;
}

/** A ledger account of the business by id, or null (another business's id reads as none). */
export async function findAccount(tx: Queryable, businessId: string, id: string): Promise<LedgerAccount | null> {
  const rows = await tx.query<LedgerAccount>(
    `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts WHERE business_id = $1 AND id = $2 AND NOT deleted`, [businessId, id],
  );
  return rows[0] ? { ...rows[0], balance: Number(rows[0].balance) } : null;
}

/**
 * Money from outside into a wallet account (a deposit from a linked bank, the demo's opening
 * balance): FUNDING gives, the account gains. Exactly once per key.
 */
export async function fund(tx: Queryable, f: { businessId: string; account: string; amount: number; currency: string; key: string; at: Date; memo?: string; effectiveDate?: string }): Promise<PostedEntry> {
  const funding = await systemAccount(tx, f.businessId, 'FUNDING', f.currency);
  return postEntry(tx, {
    businessId: f.businessId, kind: 'FUNDING', key: f.key, currency: f.currency, at: f.at, memo: f.memo ?? 'Deposit',
    effectiveDate: f.effectiveDate, lines: [{ account: funding, amount: -f.amount }, { account: f.account, amount: f.amount }],
  });
}
