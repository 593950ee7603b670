import Papa from 'papaparse';
import type { RowOf } from '../../../schema/collections.ts';
import type { Bill } from '../../../schema/entities/bill.ts';
import { cellsOf, headerOf } from '../../../schema/export-settings.ts';
import { EXPORT_COLUMNS, exportNames, type ExportColumn, type ExportNames, type ExportReference } from '../../../schema/exports.ts';
import type { ReportCollection } from '../../../schema/reports.ts';
import type { TransactionFilter, TransactionSort } from '../../../schema/transaction-query.ts';
import type { ActingUser } from '../../core/actor.ts';
import type { Queryable } from '../../db/db.ts';
import { BILL_DOC } from '../bills.ts';
import { listCards } from '../card-lists.ts';
import { newestFirstPage } from '../newest-first-page.ts';
import { listReimbursements } from '../reimbursements.ts';
import { queryTransactions } from '../transaction-sql.ts';
import { visibilityOf } from '../visibility.ts';
import { parseFilter, rowSource } from './sources.ts';

/**
 * Server CSV exports (issue 12): the table's current filter, the caller's visible rows only (as
 * its list), in the list's keyset pages of EXPORT_PAGE rows, each turned into CSV lines with
 * papaparse as it arrives, so a 100k-row export never sits in memory whole. The columns are
 * schema/exports.ts's (the worker writes the same); names are resolved from the business's
 * reference tables, read once before the first byte.
 */
const EXPORT_PAGE = 1000;

type Page<C extends ReportCollection> = { data: RowOf<C>[]; next: string | null };
/** The next page after `start` (undefined: the first). */
export type PageReader<C extends ReportCollection> = (start: string | undefined) => Promise<Page<C>>;

const req = (start: string | undefined) => ({ pageSize: EXPORT_PAGE, start, includeCount: false });
const pageOf = <T>(p: { data: unknown[]; page: { next: string | null } }): { data: T[]; next: string | null } =>
  ({ data: p.data as T[], next: p.page.next });

/** Transactions in the caller's sort (§7 POST /transactions/export_as_file). */
export async function transactionPages(db: Queryable, user: ActingUser, filter: TransactionFilter, sort: TransactionSort): Promise<PageReader<'transactions'>> {
  const vis = await visibilityOf(db, user);
  return async (start) => pageOf(await queryTransactions(db, user.business_id, vis, { filter, sort, ...req(start) }));
}

/** Any exportable table by its filter (POST /reporting/export-as-file), in its list's default order. */
export async function collectionPages(db: Queryable, user: ActingUser, collection: ReportCollection, filters: unknown): Promise<PageReader<ReportCollection>> {
  switch (collection) {
    case 'transactions':
      return transactionPages(db, user, parseFilter('transactions', filters), 'occurred_desc') as Promise<PageReader<ReportCollection>>;
    case 'reimbursements': {
      const filter = parseFilter('reimbursements', filters);
      const vis = await visibilityOf(db, user);
      return async (start) => pageOf(await listReimbursements(db, user.business_id, vis, { filter, ...req(start) }));
    }
    case 'cards': {
      const filter = parseFilter('cards', filters);
      const vis = await visibilityOf(db, user);
      return async (start) => pageOf(await listCards(db, user.business_id, vis, { filter, sort: 'created_desc', ...req(start) }));
    }
    case 'bills': {
      // Bills are read by the `bill_pay` rule (the rows the caller mirrors), not only by bill managers.
      const { where, params } = await rowSource(db, user, 'bills', filters);
      return async (start) => pageOf<Bill>(await newestFirstPage<Bill>(db, { table: 'bills', doc: BILL_DOC, where, params }, req(start)));
    }
  }
}

/** The business's names for the ids rows hold (small tables, read once per export). */
export async function businessNames(db: Queryable, businessId: string): Promise<ExportNames> {
  const q = <T>(sql: string) => db.query<T>(sql, [businessId]);
  const [departments, locations, gl_accounts, users, cards, vendors, tracking_categories] = await Promise.all([
    q<ExportReference['departments'][number]>('SELECT id::text, name FROM departments WHERE business_id = $1'),
    q<ExportReference['locations'][number]>('SELECT id::text, name FROM locations WHERE business_id = $1'),
    q<ExportReference['gl_accounts'][number]>('SELECT id::text, code, name FROM gl_accounts WHERE business_id = $1'),
    q<ExportReference['users'][number]>('SELECT id::text, first_name, last_name FROM spend_users WHERE business_id = $1'),
    q<ExportReference['cards'][number]>('SELECT id::text, display_name, last_four FROM cards WHERE business_id = $1'),
    q<ExportReference['vendors'][number]>('SELECT id::text, name FROM vendors WHERE business_id = $1'),
    q<ExportReference['tracking_categories'][number]>('SELECT id::text, name, options FROM tracking_categories WHERE business_id = $1'),
  ]);
  return exportNames({ departments, locations, gl_accounts, users, cards, vendors, tracking_categories });
}

const CRLF = '\r\n';

/**
 * The CSV as a byte stream: the header line, then one chunk per page, read only when the
 * consumer pulls (backpressure), so memory holds one page at a time. `columns`: the caller's
 * export settings (schema/export-settings.ts), every column by default.
 */
export function csvStream<C extends ReportCollection>(
  collection: C, pages: PageReader<C>, names: ExportNames,
  columns: readonly ExportColumn<RowOf<C>>[] = EXPORT_COLUMNS[collection] as readonly ExportColumn<RowOf<C>>[],
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let start: string | undefined;
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(Papa.unparse([headerOf(columns as readonly ExportColumn<never>[])]) + CRLF));
    },
    async pull(controller) {
      if (done) return;
      const page = await pages(start);
      if (page.data.length > 0) {
        const lines = Papa.unparse(page.data.map((row) => cellsOf(columns, row, names)), { newline: CRLF });
        controller.enqueue(encoder.encode(lines + CRLF));
      }
      start = page.next ?? undefined;
      if (!page.next) {
        done = true;
        controller.close();
      }
    },
  }, { highWaterMark: 1 });
}
