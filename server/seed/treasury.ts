import type { Queryable } from '../db/db.ts';
import { encryptBankValue, loadVendorBankKey } from '../auth/vendor-bank-crypto.ts';
import { lastSettleableDay } from '../domain/card-settlement.ts';
import { lockTransfer, releaseTransfer, settleTransfer, startTransfer } from '../domain/treasury/transfer-core.ts';
import { findAccount, openWalletAccount, systemAccount, type SystemKind } from '../ledger/ledger.ts';
import { checkLedger } from '../ledger/check.ts';
import { bulkInsert, cols } from './bulk-insert.ts';
import { planFlexDemo } from './flex.ts';
import { Rng } from './prng.ts';
import type { DemoData } from './types.ts';

/**
 * Issue 30: the demo's treasury, last of the seed (after every payment it posts is in):
 *  - Operating (the primary USD account, and one per other currency the seeded payments use),
 *    Reserve and Investment wallet accounts, opened a year before the seed's day;
 *  - every seeded money movement through the ledger, as the server posts it: each claim payment
 *    (and reversal), each bill payment attempt (send, then settle or return), and each card day
 *    three days old (one card_settlements row, SETTLED, its charges the row's items), with the server's keys;
 *  - an opening deposit and monthly deposits from FUNDING, each at least the month's outflow, so
 *    the operating account never goes below zero on any day;
 *  - internal transfers through the transfer core: three SETTLED, one PENDING;
 *  - flex onboarded, and one paid bill paid with flex: its draw and the installments due so far
 *    posted, the rest scheduled (seed/flex.ts);
 *  - the wallet settings (yield 410 bps, external transfer fee 1.50, one day) and one VERIFIED
 *    linked bank account "Chase Operating ••6789" (its number encrypted as vendors' are, context
 *    `bank_account:<id>:account_number`) with its EXTERNAL_BANK ledger account.
 * The postings go in set-based, in date order, with the ledger's triggers on (balances, daily
 * closings, the balanced-entry check at commit). The wallet's rows then take the seqs after
 * `lastSeq`, in order, so the business's seqs stay 1..M. Answers the new last seq.
 */

const DAY = 86_400_000;
export const DEMO_BANK_NAME = 'Chase Operating ••6789';
export const bankAccountContext = (id: string) => `bank_account:${id}:account_number`;

type Line = { account: string; amount: number };
type Movement = {
  id: string; kind: string; key: string; currency: string; day: string; at: string; memo: string;
  source_type: string; source_id: string; lines: Line[];
};

const dayOf = (iso: string) => iso.slice(0, 10);

type TreasuryCounts = { walletAccounts: number; transfers: number; entries: number; cardSettlements: number };

/** What the seed already paid, read back from its rows (whoever inserted them): claims, bill attempts, cleared card days. */
async function seededPayments(tx: Queryable, businessId: string, now: Date) {
  const claimRows = await tx.query<{ id: string; kind: string; amount: string; currency: string; reimbursement_id: string; reverses_id: string | null; at: string }>(
    `SELECT id::text, kind, amount::text, currency, reimbursement_id::text, reverses_id::text, ll_iso(created_at) AS at
       FROM ledger_entries WHERE business_id = $1 ORDER BY created_at, id`, [businessId]);
  const billRows = await tx.query<{ id: string; status: string; amount: string; currency: string; attempt: number; at: string; settled_at: string | null; settles_on: string | null; updated_at: string }>(
    `SELECT id::text, status, amount::text, currency, attempt, ll_iso(created_at) AS at, ll_iso(settled_at) AS settled_at,
            to_char(settles_on, 'YYYY-MM-DD') AS settles_on, ll_iso(updated_at) AS updated_at
       FROM bill_payments WHERE business_id = $1 ORDER BY created_at, id`, [businessId]);
  const lastDay = lastSettleableDay(now);
  const cardDays = await tx.query<{ currency: string; day: string; net: string; n: number }>(
    `SELECT currency, to_char((occurred_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, sum(amount)::text AS net, count(*)::int AS n
       FROM transactions WHERE business_id = $1 AND state = 'CLEARED' AND NOT deleted AND (occurred_at AT TIME ZONE 'UTC')::date <= $2::date
      GROUP BY 1, 2 ORDER BY 2, 1`, [businessId, lastDay]);
  return { claimRows, billRows, cardDays };
}

/** The seeded claims' payments and their reversals, as pay-ach and its cancel post them. */
async function addClaimMoves(
  claimRows: Awaited<ReturnType<typeof seededPayments>>['claimRows'], operating: ReadonlyMap<string, string>,
  sys: (kind: SystemKind, currency: string) => Promise<string>, add: (m: Omit<Movement, 'id'>) => void,
): Promise<void> {
  for (const r of claimRows) {
    const amount = Math.abs(Number(r.amount));
    const [emp, op] = [await sys('EMPLOYEE_PAYMENTS', r.currency), operating.get(r.currency)!];
    if (r.kind === 'PAYMENT') {
      add({ kind: 'REIMBURSEMENT_PAYMENT', key: `reimbursement-payment:${r.id}`, currency: r.currency, day: dayOf(r.at), at: r.at,
        memo: 'Reimbursement by ACH', source_type: 'reimbursement', source_id: r.reimbursement_id, lines: [{ account: op, amount: -amount }, { account: emp, amount }] });
    } else if (r.reverses_id) {
      add({ kind: 'REIMBURSEMENT_REVERSAL', key: `reimbursement-payment:${r.reverses_id}:reversal`, currency: r.currency, day: dayOf(r.at), at: r.at,
        memo: 'Reimbursement payment canceled', source_type: 'reimbursement', source_id: r.reimbursement_id, lines: [{ account: emp, amount: -amount }, { account: op, amount }] });
    }
  }
}

export async function insertTreasuryDemo(
  tx: Queryable, data: DemoData, now: Date, seed: number, lastSeq: number,
): Promise<{ lastSeq: number; counts: TreasuryCounts }> {
  const businessId = data.business.id;
  const rng = new Rng(seed, `${businessId}\u0000treasury`);
  // The counter first: opening accounts and posting to them take seqs (renumbered at the end).
  await tx.query('UPDATE businesses SET change_seq = $2 WHERE id = $1', [businessId, lastSeq]);
  const { claimRows, billRows, cardDays } = await seededPayments(tx, businessId, now);
  // The wallet: opened before the first movement (and at least a year back).
  const firsts = [...claimRows.map((r) => r.at), ...billRows.map((r) => r.at), ...cardDays.map((d) => `${d.day}T00:00:00.000Z`)].sort();
  const yearAgo = new Date(now.getTime() - 365 * DAY).toISOString();
  const openedAt = new Date(Date.parse(firsts[0] && firsts[0] < yearAgo ? firsts[0] : yearAgo) - 2 * DAY);
  const openedDay = new Date(Date.UTC(openedAt.getUTCFullYear(), openedAt.getUTCMonth(), openedAt.getUTCDate(), 9));
  const currencies = [...new Set(['USD', ...claimRows.map((r) => r.currency), ...billRows.map((r) => r.currency), ...cardDays.map((d) => d.currency)])].sort();
  const operating = new Map<string, string>();
  for (const currency of currencies) {
    operating.set(currency, await openWalletAccount(tx, {
      businessId, kind: 'OPERATING', currency, name: currency === 'USD' ? 'Operating' : `Operating ${currency}`, primary: true,
      id: rng.uuid(), at: openedDay,
    }));
  }
  const usd = operating.get('USD')!;
  const reserve = await openWalletAccount(tx, { businessId, kind: 'RESERVE', currency: 'USD', name: 'Reserve', primary: true, id: rng.uuid(), at: openedDay });
  const investment = await openWalletAccount(tx, { businessId, kind: 'INVESTMENT', currency: 'USD', name: 'Investment', primary: true, id: rng.uuid(), at: openedDay });
  const system = new Map<string, string>();
  const sys = async (kind: SystemKind, currency: string) => {
    const k = `${kind}:${currency}`;
    if (!system.has(k)) system.set(k, await systemAccount(tx, businessId, kind, currency));
    return system.get(k)!;
  };
  // Flex paid one of the paid bills (seed/flex.ts): its payment posts as the draw, not as ACH.
  const flex = await planFlexDemo(tx, {
    businessId, adminId: data.accounts.find((a) => a.role === 'BUSINESS_ADMIN')?.user_id ?? null, now, seed, operating: usd,
    line: await sys('FLEX_LINE', 'USD'), vendors: await sys('VENDOR_PAYMENTS', 'USD'), fees: await sys('FEES', 'USD'),
  });
  // Every seeded payment, as the server posts it.
  const moves: Movement[] = [...flex.moves];
  const add = (m: Omit<Movement, 'id'>) => moves.push({ ...m, id: rng.uuid() });
  await addClaimMoves(claimRows, operating, sys, add);
  for (const p of billRows) {
    if (p.id === flex.paymentId) {
      // Flex's: no ACH send/settle. Its two entry ids are still drawn, so every other id of the demo stays as it was.
      rng.uuid();
      rng.uuid();
      continue;
    }
    const amount = Number(p.amount);
    const [op, inFlight, vendors] = [operating.get(p.currency)!, await sys('PAYMENTS_IN_FLIGHT', p.currency), await sys('VENDOR_PAYMENTS', p.currency)];
    const base = { currency: p.currency, source_type: 'bill_payment', source_id: p.id };
    add({ ...base, kind: 'BILL_PAYMENT_SEND', key: `bill-payment:${p.id}:send`, day: dayOf(p.at), at: p.at, memo: `Bill payment, attempt ${p.attempt}`,
      lines: [{ account: op, amount: -amount }, { account: inFlight, amount }] });
    if (p.settled_at) {
      add({ ...base, kind: 'BILL_PAYMENT_SETTLE', key: `bill-payment:${p.id}:settle`, day: dayOf(p.settled_at), at: p.settled_at,
        memo: `Bill payment settled, attempt ${p.attempt}`, lines: [{ account: inFlight, amount: -amount }, { account: vendors, amount }] });
    }
    if (p.status === 'FAILED' || p.status === 'REVERSED') {
      const at = p.status === 'FAILED' ? (p.settles_on ? `${p.settles_on}T12:00:00.000Z` : p.updated_at) : p.updated_at;
      const from = p.settled_at ? vendors : inFlight;
      add({ ...base, kind: 'BILL_PAYMENT_RETURN', key: `bill-payment:${p.id}:return`, day: dayOf(at), at,
        memo: p.status === 'FAILED' ? 'Bill payment returned' : 'Payment reversed', lines: [{ account: from, amount: -amount }, { account: op, amount }] });
    }
  }
  const settlements: Record<string, unknown>[] = [];
  for (const d of cardDays) {
    const net = Number(d.net);
    const id = rng.uuid();
    const settledAt = new Date(Date.parse(`${d.day}T06:00:00.000Z`) + 3 * DAY).toISOString();
    let entryId: string | null = null;
    if (net !== 0) {
      const [op, network] = [operating.get(d.currency)!, await sys('CARD_NETWORK', d.currency)];
      add({ kind: 'CARD_SETTLEMENT', key: `card-settlement:${d.currency}:${d.day}`, currency: d.currency, day: d.day, at: settledAt,
        memo: `Card settlement for ${d.day}`, source_type: 'card_settlement', source_id: id, lines: [{ account: op, amount: -net }, { account: network, amount: net }] });
      entryId = moves.at(-1)!.id;
    }
    settlements.push({ id, business_id: businessId, currency: d.currency, day: d.day, net, transactions: d.n, status: 'SETTLED', entry_id: entryId, settled_at: settledAt, created_at: settledAt, updated_at: settledAt });
  }
  // Deposits: the opening balance, then on the 1st of each month at least that month's outflow
  // (rounded up to 1,000.00, plus a tenth), so every day's closing balance is ≥ 0.
  const transfersOut = 100_000_00 + 150_000_00 + 20_000_00;
  const deposits: Movement[] = [];
  for (const currency of currencies) {
    const op = operating.get(currency)!;
    const opening = currency === 'USD' ? 250_000_00 + transfersOut : 10_000_00;
    deposits.push({ id: rng.uuid(), kind: 'FUNDING', key: `demo-deposit:${currency}:opening`, currency, day: dayOf(openedDay.toISOString()),
      at: openedDay.toISOString(), memo: 'Opening deposit', source_type: 'seed', source_id: op, lines: [{ account: await sys('FUNDING', currency), amount: -opening }, { account: op, amount: opening }] });
    const outByMonth = new Map<string, number>();
    for (const m of moves) {
      const out = m.lines.find((l) => l.account === op && l.amount < 0);
      if (out) outByMonth.set(m.day.slice(0, 7), (outByMonth.get(m.day.slice(0, 7)) ?? 0) - out.amount);
    }
    for (const [month, out] of [...outByMonth].sort()) {
      const amount = Math.ceil((out * 1.1) / 1_000_00) * 1_000_00;
      const day = month < dayOf(openedDay.toISOString()).slice(0, 7) ? dayOf(openedDay.toISOString()) : `${month}-01`;
      const at = day === dayOf(openedDay.toISOString()) ? openedDay.toISOString() : `${day}T08:00:00.000Z`;
      deposits.push({ id: rng.uuid(), kind: 'FUNDING', key: `demo-deposit:${currency}:${month}`, currency, day, at,
        memo: `Deposit from ${DEMO_BANK_NAME}`, source_type: 'seed', source_id: op, lines: [{ account: await sys('FUNDING', currency), amount: -amount }, { account: op, amount }] });
    }
  }
  // In date order, a day's deposits first: no insert ever finds the account short.
  const all = [...deposits, ...moves].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : (a.kind === 'FUNDING' ? 0 : 1) - (b.kind === 'FUNDING' ? 0 : 1) || (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)));
  // The opening deposit and transfers go first (the transfers post through the transfer core).
  const opening = all.filter((m) => m.key.endsWith(':opening'));
  const rest = all.filter((m) => !m.key.endsWith(':opening'));
  await insertMovements(tx, businessId, opening);
  const transferIds = await insertTransfers(tx, data, now, rng, lastSeq, { usd, reserve, investment });
  await insertBulk(tx, businessId, rest);
  await flex.insertRows(tx, openedDay);
  await bulkInsert(tx, 'card_settlements', cols(
    'id:uuid', 'business_id:uuid', 'currency:text', 'day:date', 'net:bigint', 'transactions:integer', 'status:text', 'entry_id:uuid',
    'settled_at:timestamptz', 'created_at:timestamptz', 'updated_at:timestamptz',
  ), settlements);
  await insertSettlementItems(tx, businessId);
  await insertSettingsAndBank(tx, businessId, rng, openedDay);
  const { next, accounts } = await renumberWallet(tx, businessId, now, lastSeq, transferIds);
  return {
    lastSeq: next,
    counts: { walletAccounts: accounts, transfers: transferIds.length, entries: all.length, cardSettlements: settlements.length },
  };
}

/** Each settled day's charges are its items (migration 067): the job never settles them again. */
async function insertSettlementItems(tx: Queryable, businessId: string): Promise<void> {
  await tx.query(
    `INSERT INTO card_settlement_items (business_id, settlement_id, transaction_id, amount)
     SELECT t.business_id, s.id, t.id, t.amount FROM card_settlements s
       JOIN transactions t ON t.business_id = s.business_id AND t.currency = s.currency AND t.state = 'CLEARED' AND NOT t.deleted
                          AND (t.occurred_at AT TIME ZONE 'UTC')::date = s.day
      WHERE s.business_id = $1`, [businessId]);
}

/** The wallet's rows take the seqs after lastSeq: accounts (by kind, name), then transfers (oldest first), then linked bank accounts; the counter follows. */
async function renumberWallet(tx: Queryable, businessId: string, now: Date, lastSeq: number, transferIds: readonly string[]): Promise<{ next: number; accounts: number }> {
  const wallet = await tx.query<{ id: string }>(
    `SELECT id::text FROM ledger_accounts WHERE business_id = $1 AND change_seq IS NOT NULL ORDER BY kind, name`, [businessId]);
  let next = lastSeq;
  for (const w of wallet) await tx.query('UPDATE ledger_accounts SET change_seq = $2, updated_at = $3 WHERE id = $1', [w.id, ++next, now.toISOString()]);
  for (const id of transferIds) await tx.query('UPDATE wallet_transfers SET change_seq = $2 WHERE id = $1', [id, ++next]);
  // The linked bank account (inserted with seq 0) takes the next one.
  const banks = await tx.query<{ id: string }>('SELECT id::text FROM bank_accounts WHERE business_id = $1 ORDER BY created_at, id', [businessId]);
  for (const b of banks) await tx.query('UPDATE bank_accounts SET change_seq = $2 WHERE id = $1', [b.id, ++next]);
  await tx.query('UPDATE businesses SET change_seq = $2 WHERE id = $1', [businessId, next]);
  return { next, accounts: wallet.length };
}

/** Internal transfers through the transfer core, as the calls make them: three SETTLED, one PENDING. */
async function insertTransfers(
  tx: Queryable, data: DemoData, now: Date, rng: Rng, lastSeq: number, a: { usd: string; reserve: string; investment: string },
): Promise<string[]> {
  const businessId = data.business.id;
  const { usd, reserve, investment } = a;
  const transfers: { from: string; to: string; amount: number; daysAgo: number; memo: string; settle: 'SETTLED' | 'PENDING' | 'CANCELED' }[] = [
    { from: usd, to: reserve, amount: 100_000_00, daysAgo: 300, memo: 'Start the reserve', settle: 'SETTLED' },
    { from: usd, to: investment, amount: 150_000_00, daysAgo: 200, memo: 'Treasury allocation', settle: 'SETTLED' },
    { from: reserve, to: usd, amount: 25_000_00, daysAgo: 60, memo: 'Cover the quarter\u2019s payroll float', settle: 'SETTLED' },
    { from: usd, to: reserve, amount: 20_000_00, daysAgo: 1, memo: 'Monthly reserve top-up', settle: 'PENDING' },
  ];
  const admin = data.accounts.find((a) => a.role === 'BUSINESS_ADMIN')?.user_id ?? null;
  let seq = lastSeq;
  const transferIds: string[] = [];
  for (const t of transfers) {
    const at = new Date(now.getTime() - t.daysAgo * DAY + 10 * 3_600_000);
    const settleDay = new Date(at.getTime() + DAY).toISOString().slice(0, 10);
    const id = rng.uuid();
    transferIds.push(id);
    const [from, to] = [await findAccount(tx, businessId, t.from), await findAccount(tx, businessId, t.to)];
    await startTransfer(tx, { businessId, id, from: from!, to: to!, amount: t.amount, fee: 0, memo: t.memo, expectedSettlementDate: settleDay, createdBy: admin, at, seq: ++seq });
    if (t.settle !== 'PENDING') {
      const row = (await lockTransfer(tx, businessId, id))!;
      if (t.settle === 'SETTLED') await settleTransfer(tx, row, new Date(at.getTime() + DAY), ++seq);
      else await releaseTransfer(tx, row, { status: 'CANCELED' }, at, ++seq);
    }
  }
  return transferIds;
}

/** The wallet settings and the VERIFIED linked bank account with its EXTERNAL_BANK ledger account. */
async function insertSettingsAndBank(tx: Queryable, businessId: string, rng: Rng, openedDay: Date): Promise<void> {
  await tx.query(
    `INSERT INTO wallet_settings (business_id, yield_rate_bps, external_transfer_fee, external_settlement_days, updated_at)
     VALUES ($1, 410, 150, 1, $2)`, [businessId, openedDay.toISOString()]);
  const bankId = rng.uuid();
  const key = await loadVendorBankKey(tx);
  await tx.query(
    // change_seq 0 until renumberWallet gives it its place (an explicit seq: 064's trigger leaves it).
    `INSERT INTO bank_accounts (id, business_id, name, bank_name, account_type, routing_number, account_number_enc, account_last4, currency,
                                status, verified_at, created_at, updated_at, change_seq)
     VALUES ($1, $2, $3, 'JPMorgan Chase', 'CHECKING', '021000021', $4, '6789', 'USD', 'VERIFIED', $5, $5, $5, 0)`,
    [bankId, businessId, DEMO_BANK_NAME, encryptBankValue(key, '000123456789', bankAccountContext(bankId)), openedDay.toISOString()]);
  await tx.query(
    `INSERT INTO ledger_accounts (id, business_id, kind, currency, name, allow_negative, bank_account_id, created_at)
     VALUES ($1, $2, 'EXTERNAL_BANK', 'USD', $3, true, $4, $5)`,
    [rng.uuid(), businessId, DEMO_BANK_NAME, bankId, openedDay.toISOString()]);

}

/**
 * The bulk of the movements. With the privilege to (superuser: PGlite always, a local PostgreSQL
 * usually; as seed.ts does for the transactions) the triggers are off while they go in, and the
 * balances and daily closings are then computed set-based from the postings, which checkLedger
 * then proves (entries balanced, cached balances and closings equal to the postings, no wallet
 * account below zero) before the seed may commit: per posting, the trigger's account and counter
 * updates cost the 20k-transaction seed minutes (measured: insert 24 s → 256 s). Without the
 * privilege, the triggers keep it all as for any other write.
 */
async function insertBulk(tx: Queryable, businessId: string, moves: readonly Movement[]): Promise<void> {
  const [role] = await tx.query<{ superuser: boolean }>("SELECT current_setting('is_superuser') = 'on' AS superuser");
  if (!role?.superuser) return insertMovements(tx, businessId, moves);
  await tx.exec('SET LOCAL session_replication_role = replica');
  await insertMovements(tx, businessId, moves);
  await tx.query(
    `UPDATE ledger_accounts a SET balance = s.total
       FROM (SELECT account_id, sum(amount) AS total FROM postings WHERE business_id = $1 GROUP BY account_id) s
      WHERE a.id = s.account_id AND a.business_id = $1`, [businessId]);
  await tx.query(
    'DELETE FROM ledger_daily_balances WHERE account_id IN (SELECT id FROM ledger_accounts WHERE business_id = $1)', [businessId]);
  await tx.query(
    `INSERT INTO ledger_daily_balances (account_id, day, closing)
     SELECT account_id, day, sum(net) OVER (PARTITION BY account_id ORDER BY day)
       FROM (SELECT p.account_id, e.effective_date AS day, sum(p.amount) AS net
               FROM postings p JOIN journal_entries e ON e.id = p.entry_id
              WHERE p.business_id = $1 GROUP BY 1, 2) d`, [businessId]);
  await tx.exec('SET LOCAL session_replication_role = DEFAULT');
  const report = await checkLedger(tx, businessId);
  if (!report.ok) throw new Error(`the demo's ledger does not check: ${JSON.stringify(report)}`);
}

/** Entries then their postings, set-based, in the given order (the posting trigger keeps balances and daily closings). */
async function insertMovements(tx: Queryable, businessId: string, moves: readonly Movement[]): Promise<void> {
  if (moves.length === 0) return;
  await bulkInsert(tx, 'journal_entries', cols(
    'id:uuid', 'business_id:uuid', 'kind:text', 'idem_key:text', 'memo:text', 'source_type:text', 'source_id:uuid', 'effective_date:date', 'created_at:timestamptz',
  ), moves.map((m) => ({ id: m.id, business_id: businessId, kind: m.kind, idem_key: m.key, memo: m.memo, source_type: m.source_type, source_id: m.source_id, effective_date: m.day, created_at: m.at })));
  const postings = moves.flatMap((m) => m.lines.map((l) => ({ business_id: businessId, entry_id: m.id, account_id: l.account, amount: l.amount, currency: m.currency })));
  // Ordered by the row's position (jsonb_to_recordset keeps it), one statement per chunk.
  await bulkInsert(tx, 'postings', cols('business_id:uuid', 'entry_id:uuid', 'account_id:uuid', 'amount:bigint', 'currency:text'), postings);
}
