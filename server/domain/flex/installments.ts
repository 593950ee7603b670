import type { z } from 'zod';
import type { flexInstallmentSchema, FlexRecord } from '../../../schema/api/calls-float.ts';
import { minorToDecimal } from '../../../schema/money.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { lockAccounts, postEntry, primaryAccount, systemAccount } from '../../ledger/ledger.ts';

/**
 * Issue 30, flex installments. Collecting one (the job on its due date, or a retry of a FAILED
 * one) is one ledger entry FLEX_INSTALLMENT keyed `flex-installment:<id>:<attempt>`: the primary
 * OPERATING account gives principal + fee, FLEX_LINE gets the principal back (the line's available
 * amount grows by it), FEES gets the fee. Not enough money (or no primary OPERATING account in
 * the line's currency) posts nothing: the installment is FAILED with the reason. When every
 * installment of a record is PAID the record is REPAID.
 *
 * Exactly once: the installment row is locked FOR UPDATE and its status read under the lock
 * (a second collector finds it PAID), the attempt number is part of the entry key, and the
 * operating account is locked before its funds are read, so the overdraft CHECK never fires.
 * Lock order: the business row (callers take it first), the installment, the ledger accounts.
 */
export type FlexInstallment = z.infer<typeof flexInstallmentSchema>;

type InstallmentRow = {
  id: string; record_id: string; due_date: string; principal: string | number; fee: string | number; currency: string;
  status: 'SCHEDULED' | 'PAID' | 'FAILED'; paid_at: string | null; failure_reason: string | null; attempts: number;
  line_account_id: string | null;
};

const INSTALLMENT_SELECT = `SELECT i.id, i.record_id, to_char(i.due_date, 'YYYY-MM-DD') AS due_date, i.principal, i.fee, r.currency, i.status,
       ll_iso(i.paid_at) AS paid_at, i.failure_reason, i.attempts, s.line_account_id
  FROM flex_installments i JOIN flex_records r ON r.id = i.record_id
  LEFT JOIN flex_settings s ON s.business_id = i.business_id`;

function installmentDoc(r: InstallmentRow): FlexInstallment {
  return {
    id: r.id, due_date: r.due_date, amount: { amount: Number(r.principal) + Number(r.fee), currency: r.currency }, status: r.status,
    paid_at: r.paid_at, failure_reason: r.failure_reason, attempts: r.attempts,
  };
}

type RecordRow = {
  id: string; bill_id: string; offer_id: string; amount: string | number; fee: string | number; currency: string; term_days: 30 | 60 | 90;
  status: 'ACTIVE' | 'REPAID'; accepted_by: string; created_at: string;
};

async function recordDocs(db: Queryable, businessId: string, rows: RecordRow[]): Promise<FlexRecord[]> {
  if (rows.length === 0) return [];
  const installments = await db.query<InstallmentRow>(
    `${INSTALLMENT_SELECT} WHERE i.business_id = $1 AND i.record_id = ANY($2::uuid[]) ORDER BY i.record_id, i.number`,
    [businessId, rows.map((r) => r.id)],
  );
  return rows.map((r) => ({
    id: r.id, bill_id: r.bill_id, offer_id: r.offer_id,
    amount: { amount: Number(r.amount), currency: r.currency }, fee: { amount: Number(r.fee), currency: r.currency },
    term_days: r.term_days, status: r.status, accepted_by: r.accepted_by, created_at: r.created_at,
    installments: installments.filter((i) => i.record_id === r.id).map(installmentDoc),
  }));
}

const RECORD_SELECT = `SELECT id, bill_id, offer_id, amount, fee, currency, term_days, status, accepted_by, ll_iso(created_at) AS created_at
  FROM flex_records`;

export async function findRecord(db: Queryable, businessId: string, id: string): Promise<FlexRecord> {
  const rows = await db.query<RecordRow>(`${RECORD_SELECT} WHERE business_id = $1 AND id = $2`, [businessId, id]);
  const [doc] = await recordDocs(db, businessId, rows);
  if (!doc) throw new ApiError('REQUEST_7004', 'This flex record was not found.');
  return doc;
}

/** GET records: newest first; `billId` narrows to one bill (another business's bill is 404). */
export async function listFlexRecords(db: Queryable, businessId: string, billId?: string): Promise<{ data: FlexRecord[] }> {
  if (billId) {
    const bill = await db.query('SELECT 1 FROM bills WHERE business_id = $1 AND id = $2 AND NOT deleted', [businessId, billId]);
    if (bill.length === 0) throw new ApiError('REQUEST_7004', 'This bill was not found.');
  }
  const rows = await db.query<RecordRow>(
    `${RECORD_SELECT} WHERE business_id = $1 AND ($2::uuid IS NULL OR bill_id = $2::uuid) ORDER BY created_at DESC, id DESC LIMIT 500`,
    [businessId, billId ?? null],
  );
  return { data: await recordDocs(db, businessId, rows) };
}

export type Collected = { status: 'PAID' } | { status: 'FAILED'; reason: string; available: string | null };

/**
 * Collects one installment the caller has locked (status SCHEDULED or FAILED): posts the entry
 * and marks it PAID, or marks it FAILED with the reason and posts nothing. Attempts + 1 either way.
 */
async function collect(tx: Queryable, businessId: string, row: InstallmentRow, now: Date): Promise<Collected> {
  const attempt = row.attempts + 1;
  const principal = Number(row.principal);
  const fee = Number(row.fee);
  const total = principal + fee;
  const at = now.toISOString();
  const operating = await primaryAccount(tx, businessId, 'OPERATING', row.currency);
  let failure: Collected | null = null;
  if (!operating || !row.line_account_id) {
    failure = { status: 'FAILED', reason: `There is no primary operating account in ${row.currency} to collect it from.`, available: null };
  } else {
    const locked = (await lockAccounts(tx, businessId, [operating.id])).get(operating.id)!;
    if (locked.balance < total) {
      const available = `${minorToDecimal(Math.max(0, locked.balance), row.currency)} ${row.currency}`;
      failure = {
        status: 'FAILED', available,
        reason: `Not enough funds in ${locked.name}: ${minorToDecimal(total, row.currency)} ${row.currency} is due and ${available} is available.`,
      };
    }
  }
  if (failure?.status === 'FAILED') {
    await tx.query(
      `UPDATE flex_installments SET status = 'FAILED', attempts = $2, failure_reason = $3 WHERE id = $1`, [row.id, attempt, failure.reason],
    );
    return failure;
  }
  const lines = [{ account: operating!.id, amount: -total }, { account: row.line_account_id!, amount: principal }];
  if (fee > 0) lines.push({ account: await systemAccount(tx, businessId, 'FEES', row.currency), amount: fee });
  const entry = await postEntry(tx, {
    businessId, kind: 'FLEX_INSTALLMENT', key: `flex-installment:${row.id}:${attempt}`, currency: row.currency, lines, at: now,
    memo: 'Flex installment', source: { type: 'flex_installment', id: row.id },
  });
  await tx.query(
    `UPDATE flex_installments SET status = 'PAID', attempts = $2, failure_reason = NULL, paid_at = $3, entry_id = $4 WHERE id = $1`,
    [row.id, attempt, at, entry.id],
  );
  await tx.query(
    `UPDATE flex_records r SET status = 'REPAID', repaid_at = $2
      WHERE r.id = $1 AND r.status = 'ACTIVE'
        AND NOT EXISTS (SELECT 1 FROM flex_installments i WHERE i.record_id = r.id AND i.status <> 'PAID')`,
    [row.record_id, at],
  );
  return { status: 'PAID' };
}

/** The installment locked, or null (another business's id reads as none). */
async function lockInstallment(tx: Queryable, businessId: string, id: string, skipLocked = false): Promise<InstallmentRow | null> {
  const rows = await tx.query<InstallmentRow>(
    `${INSTALLMENT_SELECT} WHERE i.business_id = $1 AND i.id = $2 FOR UPDATE OF i${skipLocked ? ' SKIP LOCKED' : ''}`, [businessId, id],
  );
  return rows[0] ?? null;
}

/**
 * The job's collection of a due SCHEDULED installment (the caller holds the business row):
 * null when another runner has it or it is no longer SCHEDULED.
 */
export async function collectDue(tx: Queryable, businessId: string, id: string, now: Date): Promise<Collected | null> {
  const row = await lockInstallment(tx, businessId, id, true);
  if (row?.status !== 'SCHEDULED' || row.due_date > now.toISOString().slice(0, 10)) return null;
  return collect(tx, businessId, row, now);
}

/**
 * POST retry-installment-payment: a FAILED installment collected now (the business row locked
 * first, as every writer does). PAID → FLEX_7004; SCHEDULED → REQUEST_7001 (the job collects it on its day);
 * not enough funds → TREASURY_7004 naming the available amount (the refusal rolls the request
 * back: the installment stays FAILED as it was and nothing is posted).
 */
export async function retryInstallment(tx: Queryable, businessId: string, id: string, now: Date): Promise<FlexInstallment> {
  await tx.query('SELECT 1 FROM businesses WHERE id = $1 FOR NO KEY UPDATE', [businessId]);
  const row = await lockInstallment(tx, businessId, id);
  if (!row) throw new ApiError('REQUEST_7004', 'This flex installment was not found.');
  if (row.status === 'PAID') throw new ApiError('FLEX_7004');
  if (row.status === 'SCHEDULED') {
    throw new ApiError('REQUEST_7001', `This installment is not due to be retried: it is scheduled for ${row.due_date}. Only a failed installment can be retried.`);
  }
  const result = await collect(tx, businessId, row, now);
  if (result.status === 'FAILED') {
    throw new ApiError('TREASURY_7004', result.reason, result.available ? { amount: `${result.available} is available` } : undefined);
  }
  const [paid] = await tx.query<InstallmentRow>(`${INSTALLMENT_SELECT} WHERE i.id = $1`, [id]);
  return installmentDoc(paid!);
}
