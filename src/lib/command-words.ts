import type { CommandName } from '../../schema/commands/index.ts';

/**
 * What each command does, in the words the failed-changes list uses ("Approval of …"). Typed by
 * the command registry: a new command that has no words here does not compile.
 */
export const COMMAND_WORDS: Readonly<Record<CommandName, string>> = {
  'transaction.code': 'Coding of',
  'transaction.bulkCode': 'Coding of',
  'transaction.attachReceipt': 'Attaching a receipt to',
  'transaction.detachReceipt': 'Removing a receipt from',
  'receipt.upload': 'Upload of a receipt file',
  'receipt.discard': 'Removal of a receipt file',
  'reimbursement.create': 'New claim',
  'reimbursement.createMileage': 'New claim',
  'reimbursement.createPerDiem': 'New claim',
  'reimbursement.update': 'Edit of',
  'reimbursement.submit': 'Submission of',
  'reimbursement.saveDraft': 'Draft of',
  'reimbursement.resubmit': 'Resubmission of',
  'reimbursement.cancel': 'Cancelation of',
  'reimbursement.pay': 'Payment of',
  'reimbursement.cancelPayment': 'Payment cancelation of',
  'reimbursement.delete': 'Deletion of',
  'approval.approve': 'Approval of',
  'approval.reject': 'Rejection of',
  'card.issue': 'Issuing of',
  'card.update': 'Edit of',
  'card.activate': 'Activation of',
  'card.lock': 'Locking of',
  'card.unlock': 'Unlocking of',
  'card.bulkLock': 'Locking or unlocking of',
  'card.suspend': 'Suspension of',
  'card.unsuspend': 'Lifting the suspension of',
  'card.terminate': 'Termination of',
  'card.reissue': 'Reissue of',
  'card.setPrimary': 'Making primary',
  'card.favorite': 'Starring',
  'card.unfavorite': 'Unstarring',
  'cardRequest.create': 'Card request',
  'cardRequest.requestPhysical': 'Physical card request',
  'cardRequest.cancel': 'Withdrawal of',
  'bill.create': 'New bill',
  'bill.update': 'Edit of',
  'bill.delete': 'Deletion of',
  'bill.payNow': 'Payment of',
  'provisionalBill.create': 'Upload of',
  'provisionalBill.update': 'Edit of',
  'provisionalBill.delete': 'Removal of',
  'savedReport.save': 'Saving of',
  'savedReport.delete': 'Deletion of',
  'dashboard.save': 'Saving of',
  'dashboard.delete': 'Deletion of',
  'transaction.fraudResponse': 'Your answer about',
  'trip.create': 'New trip',
  'trip.update': 'Edit of',
  'trip.delete': 'Deletion of',
  'trip.linkSpend': 'Linking spend to',
  'trip.unlinkSpend': 'Unlinking spend from',
};

/** The words of a stored command name (a name from a newer build gets its raw name). */
export function commandWords(name: string): string {
  return (COMMAND_WORDS as Record<string, string | undefined>)[name] ?? name;
}
