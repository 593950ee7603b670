import {
  evaluatePolicies, itemKey, policyItemFromReimbursement, policyItemFromTransaction,
  type EvaluatedPolicy, type PolicyItem, type PolicyPerson,
} from '../../../schema/expense-policy.ts';
import type { Reimbursement } from '../../../schema/entities/reimbursement.ts';
import type { Transaction } from '../../../schema/entities/transaction.ts';
import { TRIGGER_OBJECT, type WorkflowSubject, type WorkflowTrigger } from '../../../schema/workflow.ts';
import type { Queryable } from '../../db/db.ts';
import { COLLECTIONS } from '../collections.ts';

/**
 * What a trigger's object tells the conditions (schema/workflow.ts `WorkflowSubject`), read from
 * its row, plus what the actions need (the card, the owner) and the event's occurrence: the part
 * of the event key that tells a repeated event (a claim submitted again after a rejection) from
 * the same one fired twice.
 */
export type LoadedSubject = { subject: WorkflowSubject; occurrence: string; card_id: string | null; occurred_at: string };

type Base = {
  id: string; user_id: string | null; amount: number | null; currency: string | null; merchant: string | null; merchant_category: string | null;
  department_id: string | null; vendor_id: string | null; card_id: string | null; occurrence: string; occurred_at: string; role: string | null;
  user_department: string | null;
};

const owner = (alias: string) => `LEFT JOIN spend_users u ON u.id = ${alias}`;
const ts = (col: string) => `to_jsonb(${col}) #>> '{}'`;

/** One SELECT per object type, every one `$1` business, `$2` ids; columns as `Base`. */
export const SUBJECT_SQL: Record<WorkflowSubject['object_type'], string> = {
  transaction: `SELECT t.id::text, t.user_id::text, t.amount, t.currency, t.merchant_name AS merchant, t.merchant_category, t.department_id::text,
      NULL AS vendor_id, t.card_id::text, t.change_seq::text AS occurrence, ${ts('t.occurred_at')} AS occurred_at, u.role, u.department_id::text AS user_department
    FROM transactions t ${owner('t.user_id')} WHERE t.business_id = $1 AND t.id = ANY($2::uuid[]) AND NOT t.deleted`,
  reimbursement: `SELECT r.id::text, r.user_id::text, r.amount, r.currency, r.merchant, NULL AS merchant_category, r.department_id::text,
      NULL AS vendor_id, NULL AS card_id, coalesce(${ts('r.submitted_at')}, '') AS occurrence, ${ts('coalesce(r.submitted_at, r.created_at)')} AS occurred_at,
      u.role, u.department_id::text AS user_department
    FROM reimbursements r ${owner('r.user_id')} WHERE r.business_id = $1 AND r.id = ANY($2::uuid[]) AND NOT r.deleted`,
  bill: `SELECT b.id::text, b.created_by::text AS user_id, b.amount, b.currency, v.name AS merchant, NULL AS merchant_category, NULL AS department_id,
      b.vendor_id::text, NULL AS card_id, '' AS occurrence, ${ts('b.created_at')} AS occurred_at, u.role, u.department_id::text AS user_department
    FROM bills b LEFT JOIN vendors v ON v.id = b.vendor_id ${owner('b.created_by')} WHERE b.business_id = $1 AND b.id = ANY($2::uuid[]) AND NOT b.deleted`,
  card_request: `SELECT c.id::text, c.user_id::text, c.amount, c.currency, NULL AS merchant, NULL AS merchant_category, NULL AS department_id,
      NULL AS vendor_id, c.card_id::text, '' AS occurrence, ${ts('c.created_at')} AS occurred_at, u.role, u.department_id::text AS user_department
    FROM card_requests c ${owner('c.user_id')} WHERE c.business_id = $1 AND c.id = ANY($2::uuid[]) AND NOT c.deleted`,
  spend_request: `SELECT s.id::text, s.user_id::text, s.amount, s.currency, v.name AS merchant, NULL AS merchant_category, NULL AS department_id,
      s.vendor_id::text, NULL AS card_id, coalesce(${ts('s.submitted_at')}, '') AS occurrence, ${ts('coalesce(s.submitted_at, s.created_at)')} AS occurred_at,
      u.role, u.department_id::text AS user_department
    FROM spend_requests s LEFT JOIN vendors v ON v.id = s.vendor_id ${owner('s.user_id')} WHERE s.business_id = $1 AND s.id = ANY($2::uuid[]) AND NOT s.deleted`,
  receipt: `SELECT rc.id::text, rc.user_id::text, t.amount, t.currency, t.merchant_name AS merchant, t.merchant_category, t.department_id::text,
      NULL AS vendor_id, t.card_id::text, '' AS occurrence, ${ts('rc.created_at')} AS occurred_at, u.role, u.department_id::text AS user_department
    FROM receipts rc LEFT JOIN transaction_receipts tr ON tr.receipt_id = rc.id LEFT JOIN transactions t ON t.id = tr.transaction_id ${owner('rc.user_id')}
    WHERE rc.business_id = $1 AND rc.id = ANY($2::uuid[]) AND NOT rc.deleted`,
};

/** The expense-policy violations of transactions and claims, each evaluated with the owner's other items of the same days (per-day caps). */
async function violationsOf(db: Queryable, businessId: string, type: 'transaction' | 'reimbursement', ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const policies = await db.query<EvaluatedPolicy>(
    'SELECT id::text, name, enabled, scope, rules FROM expense_policies WHERE business_id = $1 AND enabled AND NOT deleted ORDER BY created_at, id', [businessId],
  );
  if (policies.length === 0 || ids.length === 0) return out;
  const target = type === 'transaction' ? 'transactions' : 'reimbursements';
  // The owners' items of the same UTC days as the subjects.
  const sameDay = `WITH s AS (SELECT user_id, ${type === 'transaction' ? "(occurred_at AT TIME ZONE 'UTC')::date" : 'transaction_date'} AS d
                     FROM ${target} WHERE business_id = $1 AND id = ANY($2::uuid[]))`;
  const txns = await db.query<{ doc: Transaction }>(
    `${sameDay} SELECT ${COLLECTIONS.transactions.docSql} AS doc FROM transactions r JOIN s ON s.user_id = r.user_id AND (r.occurred_at AT TIME ZONE 'UTC')::date = s.d
      WHERE r.business_id = $1 AND NOT r.deleted`, [businessId, ids],
  );
  const claims = await db.query<{ doc: Reimbursement }>(
    `${sameDay} SELECT ${COLLECTIONS.reimbursements.docSql} AS doc FROM reimbursements r JOIN s ON s.user_id = r.user_id AND r.transaction_date = s.d
      WHERE r.business_id = $1 AND NOT r.deleted`, [businessId, ids],
  );
  const items = [...txns.map((t) => policyItemFromTransaction(t.doc)), ...claims.map((c) => policyItemFromReimbursement(c.doc))]
    .filter((i): i is PolicyItem => i !== null);
  const people = await db.query<PolicyPerson>(
    `SELECT id::text, role, department_id::text FROM spend_users WHERE business_id = $1 AND id = ANY($2::uuid[])`,
    [businessId, [...new Set(items.map((i) => i.user_id))]],
  );
  const result = evaluatePolicies(items, policies, new Map(people.map((p) => [p.id, p])));
  for (const id of ids) out.set(id, [...new Set((result.get(itemKey({ object_type: type, id })) ?? []).map((v) => v.code))]);
  return out;
}

/** The subjects of several objects of one type (the dry run reads many at once). */
export async function loadSubjects(db: Queryable, businessId: string, type: WorkflowSubject['object_type'], ids: string[]): Promise<Map<string, LoadedSubject>> {
  const rows = await db.query<Base>(SUBJECT_SQL[type], [businessId, ids]);
  const violations = type === 'transaction' || type === 'reimbursement' ? await violationsOf(db, businessId, type, rows.map((r) => r.id)) : null;
  const out = new Map<string, LoadedSubject>();
  for (const r of rows) {
    if (out.has(r.id)) continue; // a receipt on several transactions reads the first
    const subject: WorkflowSubject = {
      object_type: type, object_id: r.id, merchant: r.merchant, merchant_category: r.merchant_category,
      department_id: r.department_id ?? r.user_department, user_id: r.user_id, role: r.role, vendor_id: r.vendor_id,
      ...(r.amount === null || r.currency === null ? {} : { amount: Number(r.amount), currency: r.currency }),
      ...(violations ? { violations: (violations.get(r.id) ?? []) as WorkflowSubject['violations'] } : {}),
    };
    out.set(r.id, { subject, occurrence: r.occurrence, card_id: r.card_id, occurred_at: new Date(r.occurred_at).toISOString() });
  }
  return out;
}

export async function loadSubject(db: Queryable, businessId: string, trigger: WorkflowTrigger, id: string): Promise<LoadedSubject | null> {
  return (await loadSubjects(db, businessId, TRIGGER_OBJECT[trigger], [id])).get(id) ?? null;
}
