import type { SyncObjectType, SyncStatementAccount } from '../../../schema/api/calls-accounting.ts';

/**
 * One item of a sync commit as every file writer takes it: plain data, names resolved, amounts in
 * integer minor units of `currency`. `amount` is spend as a positive number (a refund negative);
 * `lines` carry the coding and always sum to `amount` (a card transaction or a claim has one line,
 * a bill one per invoice line, credit lines negative).
 */
export type ExportLine = {
  amount: number;
  account_code: string;
  account_name: string;
  department: string | null;
  location: string | null;
  /** "Category: Option" pairs joined with "; ", or null. */
  tracking: string | null;
  description: string | null;
};

export type ExportItem = {
  type: SyncObjectType;
  id: string;
  /** YYYY-MM-DD: the charge (UTC day), the claim date, the invoice date. */
  date: string;
  /** Merchant, vendor or claimant. */
  payee: string;
  memo: string | null;
  /** Invoice number for bills; null otherwise. */
  reference: string | null;
  currency: string;
  amount: number;
  lines: ExportLine[];
  /**
   * YYYY-MM-DD (UTC) on which the money moved, or null while it has not: a cleared card charge's
   * day; the day a bill's payment SETTLED; the day a paid claim's payment settled. Only items
   * with a day belong on a bank statement (Xero); the ledgers (CSV, IIF) book approved items too.
   */
  paid_on: string | null;
};

/** The account money left, as a bank statement sees it: the corporate card, or the bank account bills and claims are paid from. */
export const statementAccountOf = (item: Pick<ExportItem, 'type'>): SyncStatementAccount => (item.type === 'transaction' ? 'card' : 'bank');

/** What a line's total must be: writers check it instead of trusting the query. */
export function checkBalanced(item: ExportItem): void {
  const sum = item.lines.reduce((s, l) => s + l.amount, 0);
  if (item.lines.length === 0 || sum !== item.amount) {
    throw new Error(`export item ${item.type} ${item.id}: lines sum to ${sum}, not ${item.amount}`);
  }
}

/** Text safe inside one delimited field: no tabs, line breaks or control characters, trimmed. */
export const oneLine = (text: string | null | undefined): string =>
  (text ?? '').replace(/[\t\r\n\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').replace(/ {2,}/g, ' ').trim();

/** YYYY-MM-DD → its parts (validated: the writers never emit a malformed date). */
export function dateParts(iso: string): { y: string; m: string; d: string } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) throw new Error(`not an ISO date: ${iso}`);
  return { y: m[1]!, m: m[2]!, d: m[3]! };
}
