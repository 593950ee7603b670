import type { PolicyResponse, PolicyStepBody } from '../schema/api/calls-approval-policies.ts';
import type { PolicyObjectType } from '../schema/approval-policy.ts';
import type { EmailVerificationState, SupportAccessGrant, SupportAccessGrantBody } from '../schema/api/calls-support-access.ts';
import type { Transaction } from '../schema/entities/transaction.ts';
import type { Department } from '../schema/entities/department.ts';
import type { Location } from '../schema/entities/location.ts';
import type { GlAccount } from '../schema/entities/gl-account.ts';
import type { TrackingCategory } from '../schema/entities/tracking-category.ts';
import type { UserRow, SpendUser } from '../schema/entities/spend-user.ts';
import type { ReimbursementRate } from '../schema/entities/reimbursement-rate.ts';
import type { Vendor } from '../schema/entities/vendor.ts';
import type { ProvisionalBill } from '../schema/entities/provisional-bill.ts';
import type { Bill } from '../schema/entities/bill.ts';
import type { billPaymentRowSchema } from '../schema/api/calls-bills.ts';
import type { remindResponseSchema } from '../schema/api/calls-bill-bulk.ts';
import type { BillTemplate, billTemplateCreateSchema } from '../schema/api/calls-bill-extras.ts';
import type { RecurringBillTemplate, recurringBillCreateSchema, recurringBillPatchSchema } from '../schema/entities/recurring-bill.ts';
import type { VendorCredit, vendorCreditCreateSchema } from '../schema/entities/vendor-credit.ts';
import type {
  BankAccountBody, BulkVendorRow, VendorCreateBody, VendorPatchBody, bulkRowResultSchema, revealedBankAccountSchema,
  vendorContactBodySchema, vendorContactPatchSchema,
} from '../schema/api/calls-vendors.ts';
import type {
  AccountingCurrent, AccountingPreferences, AccountingProvider, accountingPreferencesPatchSchema, manualMatch,
  reconciliationMatchSchema, SyncCommit, SyncObjectType, SyncPreview,
} from '../schema/api/calls-accounting.ts';
import type { createOidcProvider, createSamlProvider, DomainCheckOutcome, SsoProtocol, SsoProvider, updateSsoProvider } from '../schema/api/calls-sso.ts';
import type { MappingRule, mappingRuleInputSchema } from '../schema/mapping-rules.ts';
import type { AdminUser, adminDepartmentSchema, BusinessEntity, createEntity, InviteLookup, inviteUser, updateUser } from '../schema/api/calls-admin.ts';
import type { z } from 'zod';
import type { ReportCollection, ReportQuery, ReportRow } from '../schema/reports.ts';
import type { Business } from '../schema/entities/business.ts';
import type { TransactionFilter, TransactionSort } from '../schema/transaction-query.ts';
import type { CodingPatch } from '../schema/commands/coding-patch.ts';
import type { ConflictChoice } from '../schema/commands/conflicts.ts';
import type { CommandInput, CommandName } from '../schema/commands/index.ts';
import type { ErrorV2 } from '../schema/errors.ts';
import type { OutboxEntry, SyncStatus } from '../sync/ports.ts';
import type { WebConfig } from '../schema/web-config.ts';
import type { FeatureFlags } from '../schema/feature-flags.ts';
import type { Platform } from '../schema/platform.ts';
import type { Role } from '../schema/roles.ts';
import type {
  Authenticator, AuthenticationResponse, RegistrationResponse, SecondFactor,
} from '../schema/webauthn.ts';
import type { QueriedCollection, RowOf } from '../schema/collections.ts';
import type { FilterOf, SortOf } from './collections/worker-collection.ts';
import type { MoneyFields, Totals } from './query-engine.ts';
import type { MatchCandidate, ReceiptExtracted } from '../schema/receipt-matching.ts';
import type { ReceiptMatch } from './receipt-store.ts';

export type { MoneyFields, Totals } from './query-engine.ts';

/**
 * The one typed boundary between the UI and the data worker (exposed with Comlink).
 * The UI never calls fetch for domain data and never opens IndexedDB: it asks here.
 */
export interface TransactionQuery {
  filter: TransactionFilter;
  sort: TransactionSort;
  /** Row window for the virtualised table: [offset, offset + limit). */
  offset: number;
  limit: number;
}

/** A mirrored transaction plus its outbox marks. */
export interface TransactionView extends Transaction {
  /** Outbox state of the newest command touching it, when one is not yet confirmed. */
  pending: 'pending' | 'sending' | 'needs_step_up' | 'failed' | 'conflict' | null;
  /**
   * The newest failed command's id and the server's message, for retry/discard; `conflict`
   * (issue 24): a field-level 409 CONFLICT, resolved in the conflict drawer instead; `duplicate`
   * (issue 25): a bill refused as a duplicate invoice, which `confirmDuplicate` re-sends confirmed.
   */
  failure: { command_id: string; message: string; conflict?: true; duplicate?: true } | null;
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

/** A row of a queried collection as shown (commands applied), with its outbox marks. */
export type RowView<C extends QueriedCollection> = RowOf<C> & Pick<TransactionView, 'pending' | 'failure'>;

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

export interface ReferenceData {
  departments: Department[];
  locations: Location[];
  gl_accounts: GlAccount[];
  tracking_categories: TrackingCategory[];
  users: UserRow[];
  reimbursement_rates: ReimbursementRate[];
  vendors: Vendor[];
  /** As shown: the bill inbox's commands applied (rows created offline included), with their marks. */
  provisional_bills: MarkedReferenceRow<ProvisionalBill>[];
  /** Issue 12: the user's own saved reports and dashboards (server: domain/reporting/saved.ts). */
  saved_reports: RowOf<'saved_reports'>[];
  dashboards: RowOf<'dashboards'>[];
  /** Issue 12: the business's accounting mapping rules (suggested coding, offline too). */
  mapping_rules: RowOf<'mapping_rules'>[];
  /** Issue 14: the business's entities (legal entities), named offline wherever an entity id shows. */
  entities: RowOf<'entities'>[];
}

/**
 * A reference row that commands change, as shown (MirrorRuntime.referenceData), with the outbox
 * marks a queried row's RowView has; optional, so a row straight from the cache is one too.
 */
export type MarkedReferenceRow<T> = T & Partial<Pick<TransactionView, 'pending' | 'failure'>>;

export interface SessionInfo {
  user: SpendUser;
  business: Business;
  scopes: string[];
  /** The user has a second factor (MFA required or an authenticator enrolled): step-up may use a code. */
  mfa_enabled?: boolean;
  /** Every business the identity has a live spend user in (hidden ones included: filter with switcherUsers). */
  businesses?: BusinessChoice[];
}

/** One business of the identity, for the business switcher. */
export interface BusinessChoice {
  id: string;
  name: string;
  role: Role;
  user_id: string;
}

/**
 * A business switch. `left_behind`: the previous business still has unsent edits in its own
 * outbox on this device; they are delivered the next time that business is active.
 */
export type SwitchBusinessResult =
  | { ok: true; session: SessionInfo; left_behind: { business_name: string; changes: number } | null }
  | { ok: false; error: ErrorV2['error_v2']; mfa_required?: true };

/**
 * `mfa_required: true` on a failure: the password was right but the sign-in waits for the
 * second factor; call `verifyMfa(code)` next (the worker holds the half-scoped token).
 */
export type SignInResult =
  | { ok: true; session: SessionInfo; mfa_required: boolean }
  | { ok: false; error: ErrorV2['error_v2']; mfa_required?: true };

export interface SignUpInput {
  first_name: string;
  last_name: string;
  business_name: string;
  email: string;
  password: string;
}

/** A passkey's answer to request options (navigator.credentials.get, as @simplewebauthn/browser shapes it). */
export type PasskeyAssertion = AuthenticationResponse;

/** Re-enter the password, or an authenticator code or a passkey when the user has MFA. */
export type StepUpInput = { password: string } | { mfa_code: string } | { webauthn: PasskeyAssertion };

/**
 * Ceremony options for navigator.credentials (PublicKeyCredentialCreationOptionsJSON /
 * PublicKeyCredentialRequestOptionsJSON): the UI hands them to @simplewebauthn/browser as is.
 */
export type PasskeyOptions = { challenge: string } & Record<string, unknown>;
export type PasskeyOptionsResult = { ok: true; options: PasskeyOptions } | Extract<ActionResult, { ok: false }>;
export type { Authenticator, RegistrationResponse as PasskeyRegistration, SecondFactor };

/**
 * A direct (online-only) call's answer. `step_up` names the scope to earn first: show the
 * step-up prompt, call `stepUp`, then repeat the action.
 */
export type ActionResult =
  | { ok: true }
  | { ok: false; error: ErrorV2['error_v2']; step_up?: 'sensitive' | 'email-otp' };

export interface TotpSetup {
  authenticator_id: string;
  secret: string;
  otpauth_uri: string;
}

/**
 * A sign-in waiting for its second factor: `totp_enrolled` false means the person has no
 * authenticator yet (MFA enforced by the business or identity), so the first enrolment comes
 * before verify-mfa. `email` is where send-email-otp mails the enrolment's confirmation code.
 */
export type PendingMfaStatus =
  | { ok: true; totp_enrolled: boolean; factors: SecondFactor[]; email: string | null }
  | { ok: false; error: ErrorV2['error_v2'] };

/** A one-time code mailed to the identity's own mailbox, valid until `expires_at` (ISO). */
export type EmailCodeResult = { ok: true; expires_at: string } | { ok: false; error: ErrorV2['error_v2'] };

/** A telemetry event as the UI's telemetry queue batches it (path already sanitised). */
export interface TelemetryEventInput {
  name: string;
  path: string;
  props: Record<string, unknown>;
  ts: string;
}

export interface ErrorReportInput {
  message: string;
  url: string;
  stack?: string;
  context: Record<string, unknown>;
}

export type CommandResult =
  | { ok: true; command_id: string; affected: number; took_ms: number }
  | { ok: false; error: ErrorV2['error_v2'] };

/**
 * DataApi is joined from one interface per domain, each served by its own handler object in
 * workers/handlers/ (as Actual joins its `Handlers`); data-worker.ts exposes the join as is.
 */
export interface DataApi extends SessionApi, IdentityApi, QueryApi, ReportApi, ExportApi, CommandApi, StatusApi, ReceiptApi, VendorApi, BillApi, BillExtrasApi, AccountingApi, TeamApi, OrgApi, SsoApi, SupportAccessApi, ApprovalPolicyApi {}

/** Session: who is signed in, into which business (handlers/session.ts). */
export interface SessionApi {
  /** Opens the mirror for the stored session (if any); resolves when the first page is readable. */
  init(opts: { baseUrl: string; platform?: Platform }): Promise<SessionInfo | null>;
  /** `businessId`: the tab's business (§3), signed into when the identity belongs to it. */
  signIn(email: string, password: string, businessId?: string | null): Promise<SignInResult>;
  signOut(): Promise<void>;
  session(): Promise<SessionInfo | null>;
  /**
   * Moves the session to another of the identity's businesses: a new token on the same session,
   * that business's own mirror opened and synced; the previous mirror and outbox stay on disk.
   * `mfa_required`: that business asks for MFA first; `verifyMfa(code)` completes the switch.
   */
  switchBusiness(businessId: string): Promise<SwitchBusinessResult>;
  /** Creates the identity and its business, then signs in. */
  signUp(input: SignUpInput): Promise<SignInResult>;
  /**
   * Single sign-on's last step (issue 14): trades the one-time code of /sso/complete for the
   * session, as a password sign-in (`mfa_required`: `verifyMfa` next). `redirect`: where the
   * person was heading when the sign-in started (the page checks it with safeRedirect).
   */
  ssoComplete(code: string): Promise<SignInResult & { redirect: string | null }>;
  /** Second step of a sign-in that answered mfa_required: a 6-digit code or a passkey assertion. */
  verifyMfa(proof: string | { webauthn: PasskeyAssertion }): Promise<SignInResult>;
  /**
   * The session expired (401): sign the SAME user in again in place; the mirror and the outbox
   * stay and the sync resumes. A different account's credentials are refused.
   */
  reauthenticate(password: string): Promise<SignInResult>;
  /** Revokes every session of the identity, then signs this device out. */
  signOutAllSessions(): Promise<ActionResult>;
  /** Accepts an invite (`/invites/:token`) with a password, then signs in like `signIn` (MFA included). */
  acceptInvite(token: string, password: string): Promise<SignInResult>;
  /** Signs in with a mailed sign-in link's token (`/passwordless?token=`), MFA included. */
  signInWithLink(token: string): Promise<SignInResult>;
}

/** Identity: account settings, second factors, config, flags, telemetry (handlers/identity.ts). */
export interface IdentityApi {
  /** §3 web config (defaults when the server cannot be reached). */
  webConfig(): Promise<WebConfig>;
  /** Earns `sensitive` for the step-up token's lifetime, then retries commands parked on it. */
  stepUp(input: StepUpInput): Promise<ActionResult>;
  changePassword(newPassword: string): Promise<ActionResult>;
  /** From Settings, or, while a sign-in waits for MFA, with its half-scoped token (first enrolment). */
  startTotp(): Promise<{ ok: true; setup: TotpSetup } | Extract<ActionResult, { ok: false }>>;
  /**
   * Activates the authenticator with its first code. `emailCode` (from `sendEmailCode`) is needed
   * for a first enrolment during a sign-in waiting for MFA; then `verifyMfa` with the NEXT code
   * finishes the sign-in (a code is never accepted twice).
   */
  verifyTotp(authenticatorId: string, code: string, emailCode?: string): Promise<ActionResult>;
  /** The pending sign-in's MFA state (check-mfa): is an authenticator enrolled yet? */
  pendingMfaStatus(): Promise<PendingMfaStatus>;
  /** Mails a one-time code (send-email-otp); during a pending sign-in, with its token. */
  sendEmailCode(): Promise<EmailCodeResult>;
  /** Settings → Security: the authenticator app and the passkeys (online only). */
  listAuthenticators(): Promise<{ ok: true; authenticators: Authenticator[] } | Extract<ActionResult, { ok: false }>>;
  /**
   * Creation options for a new passkey. Needs a token from the last 5 minutes or a step-up
   * (`step_up: 'sensitive'` otherwise); during a pending sign-in, its token (first enrolment).
   */
  passkeyRegistrationOptions(): Promise<PasskeyOptionsResult>;
  /** Registers the browser's answer under `name`; `emailCode` as verifyTotp's for a first enrolment. */
  registerPasskey(response: RegistrationResponse, name: string, emailCode?: string): Promise<
    { ok: true; authenticator: Authenticator } | Extract<ActionResult, { ok: false }>
  >;
  renamePasskey(id: string, name: string): Promise<ActionResult>;
  /** Sensitive: answers `step_up: 'sensitive'` until the person has confirmed it's them. */
  deletePasskey(id: string): Promise<ActionResult>;
  /** Sensitive, as deletePasskey. */
  deleteTotp(id: string): Promise<ActionResult>;
  /** Request options for the person's passkeys: for the pending sign-in's MFA step, or a step-up. */
  passkeyAuthenticationOptions(): Promise<PasskeyOptionsResult>;
  /** Feature flags of the session's business, typed; cached in the mirror for offline use. */
  flags(): Promise<FeatureFlags>;
  sendTelemetry(events: TelemetryEventInput[]): Promise<void>;
  sendErrorReport(report: ErrorReportInput): Promise<void>;
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

/** Commands and the outbox (handlers/commands.ts). */
export interface CommandApi {
  /**
   * Any command of COMMANDS (schema/commands), optimistic: parsed and checked locally
   * (`REQUEST_7001` with §5 messages, or the command's check, e.g. `REQUEST_7004` for an id not
   * in the mirror), queued in the outbox, applied to what every reader shows; resolves once
   * durable locally. `command_id` is the first entry's id when the command splits.
   */
  run<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandResult>;
  /** `run('transaction.bulkCode', { transaction_ids: ids, patch })`, kept for existing callers. */
  codeTransactions(ids: string[], patch: CodingPatch): Promise<CommandResult>;
  outbox(): Promise<OutboxEntry[]>;
  retryCommand(id: string): Promise<void>;
  discardCommand(id: string): Promise<void>;
  /**
   * Issue 25: a `bill.create` / `bill.update` the server refused as a duplicate invoice
   * (BILL_PAY_DUPLICATE_INVOICE) is sent again with `confirm_duplicate: true`, keeping its place
   * in the queue. False when the entry is gone or was refused for something else.
   */
  confirmDuplicate(id: string): Promise<boolean>;
  /**
   * Issue 24: resolves a field-level conflict (an entry the server refused with 409 CONFLICT)
   * from the conflict drawer's choices (field → mine | theirs; unanswered: theirs). The fields
   * kept as mine and those the server did not name become ONE new command of the same kind with
   * `If-Match` = the conflict's `current_version`; the conflicted entry is finished in the same
   * durable write. Nothing left to send (theirs everywhere): the entry is only dropped.
   * `queued`: the new command's id, or null. Refused (`REQUEST_7004`) when the entry is gone or
   * is not such a conflict (resolved already, e.g. in another tab).
   */
  resolveConflict(id: string, choices: Record<string, ConflictChoice>): Promise<ConflictResolution>;
}

export type ConflictResolution = { ok: true; queued: string | null } | { ok: false; error: ErrorV2['error_v2'] };

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

/** A file picked or dropped in the UI, handed to the worker as is (a Blob crosses Comlink by reference). */
export interface ReceiptFileInput {
  name: string;
  type: string;
  file: Blob;
}

export type AddReceiptResult =
  /** `added`: stored now (false: the same bytes were already on this device, as that receipt). */
  | { ok: true; name: string; receipt_id: string; added?: boolean }
  | { ok: false; name: string; error: ErrorV2['error_v2'] };

/**
 * A receipt as the UI shows it. `state`: `local` (on this device, waiting to upload),
 * `uploading`, `uploaded`, `failed` (refused: `error` says why; the file stays on the device), or
 * `remote` (attached elsewhere: not on this device, no thumbnail). Blobs, not URLs: the UI makes
 * (and revokes) the object URLs.
 */
export interface ReceiptView {
  /** The id asked for: a client id or the server's id (a transaction's receipt_ids hold either). */
  id: string;
  local_id: string | null;
  server_id: string | null;
  name: string;
  content_type: string | null;
  size: number | null;
  sha256: string | null;
  created_at: string | null;
  state: 'local' | 'uploading' | 'uploaded' | 'failed' | 'remote';
  error: string | null;
  thumbnail: Blob | null;
}

/** A transaction as a receipt's match names it. */
export type MatchedTransaction = Pick<Transaction, 'id' | 'merchant_name' | 'amount' | 'currency' | 'occurred_at'>;

/** A matcher candidate with the transaction it names, as the mirror shows it now. */
export type ReceiptSuggestion = MatchCandidate & { transaction: MatchedTransaction };

export type { ReceiptMatch } from './receipt-store.ts';

/**
 * A receipt of this device in the Receipts inbox: its view, its fields, the transaction it is
 * attached to (any visible transaction whose `receipt_ids` name it), the inbox's own match and,
 * while unattached, the matcher's candidates computed over the mirror as it is now (best first).
 */
export interface InboxReceipt extends ReceiptView {
  extracted: ReceiptExtracted | null;
  match: ReceiptMatch | null;
  attached_to: MatchedTransaction | null;
  suggestions: ReceiptSuggestion[];
}

export type SetReceiptFieldsResult =
  | { ok: true; receipt: InboxReceipt; exact: boolean }
  | { ok: false; error: ErrorV2['error_v2'] };

/** Receipts on the device (issue 9 §2; handlers/receipts.ts, workers/receipt-store.ts). */
export interface ReceiptApi {
  /**
   * Checks each file against the upload call's limits (type, size: refused with UPLOAD_7101 /
   * 7103 / 7104 and nothing stored), keeps it on the device with its sha256 and thumbnail,
   * queues its upload and, with `attach`, its attachment to that transaction. Offline-first:
   * resolves once durable locally. The same bytes twice are one receipt.
   */
  addReceipts(files: ReceiptFileInput[], attach?: { transaction_id: string }): Promise<AddReceiptResult[]>;
  /** The receipts named (client or server ids), in order; unknown here → `remote`. */
  receipts(ids: string[]): Promise<ReceiptView[]>;
  /**
   * The full file of a receipt: from this device, else (a server id: attached on another device)
   * fetched from the server and kept here like `fetchReceipt`; null when it cannot be had.
   */
  receiptFile(id: string): Promise<Blob | null>;
  /**
   * A receipt stored on the server but not on this device (attached on another device, e.g. the
   * claim a manager reviews): fetched with the session's token, kept in the device's receipt
   * store (so it shows offline afterwards, `state: 'uploaded'`) and answered with its thumbnail.
   * One already here is answered from here. When it cannot be fetched the view stays `remote`
   * with `error` saying why ('Not available offline', or the server's refusal).
   */
  fetchReceipt(id: string): Promise<ReceiptView>;
  /** Removes a receipt from this device (and its upload, unless it is being sent). */
  deleteLocalReceipt(id: string): Promise<CommandResult>;
  /** Every receipt on this device, newest first, with fields, attachment and suggestions (the inbox). */
  receiptInbox(): Promise<InboxReceipt[]>;
  /**
   * Stores a receipt's fields (OCR's reading or the person's typing; checked with
   * `receiptExtractedSchema`, REQUEST_7001 otherwise) and matches it over the mirror: the owner's
   * visible PENDING/CLEARED transactions without a receipt (schema/receipt-matching.ts). Stores
   * the suggestions; an exact match is attached at once (`transaction.attachReceipt`, offline
   * too) and recorded as `match.auto` — unless the receipt is attached already, or the person
   * undid a match and the fields did not change.
   */
  setReceiptFields(id: string, fields: ReceiptExtracted): Promise<SetReceiptFieldsResult>;
  /**
   * Matches again every receipt with fields that is attached nowhere and was never undone (its
   * charge may have posted since): suggestions refreshed, exact ones attached. Runs by itself in
   * the syncing tab a second after transactions change; answers how many it attached.
   */
  rematchReceipts(): Promise<number>;
  /** Attaches the receipt to a transaction the person picked in the inbox (`match.auto` false). */
  matchReceipt(id: string, transactionId: string): Promise<CommandResult>;
  /** Detaches an inbox match (the Undo of an automatic one); the receipt goes back to the inbox. */
  undoReceiptMatch(id: string): Promise<CommandResult>;
}

/**
 * A vendor call's refusal. `offline`: nothing was sent (vendor changes have no outbox command:
 * they are direct calls, online only); `step_up`: earn the scope, then repeat the call. The
 * server's field messages (`error.errors`, e.g. `address.state` for PAYEE_1007) come as they are.
 */
export type VendorFailure = Extract<ActionResult, { ok: false }> & { offline?: true };
export type VendorResult = { ok: true; vendor: Vendor } | VendorFailure;
export type RevealedBankAccount = z.output<typeof revealedBankAccountSchema>;
export type BulkRowResult = z.output<typeof bulkRowResultSchema>;
export type VendorContactInput = z.input<typeof vendorContactBodySchema>;
export type VendorContactPatch = z.input<typeof vendorContactPatchSchema>;

/**
 * Vendors (payees, issue 11; handlers/vendors.ts): direct calls to the server, online only. The
 * list itself is reference data (`referenceData().vendors`); every write comes back through the
 * feed too, so the answer's vendor is only what the UI shows until the mirror has it.
 */
export interface VendorApi {
  createVendor(body: Partial<VendorCreateBody> & Pick<VendorCreateBody, 'name'>): Promise<VendorResult>;
  /**
   * `baseSeq` (issue 24): the vendor's `change_seq` as the form was made from, sent as If-Match;
   * a field someone else changed since answers 409 CONFLICT with the details (nothing applied).
   */
  updateVendor(id: string, patch: VendorPatchBody, baseSeq?: number): Promise<VendorResult>;
  addVendorContact(id: string, contact: VendorContactInput): Promise<VendorResult>;
  updateVendorContact(id: string, contactId: string, patch: VendorContactPatch): Promise<VendorResult>;
  deleteVendorContacts(id: string, contactIds: string[]): Promise<VendorResult>;
  /** Needs the `sensitive` scope (step-up). */
  setVendorBankAccount(id: string, bank: BankAccountBody): Promise<VendorResult>;
  /** The full numbers; needs the `sensitive` scope (step-up). Never stored by the worker. */
  revealVendorBankAccount(id: string): Promise<{ ok: true; bank: RevealedBankAccount } | VendorFailure>;
  mergeVendors(survivorId: string, mergedIds: string[]): Promise<{ ok: true; vendor: Vendor; merged_payee_ids: string[] } | VendorFailure>;
  /** A CSV file's text (the server parses it) or parsed rows; all or nothing (`created: 0` when any row is refused). */
  uploadVendors(input: { csv: string } | { rows: BulkVendorRow[] }): Promise<{ ok: true; created: number; results: BulkRowResult[] } | VendorFailure>;
}

/**
 * A bill call's refusal (handlers/bills.ts). `offline`: nothing was sent (the bulk actions are
 * direct calls, online only; a payment offline is the outbox command `bill.payNow` instead).
 */
export type BillCallFailure = Extract<ActionResult, { ok: false }> & { offline?: true };
/** One bill's answer in a bulk action: the bill as changed, or the refusal (the others went on). */
export type BillBulkItem = z.output<typeof remindResponseSchema>['results'][number];
export type BillPaymentRow = z.output<typeof billPaymentRowSchema>;

/** A bulk action under /bill-pay/bulk-actions/ (schema/api/calls-bill-bulk.ts, pay-now in calls-bills.ts), by its §7 name. */
export type BillBulkRequest =
  | {
    action: 'pay-now' | 'cancel' | 'mark-bills-as-reconciled' | 'retry-payment' | 'retry-accounting-sync' | 'remind-next-approvers';
    bill_ids: string[];
  }
  | { action: 'mark-bills-as-paid'; bill_ids: string[]; payment_date?: string }
  | { action: 'due-date'; bill_ids: string[]; due_date: string }
  | { action: 'invoice-date'; bill_ids: string[]; invoice_date: string }
  | { action: 'payment-date'; bill_ids: string[]; payment_date: string }
  | { action: 'memo'; bill_ids: string[]; memo: string | null };

/**
 * Bill pay's direct calls (issue 11; handlers/bills.ts): online only. The bills themselves are
 * mirrored (`query('bills', …)`) and their edits are outbox commands (`bill.create`/`.update`/
 * `.delete`); what moves money or acts on many bills at once is answered by the server there and
 * then, and the changed bills come back through the feed.
 */
export interface BillApi {
  /** Each bill changed on its own (one refusal does not fail the others): `results` in the order asked. */
  billBulkAction(req: BillBulkRequest): Promise<{ ok: true; results: BillBulkItem[] } | BillCallFailure>;
  /** Paid outside Ledgerline (`payment_date` defaults to today on the server). */
  markBillPaid(id: string, paymentDate?: string): Promise<{ ok: true; bill: Bill } | BillCallFailure>;
  /** PAID → APPROVED; the live payment attempt becomes REVERSED. */
  reverseBillPayment(id: string): Promise<{ ok: true; bill: Bill } | BillCallFailure>;
  /** The bill's payment attempts, oldest first. */
  billPayments(id: string): Promise<{ ok: true; payments: BillPaymentRow[] } | BillCallFailure>;
}

export type RecurringBillInput = z.input<typeof recurringBillCreateSchema>;
export type RecurringBillPatchInput = z.input<typeof recurringBillPatchSchema>;
export type BillTemplateInput = z.input<typeof billTemplateCreateSchema>;
export type VendorCreditInput = z.input<typeof vendorCreditCreateSchema>;
export type RecurringBillResult = { ok: true; recurring: RecurringBillTemplate } | BillCallFailure;
export type BillTemplateResult = { ok: true; template: BillTemplate } | BillCallFailure;
export type VendorCreditResult = { ok: true; credit: VendorCredit } | BillCallFailure;

/**
 * Bill pay's extras (issue 11 §7; handlers/bill-extras.ts): recurring bills, bill templates and
 * vendor credits. They are server-only rows (not mirrored), so every call, the lists too, is a
 * direct call, online only (`offline`: nothing was sent). A list is every row the server holds
 * (newest first), read page by page; a delete answers the row as tombstoned.
 */
export interface BillExtrasApi {
  recurringBills(): Promise<{ ok: true; recurring: RecurringBillTemplate[] } | BillCallFailure>;
  createRecurringBill(body: RecurringBillInput): Promise<RecurringBillResult>;
  /** Pause (`status: 'PAUSED'`), resume (`'ACTIVE'`: periods missed meanwhile are not billed) or edit. */
  updateRecurringBill(id: string, patch: RecurringBillPatchInput): Promise<RecurringBillResult>;
  /** The bills it already made stay as they are. */
  deleteRecurringBill(id: string): Promise<RecurringBillResult>;
  billTemplates(): Promise<{ ok: true; templates: BillTemplate[] } | BillCallFailure>;
  createBillTemplate(body: BillTemplateInput): Promise<BillTemplateResult>;
  deleteBillTemplate(id: string): Promise<BillTemplateResult>;
  /** Every credit of the business, or of one vendor; `remaining` is what bills can still take. */
  vendorCredits(vendorId?: string): Promise<{ ok: true; credits: VendorCredit[] } | BillCallFailure>;
  createVendorCredit(body: VendorCreditInput): Promise<VendorCreditResult>;
  /** Refused (REQUEST_7001, the server's words) once any of it is applied to a live bill. */
  deleteVendorCredit(id: string): Promise<VendorCreditResult>;
}

/**
 * An accounting call's refusal (handlers/accounting.ts). `offline`: nothing was sent (none of
 * accounting is mirrored, so every call needs a connection).
 */
export type AccountingFailure = Extract<ActionResult, { ok: false }> & { offline?: true };
export type SyncCommitView = SyncCommit;
export type AccountingPreferencesPatch = z.input<typeof accountingPreferencesPatchSchema>;
export type MappingRuleInput = z.input<typeof mappingRuleInputSchema>;
export type ManualMatchInput = z.input<typeof manualMatch.body>;
export type ReconciliationMatch = z.output<typeof reconciliationMatchSchema>;
export type AccountingCurrentResult = { ok: true; current: AccountingCurrent } | AccountingFailure;
export type MappingRuleResult = { ok: true; rule: MappingRule } | AccountingFailure;

/**
 * Accounting close (issue 12 §7; handlers/accounting.ts): the file-based provider, its
 * preferences, sync commits and their files, mapping rules and manual matches. Server-only, so
 * every call, the lists too, is a direct call, online only (`offline`: nothing was sent). What a
 * call changes on mirrored rows (synced marks, coding applied by rules) comes back through the feed.
 */
export interface AccountingApi {
  accountingCurrent(): Promise<AccountingCurrentResult>;
  /** Connects a provider, replacing the connected one (commits already made stay). */
  connectAccounting(provider: AccountingProvider): Promise<AccountingCurrentResult>;
  /** Only the connected provider disconnects (ACCOUNTING_7304 otherwise). */
  disconnectAccounting(provider: AccountingProvider): Promise<AccountingCurrentResult>;
  updateAccountingPreferences(patch: AccountingPreferencesPatch): Promise<{ ok: true; preferences: AccountingPreferences } | AccountingFailure>;
  /** Every coded, approved, not-yet-synced item in one commit; ACCOUNTING_7303 when there is none, 7302 when another runs. */
  syncCommit(provider: AccountingProvider): Promise<{ ok: true; commit: SyncCommitView } | AccountingFailure>;
  /** Issue 25: what `syncCommit` would export and lock now (per source and currency), locking nothing. */
  syncPreview(provider: AccountingProvider): Promise<{ ok: true; preview: SyncPreview } | AccountingFailure>;
  /** Every commit of the business, newest first. */
  syncCommits(): Promise<{ ok: true; commits: SyncCommitView[] } | AccountingFailure>;
  /** One file of a commit, its bytes as the server stored them (typed with its Content-Type). */
  syncFile(commitId: string, fileName: string): Promise<{ ok: true; file: Blob } | AccountingFailure>;
  /** Unlocks the items' coding; `updated` counts those that were synced. */
  markNotSynced(items: { type: SyncObjectType; id: string }[]): Promise<{ ok: true; updated: number } | AccountingFailure>;
  /** In the order they are tried. */
  mappingRules(): Promise<{ ok: true; rules: MappingRule[] } | AccountingFailure>;
  createMappingRule(body: MappingRuleInput): Promise<MappingRuleResult>;
  replaceMappingRule(id: string, body: MappingRuleInput): Promise<MappingRuleResult>;
  deleteMappingRule(id: string): Promise<{ ok: true } | AccountingFailure>;
  /** Codes every uncoded, unsynced transaction a rule matches; `updated` counts them. */
  applyMappingRules(): Promise<{ ok: true; updated: number } | AccountingFailure>;
  /** A card transaction matched to the bill it paid or to a bank line id. */
  manualMatch(body: ManualMatchInput): Promise<{ ok: true; match: ReconciliationMatch } | AccountingFailure>;
}

/**
 * A team call's refusal (handlers/team.ts). `offline`: nothing was sent (inviting and managing
 * people are direct calls, online only; the people list itself is the mirror's `users`).
 */
export type TeamFailure = Extract<ActionResult, { ok: false }> & { offline?: true };
export type TeamUserResult = { ok: true; user: AdminUser } | TeamFailure;
export type InviteUserInput = z.input<typeof inviteUser.body>;
export type UpdateUserInput = z.input<typeof updateUser.body>;

/**
 * Team administration (issue 14; handlers/team.ts, schema/api/calls-admin.ts): direct calls,
 * online only. Every write also reaches the mirror through the feed (users are reference data),
 * so the answer's user is only what the page shows until the mirror has it. `inviteDetails` and
 * `sendSignInLink` are public (no session): the invite and sign-in pages call them signed out.
 */
export interface TeamApi {
  teamUser(id: string): Promise<TeamUserResult>;
  inviteUser(body: InviteUserInput): Promise<{ ok: true; user: AdminUser; expires_at: string } | TeamFailure>;
  resendInvite(id: string): Promise<{ ok: true; user: AdminUser; expires_at: string } | TeamFailure>;
  changeUserRole(id: string, role: Role, isManager?: boolean): Promise<TeamUserResult>;
  /**
   * `baseSeq` (issue 24): the person's `change_seq` as the page showed them, sent as If-Match; a
   * field someone else changed since answers 409 CONFLICT with the details (nothing applied).
   */
  updateUser(id: string, patch: UpdateUserInput, baseSeq?: number): Promise<TeamUserResult>;
  suspendUser(id: string): Promise<TeamUserResult>;
  unsuspendUser(id: string): Promise<TeamUserResult>;
  deleteUser(id: string): Promise<{ ok: true } | TeamFailure>;
  businessEntities(): Promise<{ ok: true; entities: BusinessEntity[] } | TeamFailure>;
  inviteDetails(token: string): Promise<{ ok: true; invite: InviteLookup } | TeamFailure>;
  /** Always ok when the server answered: it never says whether the email has an account. */
  sendSignInLink(email: string): Promise<{ ok: true } | TeamFailure>;
}

/**
 * An organisation call's refusal (handlers/org.ts). `offline`: nothing was sent (departments,
 * locations and entities are changed by direct calls only, online).
 */
export type OrgFailure = Extract<ActionResult, { ok: false }> & { offline?: true };
/** A department or location as the admin calls answer it (with its owners). */
export type OrgUnit = z.output<typeof adminDepartmentSchema>;
export type OrgUnitKind = 'departments' | 'locations';
export type OrgUnitResult = { ok: true; unit: OrgUnit } | OrgFailure;
export type BusinessEntityResult = { ok: true; entity: BusinessEntity } | OrgFailure;
export type BusinessEntityInput = z.input<typeof createEntity.body>;

/**
 * Issue 14's team administration (handlers/org.ts): departments, locations and business
 * entities, admins only, direct calls (online only). The lists are mirrored reference data
 * (`referenceData()`: departments, locations, entities, owners included), so the pages read
 * them offline; every write's row comes back through the feed too.
 */
export interface OrgApi {
  createOrgUnit(kind: OrgUnitKind, name: string): Promise<OrgUnitResult>;
  renameOrgUnit(kind: OrgUnitKind, id: string, name: string): Promise<OrgUnitResult>;
  /** People in it move to none (each user row changes); transactions keep their coding. */
  deleteOrgUnit(kind: OrgUnitKind, id: string): Promise<OrgUnitResult>;
  /** The whole owner list (users of the business). */
  setOrgUnitOwners(kind: OrgUnitKind, id: string, userIds: string[]): Promise<OrgUnitResult>;
  createEntity(body: BusinessEntityInput): Promise<BusinessEntityResult>;
  updateEntity(id: string, patch: Partial<BusinessEntityInput>): Promise<BusinessEntityResult>;
  /** Refused (REQUEST_7001, the server's words) while live users belong to it. */
  deleteEntity(id: string): Promise<{ ok: true } | OrgFailure>;
  setEntityOwners(id: string, userIds: string[]): Promise<BusinessEntityResult>;
}

/** An SSO call's refusal (handlers/sso.ts). `offline`: nothing was sent (identity providers live on the server only). */
export type SsoFailure = Extract<ActionResult, { ok: false }> & { offline?: true };
export type SsoProviderInput =
  | { protocol: 'saml'; body: z.input<typeof createSamlProvider.body> }
  | { protocol: 'oidc'; body: z.input<typeof createOidcProvider.body> };
export type SsoProviderPatch = z.input<typeof updateSsoProvider.body>;
export type SsoProviderResult = { ok: true; provider: SsoProvider } | SsoFailure;
export type SsoStartResult = { ok: true; authorization_url: string } | SsoFailure;
/** One domain check (issue 24): the provider as it now is, and what the DNS lookup found, in words. */
export type SsoDomainCheckResult = { ok: true; provider: SsoProvider; outcome: DomainCheckOutcome; message: string } | SsoFailure;

/**
 * Single sign-on (issue 14; handlers/sso.ts; schema/api/calls-sso.ts): the admin's identity
 * providers per email domain, and the public starts of a sign-in (the browser is then sent to
 * `authorization_url`). Server-only, online only (`offline`: nothing was sent). The sign-in's end
 * is `SessionApi.ssoComplete`.
 */
export interface SsoApi {
  ssoProviders(): Promise<{ ok: true; providers: SsoProvider[] } | SsoFailure>;
  createSsoProvider(input: SsoProviderInput): Promise<SsoProviderResult>;
  /** Enable, disable, enforce, or replace its metadata, issuer or client. */
  updateSsoProvider(id: string, patch: SsoProviderPatch): Promise<SsoProviderResult>;
  deleteSsoProvider(id: string, protocol: SsoProtocol): Promise<{ ok: true } | SsoFailure>;
  /** Looks up the domain's `_ledgerline-challenge` TXT record; proven when it holds this claim's value (AUTH_7030: another business proved it first). */
  verifySsoDomain(id: string): Promise<SsoDomainCheckResult>;
  /** The enabled provider of the email's domain (AUTH_7022 when there is none). */
  ssoStart(email: string, redirect?: string): Promise<SsoStartResult>;
  /** Sign in with Google (AUTH_7022 when the server has no Google client). */
  googleStart(redirect?: string): Promise<SsoStartResult>;
}

/**
 * A support access or email verification call's refusal (handlers/support-access.ts).
 * `offline`: nothing was sent (direct calls, online only).
 */
export type SupportAccessFailure = Extract<ActionResult, { ok: false }> & { offline?: true };
export type SupportAccessResult = { ok: true; grant: SupportAccessGrant | null } | SupportAccessFailure;
export type EmailVerificationResult = { ok: true; verification: EmailVerificationState } | SupportAccessFailure;

/**
 * Issue 24: the business's support access grant (owners and admins: see, turn on for 1–14 days,
 * revoke) and the signed-in person's email verification (the code sign-up mailed).
 */
export interface SupportAccessApi {
  /** The latest grant, live or ended (null: never turned on). */
  supportAccess(): Promise<SupportAccessResult>;
  /** Turns it on (replacing a live grant): `days` 1–14, read-only unless `allow_writes`. */
  grantSupportAccess(body: SupportAccessGrantBody): Promise<SupportAccessResult>;
  /** Ends the live grant at once. */
  revokeSupportAccess(): Promise<SupportAccessResult>;
  emailVerification(): Promise<EmailVerificationResult>;
  /** Mails a new code (PROFILE_7027 when verified; AUTH_7029 past the limit). */
  sendEmailVerification(): Promise<{ ok: true; expires_at: string } | SupportAccessFailure>;
  /** PROFILE_7016 expired, PROFILE_7017 invalid, PROFILE_7027 already verified. */
  verifyEmail(code: string): Promise<EmailVerificationResult>;
}


/** An approval policy call's refusal (handlers/approval-policies.ts); `offline`: nothing was sent. */
export type ApprovalPolicyFailure = Extract<ActionResult, { ok: false }> & { offline?: true };
export type ApprovalPolicyResult = { ok: true; policy: PolicyResponse } | ApprovalPolicyFailure;

/**
 * Issue 25: the approval policy screen (admins; schema/api/calls-approval-policies.ts): read the
 * current policy of an object type and replace its steps (a new version). Online only.
 */
export interface ApprovalPolicyApi {
  approvalPolicy(objectType: PolicyObjectType): Promise<ApprovalPolicyResult>;
  saveApprovalPolicy(objectType: PolicyObjectType, steps: PolicyStepBody[]): Promise<ApprovalPolicyResult>;
}
