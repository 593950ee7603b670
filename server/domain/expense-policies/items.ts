import {
  claimMerchant, inWizardClaim, inWizardTransaction, policyItemFromReimbursement, policyItemFromTransaction, type EvaluatedPolicy, type PolicyItem,
} from '../../../schema/expense-policy.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * Card transactions and claims as the evaluator reads them (schema/expense-policy.ts
 * `PolicyItem`), loaded in SQL with what the missing-items wizard shows besides. One column list
 * per table, filtered by the caller's WHERE (alias `r`), so the wizard, its per-day companions
 * and compliance read the same fields the same way.
 */
export type LoadedItem = {
  item: PolicyItem;
  /** The sort time: a transaction's occurred_at, a claim's claim date at 00:00 UTC (ISO). */
  at: string;
  merchant: string;
  receipt_ids: string[];
  location_id: string | null;
  /** Whether the wizard lists it (schema/expense-policy.ts inWizardTransaction / inWizardClaim). */
  inWizard: boolean;
};

type TxRow = {
  id: string; user_id: string; amount: number; currency: string; occurred_at: string; state: string; merchant_name: string;
  merchant_category: string; memo: string | null; receipt_ids: string[]; gl_account_id: string | null; department_id: string | null;
  location_id: string | null; accounting_synced_at: string | null;
};
type ClaimRow = {
  id: string; user_id: string; amount: number; currency: string; transaction_date: string; status: string; merchant: string | null;
  type: 'OUT_OF_POCKET' | 'MILEAGE' | 'PER_DIEM'; memo: string | null; receipt_ids: string[]; gl_account_id: string | null;
  department_id: string | null; distance_miles: number | null; start_date: string | null; end_date: string | null; at: string;
};

/** A transaction's live receipts (a deleted receipt does not count), oldest attachment first: the doc's own list. */
export const TX_RECEIPTS_SQL = `(SELECT coalesce(jsonb_agg(tr.receipt_id ORDER BY tr.created_at, tr.receipt_id), '[]'::jsonb)
    FROM transaction_receipts tr JOIN receipts rc ON rc.id = tr.receipt_id WHERE tr.transaction_id = r.id AND NOT rc.deleted)`;
/** A claim's sort time: its claim date at midnight UTC. */
export const CLAIM_AT_SQL = `(r.transaction_date::timestamp AT TIME ZONE 'UTC')`;

export const TX_COLUMNS = `r.id::text AS id, r.user_id::text AS user_id, r.amount, r.currency, ll_iso(r.occurred_at) AS occurred_at, r.state,
  r.merchant_name, r.merchant_category, r.memo, ${TX_RECEIPTS_SQL} AS receipt_ids, r.gl_account_id::text AS gl_account_id,
  r.department_id::text AS department_id, r.location_id::text AS location_id, ll_iso(r.accounting_synced_at) AS accounting_synced_at`;
export const CLAIM_COLUMNS = `r.id::text AS id, r.user_id::text AS user_id, r.amount, r.currency,
  to_char(r.transaction_date, 'YYYY-MM-DD') AS transaction_date, r.status, r.merchant, r.type, r.memo, to_jsonb(r.receipt_ids) AS receipt_ids,
  r.gl_account_id::text AS gl_account_id, r.department_id::text AS department_id, r.distance_miles::float8 AS distance_miles,
  to_char(r.start_date, 'YYYY-MM-DD') AS start_date, to_char(r.end_date, 'YYYY-MM-DD') AS end_date, ll_iso(${CLAIM_AT_SQL}) AS at`;

/** Every spend item the evaluator checks: pending/cleared purchases, claims not canceled. */
export const TX_ITEM_WHERE = `NOT r.deleted AND r.state IN ('PENDING', 'CLEARED') AND r.amount > 0`;
export const CLAIM_ITEM_WHERE = `NOT r.deleted AND r.status <> 'CANCELED' AND r.amount > 0`;
/** What the wizard lists (the SQL twin of inWizardTransaction / inWizardClaim). */
export const TX_WIZARD_WHERE = `${TX_ITEM_WHERE} AND r.accounting_synced_at IS NULL`;
export const CLAIM_WIZARD_WHERE = `NOT r.deleted AND r.status IN ('DRAFT', 'REJECTED') AND r.amount > 0`;

export function fromTransactionRow(r: TxRow): LoadedItem | null {
  const row = { ...r, amount: Number(r.amount) };
  const item = policyItemFromTransaction(row);
  if (!item) return null;
  return {
    item, at: r.occurred_at, merchant: r.merchant_name, receipt_ids: r.receipt_ids, location_id: r.location_id, inWizard: inWizardTransaction(row),
  };
}

export function fromClaimRow(r: ClaimRow): LoadedItem | null {
  const row = { ...r, amount: Number(r.amount) };
  const item = policyItemFromReimbursement(row);
  if (!item) return null;
  return { item, at: r.at, merchant: claimMerchant(r), receipt_ids: r.receipt_ids, location_id: null, inWizard: inWizardClaim(row) };
}

/** A WHERE on alias `r` with its parameters. */
export type Where = { where: string; params: unknown[] };

/** Transactions matching `tx` and claims matching `claims`. */
export async function loadItems(db: Queryable, tx: Where, claims: Where): Promise<LoadedItem[]> {
  const txs = await db.query<TxRow>(`SELECT ${TX_COLUMNS} FROM transactions r WHERE ${tx.where}`, tx.params);
  const cs = await db.query<ClaimRow>(`SELECT ${CLAIM_COLUMNS} FROM reimbursements r WHERE ${claims.where}`, claims.params);
  return [...txs.map(fromTransactionRow), ...cs.map(fromClaimRow)].filter((i): i is LoadedItem => i !== null);
}

// ---------------------------------------------------------------------------------------------
// The wizard's SQL filter: exactly the items with a fixable violation under the given policies.

/**
 * JavaScript's `String.prototype.trim` whitespace (WhiteSpace and LineTerminator), as a
 * PostgreSQL regular expression of a blank memo: `btrim` removes spaces only, and a memo of a
 * no-break space must read as blank on both sides, as the evaluator reads it.
 */
const BLANK_MEMO = '^[\\s\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]*$';

type Thresholds = {
  receipt: Record<string, number>; memo: Record<string, number>; gl: boolean; department: boolean; location: boolean;
  /** Whether items a workflow requires a receipt for are missing one too (the business has such marks). */
  workflowReceipts?: boolean;
};

/** The lowest threshold per currency and the coding fields any of `policies` (those applying to one person) asks for. */
export function thresholdsOf(policies: readonly EvaluatedPolicy[]): Thresholds {
  const t: Thresholds = { receipt: {}, memo: {}, gl: false, department: false, location: false };
  const lower = (into: Record<string, number>, m: { amount: number; currency: string } | null) => {
    if (m) into[m.currency] = Math.min(into[m.currency] ?? Number.POSITIVE_INFINITY, m.amount);
  };
  for (const p of policies) {
    if (!p.enabled) continue;
    lower(t.receipt, p.rules.receipt_required_from);
    lower(t.memo, p.rules.memo_required_above);
    t.gl ||= p.rules.coding_required.gl_account;
    t.department ||= p.rules.coding_required.department;
    t.location ||= p.rules.coding_required.location;
  }
  return t;
}

/**
 * The SQL twin of `fixableViolations(evaluatePolicies(...))` being non-empty for one person's
 * items (alias `r`), pushing its parameters: a receipt missing at or above the currency's lowest
 * threshold (card transactions and out-of-pocket claims), a blank memo strictly above the lowest
 * memo threshold, a coding field a policy requires left empty (location: card transactions only).
 * `false` when nothing could be missing. Tests hold it to the evaluator over random items.
 */
export function fixableSql(kind: 'transaction' | 'reimbursement', t: Thresholds, params: unknown[]): string {
  const ors: string[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  // The cheap checks first: PostgreSQL evaluates an OR's arms in order, so the receipt probe runs
  // only for rows nothing else already matched.
  if (Object.keys(t.memo).length > 0) {
    ors.push(`(r.amount > (${p(JSON.stringify(t.memo))}::jsonb ->> r.currency)::int8 AND coalesce(r.memo, '') ~ ${p(BLANK_MEMO)})`);
  }
  if (t.gl) ors.push('r.gl_account_id IS NULL');
  if (t.department) ors.push('r.department_id IS NULL');
  if (t.location && kind === 'transaction') ors.push('r.location_id IS NULL');
  if (Object.keys(t.receipt).length > 0) {
    ors.push(`(r.amount >= (${p(JSON.stringify(t.receipt))}::jsonb ->> r.currency)::int8 AND ${noReceiptSql(kind)})`);
  }
  if (t.workflowReceipts) ors.push(`(${noReceiptSql(kind)} AND ${WORKFLOW_REQUIRES_SQL})`);
  return ors.length > 0 ? `(${ors.join(' OR ')})` : 'false';
}

/** An item with no receipt where the wizard has a receipt step (card transactions, out-of-pocket claims). */
function noReceiptSql(kind: 'transaction' | 'reimbursement'): string {
  return kind === 'transaction'
    // A scalar subquery, not NOT EXISTS: inside an OR, PostgreSQL would hash every receipt of the
    // business to answer it; this probes transaction_receipts' primary key for the person's rows only.
    ? `(SELECT 1 FROM transaction_receipts tr JOIN receipts rc ON rc.id = tr.receipt_id WHERE tr.transaction_id = r.id AND NOT rc.deleted LIMIT 1) IS NULL`
    : `r.type = 'OUT_OF_POCKET' AND cardinality(r.receipt_ids) = 0`;
}

/**
 * A workflow's `require_receipt` marked the item (workflow_receipt_requirements, the table
 * domain/workflows/requirements.ts reads): a primary-key probe (business, object) per row, put
 * last in the OR so it runs only for rows nothing else matched.
 */
const WORKFLOW_REQUIRES_SQL = '(SELECT 1 FROM workflow_receipt_requirements w WHERE w.business_id = r.business_id AND w.object_id = r.id LIMIT 1) IS NOT NULL';

/** Whether any workflow of the business ever required a receipt (if not, the wizard's filter leaves that arm out). */
export async function anyWorkflowReceiptRequirement(db: Queryable, businessId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM workflow_receipt_requirements WHERE business_id = $1 LIMIT 1', [businessId]);
  return rows.length > 0;
}

/** Of `objectIds`, those a workflow requires a receipt for, with the (first) workflow that did, for the violation's words. */
export async function workflowReceiptRequirers(db: Queryable, businessId: string, objectIds: readonly string[]): Promise<Map<string, { id: string; name: string }>> {
  if (objectIds.length === 0) return new Map();
  const rows = await db.query<{ object_id: string; id: string; name: string }>(
    `SELECT DISTINCT ON (q.object_id) q.object_id::text AS object_id, w.id::text AS id, w.name
       FROM workflow_receipt_requirements q JOIN workflows w ON w.id = q.workflow_id AND w.business_id = q.business_id
      WHERE q.business_id = $1 AND q.object_id = ANY($2::uuid[]) ORDER BY q.object_id, q.created_at, w.id`,
    [businessId, [...objectIds]],
  );
  return new Map(rows.map((r) => [r.object_id, { id: r.id, name: r.name }]));
}
