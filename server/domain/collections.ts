import { ENTITIES, MIRRORED_COLLECTIONS, type MirroredCollection } from '../../schema/collections.ts';
import { docSqlOf } from '../../schema/entities/columns.ts';
import type { AnyEntityDef } from '../../schema/entities/define-entity.ts';
import { allocateSeqs, type SeqRange } from '../db/change-seq.ts';
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
  /**
   * Issue 33: the table has a (business_id, user_id, change_seq) index (migration 088), so a feed
   * page of a rule that is a set of people (`visibility.users`) walks it per person.
   */
  feedByPerson?: true;
}

/**
 * Issue 26: every collection's doc is derived from its definition's columns
 * (schema/entities/columns.ts `docSqlOf`); this table names the rest.
 */
const ENTRIES: Record<MirroredCollection, Omit<ServerCollection, 'visibility' | 'docSql'>> = {
  transactions: { table: 'transactions', sortKey: 'r.id::text', feedByPerson: true },
  users: { table: 'spend_users', sortKey: `lower(r.first_name || ' ' || r.last_name)` },
  departments: { table: 'departments', sortKey: 'lower(r.name)' },
  locations: { table: 'locations', sortKey: 'lower(r.name)' },
  gl_accounts: { table: 'gl_accounts', sortKey: 'r.code' },
  tracking_categories: { table: 'tracking_categories', sortKey: 'lower(r.name)' },
  cards: { table: 'cards', sortKey: 'lower(r.display_name)' },
  card_requests: { table: 'card_requests', sortKey: 'll_iso(r.created_at)' },
  reimbursements: { table: 'reimbursements', sortKey: `to_char(r.transaction_date, 'YYYY-MM-DD')`, feedByPerson: true },
  approvals: { table: 'approvals', sortKey: 'll_iso(r.created_at)' },
  reimbursement_rates: { table: 'reimbursement_rates', sortKey: `r.kind || ' ' || coalesce(lower(r.name), lpad(r.year::text, 6, '0'))` },
  vendors: { table: 'vendors', sortKey: 'lower(r.name)' },
  // Issue 11 bill pay; domain/bills.ts reads and writes them with this doc (BILL_DOC).
  bills: { table: 'bills', sortKey: 'll_iso(r.created_at)' },
  // Issue 11: uploaded invoices not yet completed into bills (domain/provisional-bills.ts).
  provisional_bills: { table: 'provisional_bills', sortKey: 'll_iso(r.created_at)' },
  // Issue 12: the business's accounting mapping rules (domain/accounting/mapping-rules.ts), for offline suggestions.
  mapping_rules: { table: 'accounting_mapping_rules', sortKey: 'lpad(r.priority::text, 10, \'0\')' },
  // Issue 12: a user's saved reports and dashboards (domain/reporting/saved.ts), mirrored to them alone.
  saved_reports: { table: 'saved_reports', sortKey: 'lower(r.name)' },
  dashboards: { table: 'dashboards', sortKey: 'lower(r.name)' },
  // Issue 14: business entities, so a bill's or a user's entity is named offline (domain/admin-org.ts writes them).
  entities: { table: 'business_entities', sortKey: 'lower(r.name)' },
  // Issue 27: trips, their bookings and linked spend inside the doc (domain/travel/trips.ts).
  trips: { table: 'trips', sortKey: `to_char(r.start_date, 'YYYY-MM-DD')` },
  // Issue 28: spend requests (domain/procurement/), purchase orders with lines and receipts, budgets.
  spend_requests: { table: 'spend_requests', sortKey: 'll_iso(r.created_at)' },
  purchase_orders: { table: 'purchase_orders', sortKey: 'r.po_number' },
  spend_allocations: { table: 'spend_allocations', sortKey: 'lower(r.name)' },
  // Issue 29: the notifications centre (domain/notifications/), each person's own.
  notifications: { table: 'notifications', sortKey: 'll_iso(r.created_at)' },
  // Issue 29: expense policies (domain/expense-policies/), oldest first: the evaluator's order.
  expense_policies: { table: 'expense_policies', sortKey: 'll_iso(r.created_at)' },
  // Issue 30: the wallet's accounts (ledger_accounts of the wallet kinds; server/ledger/) and its transfers (domain/treasury/).
  wallet_accounts: { table: 'ledger_accounts', sortKey: `r.kind || ' ' || lower(r.name)` },
  wallet_transfers: { table: 'wallet_transfers', sortKey: 'll_iso(r.created_at)' },
  // Issue 30: linked bank accounts (domain/banking/), stamped by migration 064's trigger on every write; the list's order.
  bank_accounts: { table: 'bank_accounts', sortKey: 'll_iso(r.created_at)' },
};

function docSqlFor(c: MirroredCollection): string {
  return docSqlOf((ENTITIES[c] as AnyEntityDef).columns);
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
 * each reservation announcing its last seq in the same statement (`allocateSeqs` with `announce`: issue
 * 33, one statement fewer under the lock), so no write can forget either; listeners hear on commit
 * only. Reserving first is the lock order every writer follows (the business row, then the rows), so
 * two writes can never wait on each other in opposite orders; do the reads before it
 * (domain/prepared-write.ts): from here to commit every writer of the business waits. `write`
 * gives each row it stamps its own seq (the feed pages on seq alone); if it throws, the transaction
 * (or savepoint) that rolls back for it drops the announcement too. An unknown business answers
 * REQUEST_7004.
 */
export async function writeMirrored<T>(
  tx: Queryable,
  businessId: string,
  rows: number,
  write: (w: MirroredWrite) => Promise<T>,
): Promise<T> {
  const take = async (n: number) => {
    const range = await allocateSeqs(tx, businessId, n, { announce: true });
    if (!range) throw new ApiError('REQUEST_7004');
    return range;
  };
  const seqs = await take(rows);
  return write({ seqs, reserve: take });
}
