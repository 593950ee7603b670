import type { ErrorV2 } from '../../schema/errors.ts';
import type { QueriedCollection, ReferenceCollection, RowOf } from '../../schema/collections.ts';
import type { Transaction } from '../../schema/entities/transaction.ts';
import type { Department } from '../../schema/entities/department.ts';
import type { Location } from '../../schema/entities/location.ts';
import type { GlAccount } from '../../schema/entities/gl-account.ts';
import type { TrackingCategory } from '../../schema/entities/tracking-category.ts';
import type { UserRow } from '../../schema/entities/spend-user.ts';
import type { ReimbursementRate } from '../../schema/entities/reimbursement-rate.ts';
import type { Vendor } from '../../schema/entities/vendor.ts';
import type { ProvisionalBill } from '../../schema/entities/provisional-bill.ts';

/*
 * The shapes every side of the worker shares (a leaf: imports only schema/): rows as shown with
 * their outbox marks, reference data, and the answers of commands and direct calls.
 */

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


/** A row of a queried collection as shown (commands applied), with its outbox marks. */
export type RowView<C extends QueriedCollection> = RowOf<C> & Pick<TransactionView, 'pending' | 'failure'>;

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
  /** Issue 28: purchase orders as shown ("Receive items" made offline applied), with their marks. */
  purchase_orders: MarkedReferenceRow<RowOf<'purchase_orders'>>[];
  /** Issue 28: the budgets the user may see, with what is left this interval. */
  spend_allocations: RowOf<'spend_allocations'>[];
  /** Issue 29: the business's expense policies (the missing-items wizard evaluates them offline). */
  expense_policies: RowOf<'expense_policies'>[];
  /** Issue 30: as shown, with the marks of a queued transfer (its hold) or cancel. */
  wallet_accounts: MarkedReferenceRow<RowOf<'wallet_accounts'>>[];
  wallet_transfers: MarkedReferenceRow<RowOf<'wallet_transfers'>>[];
  /** Issue 30: the business's linked bank accounts (admins), read offline by the bank pages and the transfer form. */
  bank_accounts: RowOf<'bank_accounts'>[];
}

/**
 * Equality on a reference row's scalar fields (`{ archived: false }`): what `referenceCount`
 * counts. Every named field must be equal; none named counts every row.
 */
export type ReferenceWhere<K extends ReferenceCollection> = { [F in keyof RowOf<K>]?: Extract<RowOf<K>[F], string | number | boolean | null> };

/**
 * A reference row that commands change, as shown (MirrorRuntime.referenceData), with the outbox
 * marks a queried row's RowView has; optional, so a row straight from the cache is one too.
 */
export type MarkedReferenceRow<T> = T & Partial<Pick<TransactionView, 'pending' | 'failure'>>;

/**
 * A direct (online-only) call's answer. `step_up` names the scope to earn first: show the
 * step-up prompt, call `stepUp`, then repeat the action.
 */
export type ActionResult =
  | { ok: true }
  | { ok: false; error: ErrorV2['error_v2']; step_up?: 'sensitive' | 'email-otp' };

/**
 * A direct (online-only) call's refusal (workers/online.ts). `offline`: nothing was sent (no
 * connection, or the request never reached the server).
 */
export type OnlineFailure = Extract<ActionResult, { ok: false }> & { offline?: true };

export type CommandResult =
  | { ok: true; command_id: string; affected: number; took_ms: number }
  | { ok: false; error: ErrorV2['error_v2'] };
