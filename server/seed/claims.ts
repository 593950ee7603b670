import { settlesAt } from '../../schema/reimbursement-rules.ts';
import type { Queryable } from '../db/db.ts';
import { Rng } from './prng.ts';
import type { DemoData } from './types.ts';

/**
 * Demo reimbursements under review (issue 9): the demo employee's claims in every status, and a
 * submitted claim from each other report of the demo manager, so the manager's approval inbox has
 * something in it at first sign-in. A handful of rows, written after the generated data with the
 * change seqs that follow it; deterministic for a given demo (ids from their own PRNG stream).
 */

type Status = 'DRAFT' | 'SUBMITTED' | 'APPROVED' | 'REJECTED' | 'PAID';
export interface DemoClaim {
  id: string; user_id: string; status: Status; merchant: string; amount: number; transaction_date: string; memo: string | null;
  rejection_reason: string | null; submitted_at: string | null; created_at: string; change_seq: number;
}
export interface DemoApproval {
  id: string; object_id: string; user_id: string; approver_id: string | null; status: 'PENDING' | 'APPROVED' | 'REJECTED';
  reason: string | null; decided_by: string | null; decided_at: string | null; created_at: string; change_seq: number;
}
export interface DemoPayment { id: string; reimbursement_id: string; user_id: string; amount: number; created_by: string; created_at: string }
export interface DemoClaims { claims: DemoClaim[]; approvals: DemoApproval[]; payments: DemoPayment[]; maxChangeSeq: number }

const DAY = 86_400_000;
const EMPLOYEE_CLAIMS: { status: Status; merchant: string; amount: number; daysAgo: number; memo: string | null; reason?: string }[] = [
  { status: 'SUBMITTED', merchant: 'Blue Bottle Coffee', amount: 1875, daysAgo: 3, memo: 'Coffee with a candidate' },
  { status: 'SUBMITTED', merchant: 'Lyft', amount: 4260, daysAgo: 5, memo: 'Airport ride, card declined' },
  { status: 'APPROVED', merchant: 'Staples', amount: 2399, daysAgo: 12, memo: 'Printer paper' },
  { status: 'REJECTED', merchant: 'Amazon', amount: 8999, daysAgo: 15, memo: 'Keyboard', reason: 'Please buy equipment through IT.' },
  { status: 'PAID', merchant: 'Hilton', amount: 21400, daysAgo: 30, memo: 'Conference hotel, one night' },
  { status: 'DRAFT', merchant: 'Parking garage', amount: 1600, daysAgo: 1, memo: null },
];
const REPORT_MERCHANTS = ['Chipotle', 'Uber', 'Office Depot', 'Sweetgreen', 'FedEx'];

export function demoClaims(data: DemoData, now: Date, seed: number): DemoClaims {
  const rng = new Rng(seed, `${data.business.id}\u0000claims`);
  let seq = data.maxChangeSeq;
  const account = (key: string) => data.accounts.find((a) => a.email.startsWith(`${key}@`));
  const employee = account('employee');
  const manager = account('manager');
  const admin = account('admin');
  if (!employee || !manager || !admin) return { claims: [], approvals: [], payments: [], maxChangeSeq: seq };
  const managerOf = new Map(data.users.map((u) => [u.id, u.manager_id]));
  const claims: DemoClaim[] = [];
  const approvals: DemoApproval[] = [];
  const payments: DemoPayment[] = [];
  const at = (daysAgo: number, hours = 0) => new Date(now.getTime() - daysAgo * DAY + hours * 3_600_000).toISOString();

  const add = (userId: string, c: (typeof EMPLOYEE_CLAIMS)[number]) => {
    const created = at(c.daysAgo, 9);
    const submitted = c.status === 'DRAFT' ? null : at(c.daysAgo, 10);
    const claim: DemoClaim = {
      id: rng.uuid(), user_id: userId, status: c.status, merchant: c.merchant, amount: c.amount,
      transaction_date: at(c.daysAgo).slice(0, 10), memo: c.memo, rejection_reason: c.reason ?? null,
      submitted_at: submitted, created_at: created, change_seq: ++seq,
    };
    claims.push(claim);
    if (!submitted) return;
    const decided = c.status === 'SUBMITTED' ? null : at(c.daysAgo - 1, 11);
    approvals.push({
      id: rng.uuid(), object_id: claim.id, user_id: userId, approver_id: managerOf.get(userId) ?? null,
      status: c.status === 'SUBMITTED' ? 'PENDING' : c.status === 'REJECTED' ? 'REJECTED' : 'APPROVED',
      reason: c.reason ?? null, decided_by: decided ? manager.user_id : null, decided_at: decided, created_at: submitted, change_seq: ++seq,
    });
    if (c.status === 'PAID') {
      payments.push({ id: rng.uuid(), reimbursement_id: claim.id, user_id: userId, amount: c.amount, created_by: admin.user_id, created_at: at(c.daysAgo - 2, 12) });
    }
  };
  for (const c of EMPLOYEE_CLAIMS) add(employee.user_id, c);
  const reports = data.users.filter((u) => u.manager_id === manager.user_id && u.id !== employee.user_id).slice(0, REPORT_MERCHANTS.length);
  reports.forEach((u, i) => add(u.id, { status: 'SUBMITTED', merchant: REPORT_MERCHANTS[i]!, amount: 1200 + 850 * i, daysAgo: 2 + i, memo: 'Team expense' }));
  return { claims, approvals, payments, maxChangeSeq: seq };
}

export async function insertClaims(tx: Queryable, businessId: string, c: DemoClaims): Promise<void> {
  for (const r of c.claims) {
    await tx.query(
      `INSERT INTO reimbursements (id, business_id, user_id, type, status, merchant, amount, currency, transaction_date, memo,
         rejection_reason, submitted_at, created_at, updated_at, change_seq)
       VALUES ($1, $2, $3, 'OUT_OF_POCKET', $4, $5, $6, 'USD', $7, $8, $9, $10, $11, $11, $12)`,
      [r.id, businessId, r.user_id, r.status, r.merchant, r.amount, r.transaction_date, r.memo, r.rejection_reason, r.submitted_at, r.created_at, r.change_seq],
    );
  }
  for (const a of c.approvals) {
    await tx.query(
      `INSERT INTO approvals (id, business_id, object_type, object_id, user_id, approver_id, status, reason, decided_by, decided_at,
         created_at, updated_at, change_seq)
       VALUES ($1, $2, 'reimbursement', $3, $4, $5, $6, $7, $8, $9::timestamptz, $10::timestamptz, coalesce($9::timestamptz, $10::timestamptz), $11)`,
      [a.id, businessId, a.object_id, a.user_id, a.approver_id, a.status, a.reason, a.decided_by, a.decided_at, a.created_at, a.change_seq],
    );
  }
  for (const p of c.payments) {
    await tx.query(
      `INSERT INTO ledger_entries (id, business_id, reimbursement_id, user_id, kind, method, amount, currency, created_by, created_at, settles_at)
       VALUES ($1, $2, $3, $4, 'PAYMENT', 'ACH', $5, 'USD', $6, $7, $8)`,
      [p.id, businessId, p.reimbursement_id, p.user_id, p.amount, p.created_by, p.created_at, settlesAt(new Date(p.created_at)).toISOString()],
    );
  }
}
