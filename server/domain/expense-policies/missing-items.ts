import { z } from 'zod';
import type { MissingItem } from '../../../schema/api/calls-expense-policies.ts';
import {
  evaluatePolicies, fixableViolations, itemKey, type EvaluatedPolicy, type PolicyPerson, type Violation,
} from '../../../schema/expense-policy.ts';
import type { pageQuerySchema } from '../../../schema/paging.ts';
import { formatMoney } from '../../../schema/money.ts';
import { decodeCursor, encodeCursor } from '../../core/cursor.ts';
import type { Queryable } from '../../db/db.ts';
import {
  anyWorkflowReceiptRequirement, CLAIM_AT_SQL, CLAIM_COLUMNS, CLAIM_ITEM_WHERE, CLAIM_WIZARD_WHERE, fixableSql, fromClaimRow, fromTransactionRow,
  loadItems, thresholdsOf, TX_COLUMNS, TX_ITEM_WHERE, TX_WIZARD_WHERE, workflowReceiptRequirers, type LoadedItem,
} from './items.ts';
import { policiesFor, policyPerson } from './policies.ts';

/**
 * GET /v1/auth/users/current/missing-items (issue 29): the caller's own items with something they
 * can still add, newest first, keyset-paged, with `total_count`.
 *
 * Fast for a person with 10k transactions: the policies that apply to them become one SQL filter
 * (`fixableSql`: the lowest receipt and memo thresholds per currency, the coding fields required),
 * so the database walks the person's index (`transactions_user`: business, user, occurred_at DESC,
 * id DESC) and returns a page of rows that all miss something; nothing is evaluated in JavaScript
 * but the page. The page is then evaluated by the one evaluator (schema/expense-policy.ts) together
 * with every item of the person on the page's days (per-day caps sum them), and each row carries
 * only its fixable violations. The count is the same filter, counted.
 *
 * A workflow's `require_receipt` (workflow_receipt_requirements) makes an item without a receipt
 * miss one whatever the policy's threshold: one more arm of the filter (only for a business that
 * has such marks) and a `missing_receipt` naming the workflow. The device cannot see these marks
 * (they are not on the mirrored transaction), so this list is the authoritative one for them.
 */
type PageQuery = z.output<typeof pageQuerySchema>;
const SORT = 'wizard';
const cursorShape = z.tuple([z.iso.datetime({ offset: true }), z.uuid()]);

export type MissingItemsPage = { data: MissingItem[]; page: { next: string | null }; total_count: number };

type Wizard = { person: PolicyPerson; policies: EvaluatedPolicy[]; txWhere: string; claimWhere: string; params: unknown[] };

/** The person's wizard filter (alias `r`), or null when no policy applies to them or asks for anything fixable. */
async function wizardFor(db: Queryable, businessId: string, userId: string): Promise<Wizard | null> {
  const person = await policyPerson(db, businessId, userId);
  if (!person) return null;
  const policies = await policiesFor(db, businessId, person);
  const t = { ...thresholdsOf(policies), workflowReceipts: await anyWorkflowReceiptRequirement(db, businessId) };
  const params: unknown[] = [businessId, userId];
  const txFix = fixableSql('transaction', t, params);
  const claimFix = fixableSql('reimbursement', t, params);
  if (txFix === 'false' && claimFix === 'false') return null;
  return {
    person, policies, params,
    txWhere: `r.business_id = $1 AND r.user_id = $2 AND ${TX_WIZARD_WHERE} AND ${txFix}`,
    claimWhere: `r.business_id = $1 AND r.user_id = $2 AND ${CLAIM_WIZARD_WHERE} AND ${claimFix}`,
  };
}

/** How many items the person's wizard lists (the bench's figure). */
export async function missingItemCount(db: Queryable, businessId: string, userId: string): Promise<number> {
  const w = await wizardFor(db, businessId, userId);
  return w ? countOf(db, w) : 0;
}

/**
 * The reminder's figures: how many items the wizard lists and their total, one sum per currency in
 * the reader's money ("$1,240.50", "$40.00 and €12.00", largest first).
 */
export async function missingItemsTotal(db: Queryable, businessId: string, userId: string): Promise<{ count: number; total: string }> {
  const w = await wizardFor(db, businessId, userId);
  if (!w) return { count: 0, total: '' };
  const sums = await db.query<{ currency: string; n: number; amount: string }>(
    `SELECT currency, sum(n)::int AS n, sum(amount)::text AS amount FROM (
       SELECT r.currency, count(*) AS n, sum(r.amount) AS amount FROM transactions r WHERE ${w.txWhere} GROUP BY r.currency
       UNION ALL SELECT r.currency, count(*), sum(r.amount) FROM reimbursements r WHERE ${w.claimWhere} GROUP BY r.currency
     ) s GROUP BY currency ORDER BY sum(amount) DESC, currency`,
    w.params,
  );
  const count = sums.reduce((a, s) => a + Number(s.n), 0);
  return { count, total: sums.map((s) => formatMoney(Number(s.amount), s.currency)).join(' and ') };
}

async function countOf(db: Queryable, w: Wizard): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM transactions r WHERE ${w.txWhere}) + (SELECT count(*) FROM reimbursements r WHERE ${w.claimWhere}) AS n`,
    w.params,
  );
  return Number(row?.n ?? 0);
}

export async function listMissingItems(db: Queryable, businessId: string, userId: string, q: PageQuery): Promise<MissingItemsPage> {
  const w = await wizardFor(db, businessId, userId);
  if (!w) return { data: [], page: { next: null }, total_count: 0 };
  const total = await countOf(db, w);
  if (q.page_size === 0 || total === 0) return { data: [], page: { next: null }, total_count: total };
  const params = [...w.params];
  let txAfter = '';
  let claimAfter = '';
  if (q.start) {
    const [at, id] = decodeCursor(q.start, SORT, cursorShape) as [string, string];
    params.push(at, id);
    const [a, b] = [`$${params.length - 1}::timestamptz`, `$${params.length}::uuid`];
    txAfter = ` AND (r.occurred_at, r.id) < (${a}, ${b})`;
    claimAfter = ` AND (${CLAIM_AT_SQL}, r.id) < (${a}, ${b})`;
  }
  params.push(q.page_size + 1);
  const limit = `$${params.length}`;
  // Each side walks its own order and stops at the limit; the merge keeps the newest of both.
  const rows = await db.query<{ kind: 'transaction' | 'reimbursement'; row: never }>(
    `SELECT kind, row FROM (
       (SELECT 'transaction' AS kind, r.occurred_at AS ts, r.id AS oid, to_jsonb(x) AS row
          FROM transactions r, LATERAL (SELECT ${TX_COLUMNS}) x
         WHERE ${w.txWhere}${txAfter} ORDER BY r.occurred_at DESC, r.id DESC LIMIT ${limit})
       UNION ALL
       (SELECT 'reimbursement', ${CLAIM_AT_SQL}, r.id, to_jsonb(x)
          FROM reimbursements r, LATERAL (SELECT ${CLAIM_COLUMNS}) x
         WHERE ${w.claimWhere}${claimAfter} ORDER BY ${CLAIM_AT_SQL} DESC, r.id DESC LIMIT ${limit})
     ) page ORDER BY ts DESC, oid DESC LIMIT ${limit}`,
    params,
  );
  const loaded = rows.map((r) => (r.kind === 'transaction' ? fromTransactionRow(r.row) : fromClaimRow(r.row)))
    .filter((i): i is LoadedItem => i !== null);
  const more = loaded.length > q.page_size;
  const page = more ? loaded.slice(0, q.page_size) : loaded;
  const data = await withViolations(db, businessId, w, page);
  const last = page.at(-1);
  return { data, page: { next: more && last ? encodeCursor(SORT, [last.at, last.item.id]) : null }, total_count: total };
}

/** The page evaluated with every item of the person on its days; each row with its fixable violations, in the wizard's order. */
async function withViolations(db: Queryable, businessId: string, w: Wizard, page: LoadedItem[]): Promise<MissingItem[]> {
  if (page.length === 0) return [];
  const days = [...new Set(page.map((p) => p.item.date))].sort();
  const sameDays = await loadItems(
    db,
    {
      where: `r.business_id = $1 AND r.user_id = $2 AND ${TX_ITEM_WHERE}
        AND r.occurred_at >= ($4::date::timestamp AT TIME ZONE 'UTC') AND r.occurred_at < (($5::date + 1)::timestamp AT TIME ZONE 'UTC')
        AND to_char(r.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') = ANY($3::text[])`,
      params: [businessId, w.person.id, days, days[0], days.at(-1)],
    },
    {
      where: `r.business_id = $1 AND r.user_id = $2 AND ${CLAIM_ITEM_WHERE} AND r.transaction_date = ANY($3::date[])`,
      params: [businessId, w.person.id, days],
    },
  );
  const items = new Map(sameDays.map((l) => [itemKey(l.item), l.item]));
  for (const p of page) items.set(itemKey(p.item), p.item);
  const found = evaluatePolicies([...items.values()], w.policies, new Map([[w.person.id, w.person]]));
  const required = await workflowReceiptRequirers(db, businessId, page.map((p) => p.item.id));
  return page.flatMap((p) => {
    const violations = withWorkflowReceipt(p, fixableViolations(found.get(itemKey(p.item)) ?? []), required.get(p.item.id));
    // The SQL filter and the evaluator agree (held by the tests); a row they did not would be left out, never shown empty.
    if (violations.length === 0) return [];
    return [{
      object_type: p.item.object_type, object_id: p.item.id, date: p.item.date, amount: p.item.amount, currency: p.item.currency,
      merchant: p.merchant, memo: p.item.memo, receipt_ids: p.receipt_ids, gl_account_id: p.item.gl_account_id,
      department_id: p.item.department_id, location_id: p.location_id, violations,
    }];
  });
}

/** A workflow required a receipt and there is none (and the item has a receipt step): missing_receipt, first, unless a policy already said so. */
function withWorkflowReceipt(p: LoadedItem, violations: Violation[], workflow: { id: string; name: string } | undefined): Violation[] {
  const receiptStep = p.item.object_type === 'transaction' || p.item.claim_type === 'OUT_OF_POCKET';
  if (!workflow || !receiptStep || p.receipt_ids.length > 0 || violations.some((v) => v.code === 'missing_receipt')) return violations;
  const v: Violation = {
    code: 'missing_receipt', policy_id: workflow.id, policy_name: workflow.name, message: `The workflow “${workflow.name}” requires a receipt for this item.`,
  };
  return [v, ...violations];
}
