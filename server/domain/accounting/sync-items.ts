import type { AccountingProvider, SyncObjectType } from '../../../schema/api/calls-accounting.ts';
import type { Queryable } from '../../db/db.ts';
import type { ExportItem } from './export-item.ts';

/**
 * What a sync commit takes (issue 12): every coded (GL account set), approved, not-yet-synced,
 * live item of the business, locked (FOR UPDATE) so nothing recodes it before the commit ends.
 * - card transactions in CLEARED state (PENDING may still change; DECLINED and REVERSED are no spend);
 * - reimbursements APPROVED or PAID;
 * - bills APPROVED, SCHEDULED, PAID or RECONCILED whose every line has a GL account.
 * A bank statement (Xero, issue 25) books only money that moved, so a Xero commit takes, of
 * those, only the bills with a SETTLED payment and the PAID claims whose payment has settled
 * (MONEY_MOVED); the others stay unsynced until their money moves.
 */
export const SYNCABLE = {
  transaction: { table: 'transactions', where: `r.state = 'CLEARED' AND r.gl_account_id IS NOT NULL` },
  reimbursement: { table: 'reimbursements', where: `r.status IN ('APPROVED', 'PAID') AND r.gl_account_id IS NOT NULL` },
  bill: {
    table: 'bills',
    where: `r.status IN ('APPROVED', 'SCHEDULED', 'PAID', 'RECONCILED')
      AND NOT EXISTS (SELECT 1 FROM bill_line_items li WHERE li.bill_id = r.id AND li.gl_account_id IS NULL)`,
  },
} as const satisfies Record<SyncObjectType, { table: string; where: string }>;

/**
 * The day (UTC, YYYY-MM-DD) the item's money moved, null while it has not ($2 is the commit's
 * time): a cleared charge's day; a bill's SETTLED payment (at most one live attempt per bill:
 * bill_payments_one_live), on the day it became SETTLED; a PAID claim's unreversed payment once
 * its settlement time has passed, on that day.
 */
const PAID_ON: Record<SyncObjectType, string> = {
  transaction: `CASE WHEN r.state = 'CLEARED' THEN to_char(r.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') END`,
  bill: `(SELECT to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM bill_payments p
           WHERE p.bill_id = r.id AND p.business_id = r.business_id AND p.status = 'SETTLED' LIMIT 1)`,
  reimbursement: `CASE WHEN r.status = 'PAID' THEN (SELECT to_char(max(le.settles_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM ledger_entries le
           WHERE le.reimbursement_id = r.id AND le.business_id = r.business_id AND le.kind = 'PAYMENT' AND NOT le.reversed
             AND le.settles_at <= $2::timestamptz) END`,
};

/** What a provider's commit takes of the syncable items: a bank statement only money that moved. */
const MONEY_MOVED = (type: SyncObjectType) => `${PAID_ON[type]} IS NOT NULL`;
const takes = (provider: AccountingProvider, type: SyncObjectType) =>
  provider === 'xero_csv' ? `${SYNCABLE[type].where} AND ${MONEY_MOVED(type)}` : SYNCABLE[type].where;

/** "Category: Option; …" of a tracking map (column `col`), or null. */
const trackingText = (col: string) => `(SELECT string_agg(c.name || ': ' || (o.value ->> 'name'), '; ' ORDER BY c.name)
    FROM jsonb_each_text(${col}) AS tr(category_id, option_id)
    JOIN tracking_categories c ON c.id::text = tr.category_id
    JOIN LATERAL jsonb_array_elements(c.options) AS o(value) ON o.value ->> 'id' = tr.option_id)`;

const lineJson = (amount: string, g: string, d: string, l: string, tracking: string, description: string) =>
  `jsonb_build_object('amount', ${amount}, 'account_code', ${g}.code, 'account_name', ${g}.name, 'department', ${d}.name,
     'location', ${l}, 'tracking', ${tracking}, 'description', ${description})`;

const QUERIES: Record<SyncObjectType, (where: string) => string> = {
  transaction: (where) => `
    SELECT ${PAID_ON.transaction} AS paid_on, 'transaction' AS type, r.id::text AS id, to_char(r.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date,
           r.merchant_name AS payee, r.memo, NULL::text AS reference, r.currency, r.amount,
           jsonb_build_array(${lineJson('r.amount', 'g', 'd', 'lo.name', trackingText('r.tracking'), 'r.merchant_category')}) AS lines
      FROM transactions r JOIN gl_accounts g ON g.id = r.gl_account_id
      LEFT JOIN departments d ON d.id = r.department_id LEFT JOIN locations lo ON lo.id = r.location_id
     WHERE r.business_id = $1 AND NOT r.deleted AND r.accounting_synced_at IS NULL AND ${where}
     ORDER BY r.occurred_at, r.id FOR UPDATE OF r`,
  reimbursement: (where) => `
    SELECT ${PAID_ON.reimbursement} AS paid_on, 'reimbursement' AS type, r.id::text AS id, to_char(r.transaction_date, 'YYYY-MM-DD') AS date,
           su.first_name || ' ' || su.last_name AS payee, coalesce(r.memo, r.merchant) AS memo, NULL::text AS reference,
           r.currency, r.amount,
           jsonb_build_array(${lineJson('r.amount', 'g', 'd', 'NULL::text', 'NULL::text', 'r.merchant')}) AS lines
      FROM reimbursements r JOIN gl_accounts g ON g.id = r.gl_account_id JOIN spend_users su ON su.id = r.user_id
      LEFT JOIN departments d ON d.id = r.department_id
     WHERE r.business_id = $1 AND NOT r.deleted AND r.accounting_synced_at IS NULL AND ${where}
     ORDER BY r.transaction_date, r.id FOR UPDATE OF r`,
  bill: (where) => `
    SELECT ${PAID_ON.bill} AS paid_on, 'bill' AS type, r.id::text AS id, to_char(r.invoice_date, 'YYYY-MM-DD') AS date, v.name AS payee, r.memo,
           r.invoice_number AS reference, r.currency, r.amount,
           (SELECT jsonb_agg(${lineJson('li.amount', 'g', 'd', 'lo.name', trackingText('li.tracking'), 'li.description')} ORDER BY li.position)
              FROM bill_line_items li JOIN gl_accounts g ON g.id = li.gl_account_id
              LEFT JOIN departments d ON d.id = li.department_id LEFT JOIN locations lo ON lo.id = li.location_id
             WHERE li.bill_id = r.id) AS lines
      FROM bills r JOIN vendors v ON v.id = r.vendor_id
     WHERE r.business_id = $1 AND NOT r.deleted AND r.accounting_synced_at IS NULL AND ${where}
     ORDER BY r.invoice_date, r.id FOR UPDATE OF r`,
};

/** A commit of some items of one kind only (retry-accounting-sync: one bill). */
export type SyncSubset = { type: SyncObjectType; ids: readonly string[] };

/**
 * The items a commit to `provider` at `now` takes, by kind, oldest first; amounts as numbers (int8
 * is normalised by the Db). `lock` (the commit) takes them FOR UPDATE; a preview reads them as they are.
 */
export async function syncableItems(
  tx: Queryable, businessId: string, provider: AccountingProvider, now: Date, { lock, only }: { lock: boolean; only?: SyncSubset },
): Promise<ExportItem[]> {
  const out: ExportItem[] = [];
  for (const type of ['transaction', 'reimbursement', 'bill'] as const) {
    if (only && only.type !== type) continue;
    const base = QUERIES[type](only ? `${takes(provider, type)} AND r.id = ANY($IDS::uuid[])` : takes(provider, type));
    // Only the claims' settlement test reads the time ($2).
    const params: unknown[] = base.includes('$2') ? [businessId, now.toISOString()] : [businessId];
    const sql = base.replace('$IDS', `$${params.length + 1}`);
    if (only) params.push(only.ids);
    const rows = await tx.query<ExportItem>(lock ? sql : sql.replace(/ FOR UPDATE OF r$/, ''), params);
    for (const r of rows) out.push({ ...r, amount: Number(r.amount), lines: r.lines.map((l) => ({ ...l, amount: Number(l.amount) })) });
  }
  return out;
}

/** The commit's read: every item it takes (of `only`, when given), locked until the commit ends. */
export const lockSyncableItems = (
  tx: Queryable, businessId: string, provider: AccountingProvider, now: Date, only?: SyncSubset,
): Promise<ExportItem[]> => syncableItems(tx, businessId, provider, now, { lock: true, only });
