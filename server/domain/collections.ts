import { ENTITIES, MIRRORED_COLLECTIONS, type MirroredCollection } from '../../schema/collections.ts';
import { docSqlOf } from '../../schema/entities/columns.ts';
import type { AnyEntityDef } from '../../schema/entities/define-entity.ts';
import { allocateSeqs, announceChange, type SeqRange } from '../db/change-seq.ts';
import type { Queryable } from '../db/db.ts';
import { VISIBILITY_SQL, type VisibilitySql } from './visibility.ts';
import { ApiError } from '../core/errors.ts';

/**
 * The server side of every mirrored collection, one typed entry per name of the schema registry
 * (schema/collections.ts): the change feed, the reference list routes and domain writes read it,
 * so a new collection is one entry here plus its table, not an edit in each of them.
 */
export interface ServerCollection {
  table: string;
  /**
   * The wire shape of a row, built in SQL as jsonb so lists, single reads and the change feed all
   * send exactly the entity shape of schema/entities (and PGlite and PostgreSQL format timestamps
   * identically, via ll_iso). Reads alias `r`.
   */
  docSql: string;
  /** The plain list's keyset order (with r.id after it); transactions have their own sorts. */
  sortKey: string;
  /** The definition's visibility rule, as SQL. */
  visibility: VisibilitySql;
}

const mirrored = `'business_id', r.business_id, 'change_seq', r.change_seq, 'updated_at', ll_iso(r.updated_at), 'deleted', r.deleted`;

/** A vendor's contacts, oldest first (an index lookup on vendor_contacts_vendor). */
const VENDOR_CONTACTS = `(SELECT coalesce(jsonb_agg(jsonb_build_object('id', vc.id, 'name', vc.name, 'email', vc.email, 'phone', vc.phone)
      ORDER BY vc.created_at, vc.id), '[]'::jsonb) FROM vendor_contacts vc WHERE vc.vendor_id = r.id)`;

/** A bill's lines in the invoice's order (replaced whole by a patch: domain/bills.ts). */
const BILL_LINES = `(SELECT coalesce(jsonb_agg(jsonb_build_object(
      'id', li.id, 'description', li.description, 'amount', li.amount, 'gl_account_id', li.gl_account_id,
      'department_id', li.department_id, 'location_id', li.location_id, 'tracking', li.tracking,
      'vendor_credit_id', li.vendor_credit_id) ORDER BY li.position), '[]'::jsonb)
    FROM bill_line_items li WHERE li.bill_id = r.id)`;

const day = (col: string) => `to_char(r.${col}, 'YYYY-MM-DD')`;

/** Issue 25: the other bill of a duplicate (schema/entities/bill.ts `billDuplicateSchema`), read when the doc is built. */
const BILL_DUPLICATE_OF = `(SELECT jsonb_build_object('id', d.id, 'invoice_number', d.invoice_number, 'vendor_id', d.vendor_id,
      'amount', d.amount, 'currency', d.currency, 'status', d.status, 'confirmed_by', r.duplicate_confirmed_by,
      'confirmed_at', ll_iso(r.duplicate_confirmed_at))
    FROM bills d WHERE d.id = r.duplicate_of)`;

/** A collection whose definition has `columns` takes its doc from them; the rest still write it here. */
type Entry = Omit<ServerCollection, 'visibility' | 'docSql'> & { docSql?: string };

const ENTRIES: Record<MirroredCollection, Entry> = {
  // Issue 26: the doc is derived from the definition's columns (schema/entities/transaction.ts).
  transactions: { table: 'transactions', sortKey: 'r.id::text' },
  users: {
    table: 'spend_users',
    docSql: `jsonb_build_object(
    'id', r.id, 'role', r.role, 'first_name', r.first_name, 'last_name', r.last_name, 'email', r.email,
    'is_manager', r.is_manager, 'manager_id', r.manager_id, 'department_id', r.department_id,
    'location_id', r.location_id, 'status', r.status, 'payroll_currency', r.payroll_currency, ${mirrored})`,
    sortKey: `lower(r.first_name || ' ' || r.last_name)`,
  },
  departments: {
    table: 'departments',
    docSql: `jsonb_build_object('id', r.id, 'name', r.name, 'owner_ids', to_jsonb(r.owner_ids), ${mirrored})`,
    sortKey: 'lower(r.name)',
  },
  locations: {
    table: 'locations',
    docSql: `jsonb_build_object('id', r.id, 'name', r.name, 'owner_ids', to_jsonb(r.owner_ids), ${mirrored})`,
    sortKey: 'lower(r.name)',
  },
  gl_accounts: {
    table: 'gl_accounts',
    docSql: `jsonb_build_object(
    'id', r.id, 'code', r.code, 'name', r.name, 'classification', r.classification, 'active', r.active, ${mirrored})`,
    sortKey: 'r.code',
  },
  tracking_categories: {
    table: 'tracking_categories',
    docSql: `jsonb_build_object('id', r.id, 'name', r.name, 'options', r.options, ${mirrored})`,
    sortKey: 'lower(r.name)',
  },
  cards: {
    table: 'cards',
    docSql: `jsonb_build_object(
    'id', r.id, 'user_id', r.user_id, 'display_name', r.display_name, 'last_four', r.last_four,
    'is_physical', r.is_physical, 'status', r.status,
    'limit', jsonb_build_object('amount', r.limit_amount, 'currency', r.limit_currency, 'interval', r.limit_interval,
      'per_transaction', r.per_transaction_limit),
    'allowed_categories', to_jsonb(r.allowed_categories), 'department_id', r.department_id, 'location_id', r.location_id,
    'expires', r.expires, 'is_primary', r.is_primary, 'is_favorite', r.is_favorite, 'replaces_id', r.replaces_id,
    'replaced_by_id', r.replaced_by_id, 'created_at', ll_iso(r.created_at), ${mirrored})`,
    sortKey: 'lower(r.display_name)',
  },
  card_requests: { table: 'card_requests', sortKey: 'll_iso(r.created_at)' },

  reimbursements: { table: 'reimbursements', sortKey: `to_char(r.transaction_date, 'YYYY-MM-DD')` },

  approvals: { table: 'approvals', sortKey: 'll_iso(r.created_at)' },

  reimbursement_rates: {
    table: 'reimbursement_rates',
    docSql: `jsonb_build_object(
    'id', r.id, 'kind', r.kind, 'name', r.name, 'year', r.year, 'rate', r.rate, 'currency', r.currency, ${mirrored})`,
    sortKey: `r.kind || ' ' || coalesce(lower(r.name), lpad(r.year::text, 6, '0'))`,
  },
  vendors: {
    table: 'vendors',
    // Never the bank ciphertext: the doc every member mirrors carries only the last four digits.
    docSql: `jsonb_build_object(
    'id', r.id, 'name', r.name, 'email', r.email, 'phone', r.phone, 'address', r.address,
    'default_gl_account_id', r.default_gl_account_id, 'default_department_id', r.default_department_id,
    'bank_account', CASE WHEN r.bank_account_type IS NULL THEN NULL ELSE jsonb_build_object(
      'last_four', r.bank_account_last_four, 'routing_last_four', r.bank_routing_last_four, 'account_type', r.bank_account_type,
      'verified_at', ll_iso(r.bank_verified_at)) END,
    'status', r.status, 'contacts', ${VENDOR_CONTACTS}, ${mirrored})`,
    sortKey: 'lower(r.name)',
  },
  // Issue 11 bill pay; domain/bills.ts reads and writes them with this doc (BILL_DOC).
  bills: {
    table: 'bills',
    docSql: `jsonb_build_object(
    'id', r.id, 'vendor_id', r.vendor_id, 'invoice_number', r.invoice_number, 'invoice_date', ${day('invoice_date')},
    'due_date', ${day('due_date')}, 'payment_date', ${day('payment_date')}, 'currency', r.currency, 'amount', r.amount,
    'line_items', ${BILL_LINES}, 'memo', r.memo, 'status', r.status, 'entity_id', r.entity_id, 'invoice_file_id', r.invoice_file_id,
    'created_by', r.created_by, 'submitted_at', ll_iso(r.submitted_at), 'approved_by', r.approved_by,
    'approved_at', ll_iso(r.approved_at), 'rejection_reason', r.rejection_reason, 'payment_attempt', r.payment_attempt,
    'payment_failure_reason', r.payment_failure_reason, 'paid_at', ll_iso(r.paid_at), 'paid_manually', r.paid_manually,
    'reconciled_at', ll_iso(r.reconciled_at), 'created_at', ll_iso(r.created_at),
    'accounting_synced_at', ll_iso(r.accounting_synced_at), 'duplicate_of', ${BILL_DUPLICATE_OF}, ${mirrored})`,
    sortKey: 'll_iso(r.created_at)',
  },
  // Issue 11: uploaded invoices not yet completed into bills (domain/provisional-bills.ts).
  provisional_bills: {
    table: 'provisional_bills',
    docSql: `jsonb_build_object(
    'id', r.id, 'invoice_file_id', r.invoice_file_id, 'vendor_id', r.vendor_id, 'invoice_number', r.invoice_number,
    'invoice_date', ${day('invoice_date')}, 'due_date', ${day('due_date')}, 'currency', r.currency, 'amount', r.amount,
    'memo', r.memo, 'created_by', r.created_by, 'created_at', ll_iso(r.created_at), ${mirrored})`,
    sortKey: 'll_iso(r.created_at)',
  },
  // Issue 12: the business's accounting mapping rules (domain/accounting/mapping-rules.ts), for offline suggestions.
  mapping_rules: {
    table: 'accounting_mapping_rules',
    docSql: `jsonb_build_object(
    'id', r.id, 'priority', r.priority, 'match_field', r.match_field, 'match_operator', r.match_operator, 'match_value', r.match_value,
    'gl_account_id', r.gl_account_id, 'department_id', r.department_id, 'tracking', r.tracking, 'created_by', r.created_by,
    'created_at', ll_iso(r.created_at), ${mirrored})`,
    sortKey: 'lpad(r.priority::text, 10, \'0\')',
  },
  // Issue 12: a user's saved reports and dashboards (domain/reporting/saved.ts), mirrored to them alone.
  saved_reports: {
    table: 'saved_reports',
    docSql: `jsonb_build_object(
    'id', r.id, 'name', r.name, 'query', r.query, 'chart', r.chart, 'owner_id', r.owner_id,
    'created_at', ll_iso(r.created_at), ${mirrored})`,
    sortKey: 'lower(r.name)',
  },
  dashboards: {
    table: 'dashboards',
    docSql: `jsonb_build_object(
    'id', r.id, 'name', r.name, 'owner_id', r.owner_id, 'items', r.items, 'created_at', ll_iso(r.created_at), ${mirrored})`,
    sortKey: 'lower(r.name)',
  },
  // Issue 14: business entities, so a bill's or a user's entity is named offline (domain/admin-org.ts writes them).
  entities: {
    table: 'business_entities',
    docSql: `jsonb_build_object(
    'id', r.id, 'name', r.name, 'country', r.country, 'currency', r.currency, 'owner_ids', to_jsonb(r.owner_ids),
    'created_at', ll_iso(r.created_at), ${mirrored})`,
    sortKey: 'lower(r.name)',
  },
};

function docSqlFor(c: MirroredCollection): string {
  const columns = (ENTITIES[c] as AnyEntityDef).columns;
  const docSql = columns ? docSqlOf(columns) : ENTRIES[c].docSql;
  if (!docSql || (columns && ENTRIES[c].docSql)) throw new Error(`${c}: the doc comes from its columns or from its entry here, exactly one`);
  return docSql;
}

export const COLLECTIONS = Object.fromEntries(
  MIRRORED_COLLECTIONS.map((c) => [c, { ...ENTRIES[c], docSql: docSqlFor(c), visibility: VISIBILITY_SQL[ENTITIES[c].visibility] }]),
) as Readonly<Record<MirroredCollection, ServerCollection>>;

/** Seqs handed to a mirrored write; `reserve` takes more when the write finds it touches more rows. */
export interface MirroredWrite {
  seqs: SeqRange;
  reserve: (rows: number) => Promise<SeqRange>;
}

/**
 * Runs a write of mirrored rows inside transaction `tx`: reserves `rows` change sequences first,
 * then announces the highest one reserved once `write` returns, so no write can forget either.
 * Reserving first is the lock order every writer follows (the business row, then the rows), so
 * two writes can never wait on each other in opposite orders. `write` gives each row it stamps
 * its own seq (the feed pages on seq alone); if it throws, nothing is announced and the caller's
 * transaction rolls back. An unknown business answers REQUEST_7004.
 */
export async function writeMirrored<T>(
  tx: Queryable,
  businessId: string,
  rows: number,
  write: (w: MirroredWrite) => Promise<T>,
): Promise<T> {
  let last = 0;
  const take = async (n: number) => {
    const range = await allocateSeqs(tx, businessId, n);
    if (!range) throw new ApiError('REQUEST_7004');
    last = range.last;
    return range;
  };
  const seqs = await take(rows);
  const result = await write({ seqs, reserve: take });
  await announceChange(tx, businessId, last);
  return result;
}
