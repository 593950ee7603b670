import type { z } from 'zod';
import type { AnyCommandDef, CommandSplit } from './define-command.ts';
import { approvalApprove, approvalReject } from './approval.ts';
import {
  reimbursementCancel, reimbursementCancelPayment, reimbursementDelete, reimbursementCreate, reimbursementCreateMileage, reimbursementCreatePerDiem,
  reimbursementPay, reimbursementResubmit, reimbursementSaveDraft, reimbursementSubmit, reimbursementUpdate,
} from './reimbursement.ts';
import { transactionBulkCode, transactionCode } from './transaction-code.ts';
import {
  cardActivate, cardBulkLock, cardFavorite, cardIssue, cardLock, cardReissue, cardRequestCancel, cardRequestCreate, cardRequestPhysical,
  cardSetPrimary, cardSuspend, cardTerminate, cardUnfavorite, cardUnlock, cardUnsuspend, cardUpdate,
} from './card.ts';
import { receiptDiscard, receiptUpload, transactionAttachReceipt, transactionDetachReceipt } from './receipt.ts';
import { billCreate, billDelete, billPayNow, billUpdate } from './bill.ts';
import { provisionalBillCreate, provisionalBillDelete, provisionalBillUpdate } from './provisional-bill.ts';
import { dashboardDelete, dashboardSave, savedReportDelete, savedReportSave } from './reporting.ts';
import { transactionFraudResponse } from './fraud.ts';
import { tripCreate, tripDelete, tripLinkSpend, tripUnlinkSpend, tripUpdate } from './trip.ts';
import { spendRequestCancel, spendRequestCreate, spendRequestDelete, spendRequestUpdate } from './spend-request.ts';
import { itemReceiptCreate } from './item-receipt.ts';
import { notificationMarkRead } from './notification.ts';
import { transactionDismissSuggestion } from './suggestion.ts';
import { transferCancel, transferCreate } from './transfer.ts';
import { transactionClearAttendeeSplit, transactionCopyReceipts, transactionSplitAttendees } from './attendee-split.ts';

/** Every command, listed once: the outbox stores the name and looks the definition up here. */
const DEFINITIONS = [
  transactionCode,
  notificationMarkRead,
  transactionDismissSuggestion,
  transactionBulkCode,
  reimbursementCreate,
  reimbursementCreateMileage,
  reimbursementCreatePerDiem,
  reimbursementUpdate,
  reimbursementSubmit,
  reimbursementSaveDraft,
  reimbursementResubmit,
  reimbursementCancel,
  reimbursementPay,
  reimbursementCancelPayment,
  reimbursementDelete,
  approvalApprove,
  approvalReject,
  receiptUpload,
  receiptDiscard,
  transactionAttachReceipt,
  transactionDetachReceipt,
  cardIssue,
  cardUpdate,
  cardActivate,
  cardLock,
  cardUnlock,
  cardBulkLock,
  cardSuspend,
  cardUnsuspend,
  cardTerminate,
  cardReissue,
  cardSetPrimary,
  cardFavorite,
  cardUnfavorite,
  cardRequestCreate,
  cardRequestPhysical,
  cardRequestCancel,
  billCreate,
  billUpdate,
  billDelete,
  billPayNow,
  provisionalBillCreate,
  provisionalBillUpdate,
  provisionalBillDelete,
  savedReportSave,
  savedReportDelete,
  dashboardSave,
  dashboardDelete,
  transactionFraudResponse,
  tripCreate,
  tripUpdate,
  tripDelete,
  tripLinkSpend,
  tripUnlinkSpend,
  spendRequestCreate,
  spendRequestUpdate,
  spendRequestCancel,
  spendRequestDelete,
  itemReceiptCreate,
  transferCreate,
  transferCancel,
  transactionSplitAttendees,
  transactionClearAttendeeSplit,
  transactionCopyReceipts,
] as const;

type Definitions = (typeof DEFINITIONS)[number];
/** Derived from the definitions: a name no command has does not compile. */
export type CommandName = Definitions['name'];
export type CommandOf<N extends CommandName> = Extract<Definitions, { name: N }>;

export const COMMANDS = Object.fromEntries(DEFINITIONS.map((d) => [d.name, d])) as unknown as {
  readonly [N in CommandName]: CommandOf<N>;
};
export const COMMAND_NAMES = DEFINITIONS.map((d) => d.name) as readonly CommandName[];

/** What `DataApi.run(name, input)` accepts: the split's input when the command splits, else its args. */
export type CommandInput<N extends CommandName> =
  CommandOf<N> extends { split?: CommandSplit<infer I> } ? z.input<I> : z.input<CommandOf<N>['args']>;

/** A command's definition by name, widened; throws on a name no command has (a stored entry from a newer build). */
export function commandDef(name: string): AnyCommandDef {
  const def = (COMMANDS as Record<string, AnyCommandDef | undefined>)[name];
  if (!def) throw new Error(`unknown command ${name}`);
  return def;
}

export { transactionCode, transactionBulkCode };
