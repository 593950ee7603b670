/**
 * Issue 30 test support for the treasury routes: wallet accounts opened and funded through
 * server/ledger (the fixture business has none), and linked bank accounts inserted as the banking
 * calls would leave them.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/db.ts';
import { fund, openWalletAccount, type WalletKind } from '../ledger/ledger.ts';

export type Wallet = { operating: string; reserve: string };

export async function openWallet(db: Db, businessId: string, opening: number, at = new Date('2026-11-20T12:00:00Z')): Promise<Wallet> {
  const operating = await openAccount(db, businessId, 'OPERATING', 'Operating', true, at);
  const reserve = await openAccount(db, businessId, 'RESERVE', 'Reserve', true, at);
  if (opening > 0) await fundAccount(db, businessId, operating, opening, at);
  return { operating, reserve };
}

export async function openAccount(db: Db, businessId: string, kind: WalletKind, name: string, primary: boolean, at: Date, currency = 'USD'): Promise<string> {
  return db.transaction((tx) => openWalletAccount(tx, { businessId, kind, currency, name, primary, at }));
}

export async function fundAccount(db: Db, businessId: string, account: string, amount: number, at: Date, currency = 'USD'): Promise<void> {
  await db.transaction((tx) => fund(tx, { businessId, account, amount, currency, key: `test-funding:${randomUUID()}`, at, effectiveDate: at.toISOString().slice(0, 10) }));
}

/** A linked bank account (VERIFIED unless told otherwise). */
export async function linkBank(db: Db, businessId: string, opts: { verified?: boolean; currency?: string; name?: string } = {}): Promise<string> {
  const id = randomUUID();
  const verified = opts.verified ?? true;
  await db.query(
    `INSERT INTO bank_accounts (id, business_id, name, bank_name, account_type, routing_number, account_number_enc, account_last4, currency, status, verified_at)
     VALUES ($1, $2, $3, 'Test Bank', 'CHECKING', '021000021', 'test-enc', '6789', $4, $5, $6)`,
    [id, businessId, opts.name ?? 'Payroll checking', opts.currency ?? 'USD', verified ? 'VERIFIED' : 'UNVERIFIED', verified ? new Date().toISOString() : null],
  );
  return id;
}
