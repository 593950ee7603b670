import type { QueriedCollection, ReferenceCollection, RowOf } from '../schema/collections.ts';
import type { ReportCollection, ReportQuery, ReportRow } from '../schema/reports.ts';
import type { TransactionFilter, TransactionSort } from '../schema/transaction-query.ts';
import type { SyncStatus } from '../sync/ports.ts';
import type { FilterOf, SortOf } from './collections/worker-collection.ts';
import type { CommandApi } from './contracts/commands.ts';
import type { ReceiptApi } from './contracts/receipts.ts';
import type { IdentityApi, SessionApi } from './contracts/session.ts';
import type { ReferenceData, ReferenceWhere, RowView, TransactionView } from './contracts/views.ts';
import type { AccountingApi } from './handlers/accounting.ts';
import type { ApprovalPolicyApi } from './handlers/approval-policies.ts';
import type { BillExtrasApi } from './handlers/bill-extras.ts';
import type { BillApi } from './handlers/bills.ts';
import type { BillCardMatchApi } from './handlers/bill-card-match.ts';
import type { BankingApi, FlexApi } from './handlers/banking.ts';
import type { CommentApi } from './handlers/comments.ts';
import type { OrgApi } from './handlers/org.ts';
import type { ProcurementApi } from './handlers/procurement.ts';
import type { PolicyApi } from './handlers/policies.ts';
import type { NotificationSettingsApi } from './handlers/notifications.ts';
import type { TreasuryApi } from './handlers/treasury.ts';
import type { ApplicationApi } from './handlers/application.ts';
import type { VendorPortalApi } from './handlers/vendor-portal.ts';
import type { SsoApi } from './handlers/sso.ts';
import type { SupportAccessApi } from './handlers/support-access.ts';
import type { TeamApi } from './handlers/team.ts';
import type { TravelApi } from './handlers/travel.ts';
import type { VendorApi } from './handlers/vendors.ts';
import type { WorkflowApi } from './handlers/workflows.ts';
import type { AdvisorConsoleApi } from './handlers/advisor-console.ts';
import type { HrisApi } from './handlers/hris.ts';
import type { SwitchingApi } from './handlers/switching.ts';
import type { SftpUploadApi } from './handlers/sftp-uploads.ts';
import type { BusinessSettingsApi } from './handlers/business-settings.ts';
import type { JobApi } from './handlers/jobs.ts';
import type { SavedViewApi } from './handlers/saved-views.ts';
import type { ChatApi } from './handlers/chat.ts';
import type { PlatformApi } from './handlers/platform.ts';
import type { ApiClientApi } from './handlers/api-clients.ts';
import type { DeveloperAppApi } from './handlers/developer-apps.ts';
import type { ScimApi } from './handlers/scim.ts';
import type { ExportSettingsApi } from './handlers/export-settings.ts';
import type { ProfileApi } from './handlers/profile.ts';
import type { MoneyFields, Totals } from './query-engine.ts';

/*
 * The one typed boundary between the UI and the data worker (exposed with Comlink). The UI never
 * calls fetch for domain data and never opens IndexedDB: it asks here. This file holds what the
 * mirror adds (queries, gets, reports, exports, status) and the join; the other domains' contracts
 * live beside their code (contracts/*.ts, and the online-only domains' types derived from their
 * call definitions in handlers/*.ts, workers/online.ts) and are re-exported here for the UI.
 */
export type { MoneyFields, Totals } from './query-engine.ts';
export type * from './contracts/views.ts';
export type * from './contracts/session.ts';
export type * from './contracts/commands.ts';
export type * from './contracts/receipts.ts';
export type * from './handlers/vendors.ts';
export type * from './handlers/bills.ts';
export type * from './handlers/bill-extras.ts';
export type * from './handlers/bill-card-match.ts';
export type * from './handlers/accounting.ts';
export type * from './handlers/team.ts';
export type * from './handlers/org.ts';
export type * from './handlers/sso.ts';
export type * from './handlers/support-access.ts';
export type * from './handlers/approval-policies.ts';
export type * from './handlers/travel.ts';
export type * from './handlers/procurement.ts';
export type * from './handlers/workflows.ts';
export type * from './handlers/policies.ts';
export type * from './handlers/comments.ts';
export type * from './handlers/notifications.ts';
export type * from './handlers/treasury.ts';
export type * from './handlers/vendor-portal.ts';
export type * from './handlers/banking.ts';
export type * from './handlers/advisor-console.ts';
export type * from './handlers/application.ts';
export type * from './handlers/hris.ts';
export type * from './handlers/sftp-uploads.ts';
export type * from './handlers/business-settings.ts';
export type * from './handlers/jobs.ts';
export type * from './handlers/saved-views.ts';
export type * from './handlers/chat.ts';
export type * from './handlers/platform.ts';
export type * from './handlers/api-clients.ts';
export type * from './handlers/scim.ts';
export type * from './handlers/profile.ts';

/**
 * DataApi is joined from one interface per domain, each served by its own handler object in
 * workers/handlers/ (as Actual joins its `Handlers`); data-worker.ts exposes the join as is.
 */
export interface DataApi extends SessionApi, IdentityApi, QueryApi, ReportApi, ExportApi, CommandApi, StatusApi, ReceiptApi,
  VendorApi, BillApi, BillExtrasApi, AccountingApi, TeamApi, OrgApi, SsoApi, SupportAccessApi, ApprovalPolicyApi, TravelApi,
  ProcurementApi, WorkflowApi, PolicyApi, CommentApi, NotificationSettingsApi, TreasuryApi, BankingApi, FlexApi, BillCardMatchApi,
  AdvisorConsoleApi, ApplicationApi, VendorPortalApi, HrisApi, SftpUploadApi, JobApi, SavedViewApi, ChatApi, PlatformApi, ApiClientApi, ScimApi,
  ExportSettingsApi, SwitchingApi, DeveloperAppApi, ProfileApi, BusinessSettingsApi {}

export interface TransactionQuery {
  filter: TransactionFilter;
  sort: TransactionSort;
  /** Row window for the virtualised table: [offset, offset + limit). */
  offset: number;
  limit: number;
}


export interface QueryResult {
  rows: TransactionView[];
  total: number;
  offset: number;
  /** Milliseconds the worker spent on the query (for the benchmark and dev overlay). */
  took_ms: number;
}

/**
 * The offline duplicate-invoice check (issue 11): the server's check-duplicate-invoice-number
 * answer, from the mirror. `bills`: the ones the invoice duplicates, oldest first, as shown
 * (commands applied, so bills created offline and still in the outbox count).
 */
export interface DuplicateInvoiceResult {
  is_duplicate: boolean;
  bills: RowView<'bills'>[];
}

/** A page request over any queried collection, by its definition's filter and sorts. */
export interface CollectionQuery<C extends QueriedCollection> {
  filter: FilterOf<C>;
  sort: SortOf<C>;
  offset: number;
  limit: number;
}


export interface CollectionPage<C extends QueriedCollection> {
  rows: RowView<C>[];
  total: number;
  offset: number;
  took_ms: number;
}

/**
 * Totals over the whole result of a filter (not a page): `sort` is the page's, so the engine
 * reuses the result it already holds; `money` names the row's amount and currency fields
 * (default `amount` / `currency`, which every money-bearing collection uses).
 */
export interface TotalsQuery<C extends QueriedCollection> {
  filter: FilterOf<C>;
  sort?: SortOf<C>;
  money?: MoneyFields<RowOf<C>>;
}

/** Count and per-currency sums (integer minor units), most rows first. */
export interface TotalsResult extends Totals {
  took_ms: number;
}

/** Queries over the mirror (handlers/queries.ts). */
export interface QueryApi {
  /** A page of any queried collection (QUERIED_COLLECTIONS); same semantics as queryTransactions. */
  query<C extends QueriedCollection>(collection: C, q: CollectionQuery<C>): Promise<CollectionPage<C>>;
  /** Count and sum per currency of every row matching the filter (commands applied). */
  totals<C extends QueriedCollection>(collection: C, q: TotalsQuery<C>): Promise<TotalsResult>;
  /** The same over rows picked by id (a selection, "all matching" included); unknown ids are skipped. */
  selectionTotals<C extends QueriedCollection>(collection: C, ids: string[], money?: MoneyFields<RowOf<C>>): Promise<TotalsResult>;
  /** One row of a queried collection as shown, or null. */
  get<C extends QueriedCollection>(collection: C, id: string): Promise<RowView<C> | null>;
  queryTransactions(q: TransactionQuery): Promise<QueryResult>;
  /** Ids of every transaction matching the filter (for "select all matching"). */
  matchingIds(filter: TransactionFilter): Promise<string[]>;
  getTransaction(id: string): Promise<TransactionView | null>;
  referenceData(): Promise<ReferenceData>;
  /**
   * How many rows of one reference kind match `where` (equality on scalar fields), as shown:
   * a number instead of the whole reference snapshot, for "does the viewer see any" questions
   * asked on every reference change (the nav's Budgets and Purchase orders). 0 while signed out.
   */
  referenceCount<K extends ReferenceCollection>(kind: K, where?: ReferenceWhere<K>): Promise<number>;
  /**
   * Whether the vendor already has a bill with this invoice number, by the server's rule
   * (schema/bill-rules.ts `findDuplicateInvoices`: `invoiceNumberKey`, canceled bills do not
   * count); `billId`: the bill being edited, which is not its own duplicate.
   */
  checkDuplicateInvoice(vendorId: string, invoiceNumber: string, billId?: string): Promise<DuplicateInvoiceResult>;
}

/** A report over the mirror (handlers/reports.ts), live: the UI asks again when data changes. */
export interface ReportAnswer {
  rows: ReportRow[];
  /** Names of keys the UI cannot name from reference data (cards: "Travel ••4242"). */
  labels: Record<string, string>;
  /** Rows the filters matched before the report's range and spend rules (what was scanned). */
  scanned: number;
  took_ms: number;
}

/** Reports (handlers/reports.ts). */
export interface ReportApi {
  /** The query must pass schema/reports.ts `reportQuerySchema`; a bad one rejects with its message. */
  report(query: ReportQuery): Promise<ReportAnswer>;
}

/** A table exported as CSV on the device (handlers/exports.ts). */
export type CsvExportAnswer =
  | { ok: true; file: Blob; name: string; rows: number; took_ms: number }
  | { ok: false; message: string };

export interface ExportApi {
  /**
   * The rows of a table's current filter, in its sort, as a CSV file (schema/exports.ts's
   * columns). `onProgress(done, total)` after each chunk (a Comlink-proxied callback).
   */
  exportCsv<C extends QueriedCollection & ReportCollection>(
    collection: C,
    filter: FilterOf<C>,
    sort: SortOf<C>,
    onProgress?: (done: number, total: number) => void | Promise<void>,
  ): Promise<CsvExportAnswer>;
}
/** What this device holds for offline use (Settings → Offline data). */
export interface OfflineData {
  /** Rows mirrored per collection (queried collections and reference kinds), by name. */
  rows: Record<string, number>;
  /** Unsent outbox entries (pending, sending, waiting for step-up, failed): what a re-download waits for. */
  waiting: number;
  /**
   * When this device last heard from the server's feed: the last time the sync reached `live`
   * in this worker, else the stored checkpoint's last write (ISO); null when never.
   */
  last_synced_at: string | null;
}

/**
 * "Download again": refused, never lossy. `waiting`: unsent changes must go out first (the
 * outbox is never emptied by a re-download); `offline`, `signed_out`; `other_tab`: another tab
 * runs the sync (its engine would write over the reset).
 */
export type DownloadAgainResult =
  | { ok: true }
  | { ok: false; reason: 'waiting' | 'offline' | 'signed_out' | 'other_tab'; waiting: number; message: string };

/** Sync status, change notifications and the page's online state (handlers/status.ts). */
export interface StatusApi {
  /** Rows per collection, unsent changes and the last sync time. */
  offlineData(): Promise<OfflineData>;
  /**
   * Empties the mirrored rows, rewinds the checkpoint and runs the first mirror again from
   * zero (status: `mirrored` false, `progress` counting again). The outbox is never touched;
   * refused while it holds unsent changes, offline, or in a tab that does not run the sync.
   */
  downloadAgain(): Promise<DownloadAgainResult>;
  status(): Promise<SyncStatus>;
  /** Calls back on sync status changes and whenever mirrored data changed (UI re-queries). */
  subscribe(
    onStatus: (s: SyncStatus) => void,
    onDataChanged: (collections: string[]) => void,
  ): Promise<() => void>;
  /** Tells the worker the page's online state (the main thread sees it first). */
  setOnline(online: boolean): Promise<void>;
}
