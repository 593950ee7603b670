import Papa from 'papaparse';
import {
  XERO_MAX_LINES, type AccountingProvider, type SyncStatementAccount, type XeroDateFormat,
} from '../../../schema/api/calls-accounting.ts';
import { exportCell } from '../../../schema/exports.ts';
import { minorToDecimal } from '../../../schema/money.ts';
import { checkBalanced, dateParts, oneLine, statementAccountOf, type ExportItem } from './export-item.ts';

/**
 * The export files of a sync commit, pure: items in, file texts out. Formats:
 * - generic CSV: one row per coded line, every field named; amounts as decimals of the item's
 *   currency (its ISO 4217 exponent), spend positive.
 * - QuickBooks Desktop IIF, **one file per currency** (issue 25: QuickBooks books an IIF amount in
 *   its account's currency, so a GBP charge written to a dollar account becomes dollars), named
 *   with the ISO code (`…-GBP.iif`): tab-separated; the `!TRNS`/`!SPL`/`!ENDTRNS` header rows, then per
 *   item a TRNS line (the balance-sheet side), one SPL line per coded line (the expense side) and
 *   ENDTRNS. Amounts are computed in integer minor units, so each block sums to exactly zero.
 *   Dates MM/DD/YYYY; downloaded in Windows-1252, the code page QuickBooks Desktop reads. A card transaction is a CREDIT CARD charge (CCARD REFUND when negative)
 *   against the card liability account; a bill is a BILL against accounts payable with the vendor
 *   as NAME; a claim is a GENERAL JOURNAL entry against the reimbursements-payable account. In
 *   QuickBooks multicurrency a balance-sheet account has one currency, so outside the business's
 *   home currency each of those accounts is the configured name plus the code ("Corporate Card
 *   GBP"); the home currency's keep their names (`iifAccountName`).
 * - Xero bank-statement CSV: `Date,Amount,Payee,Description,Reference`, dates in the preference's
 *   format (DD/MM/YYYY unless the organisation reads MM/DD/YYYY or ISO), spend
 *   negative, one statement line per item, at most XERO_MAX_LINES lines per file. A statement is
 *   what one account paid in one currency (issue 25): card charges are the corporate card's
 *   statement, settled bill payments and paid claims the bank account's; the line's date is the
 *   day the money moved (`paid_on`), and an item whose money has not moved is refused.
 */

export type ExportFile = {
  name: string;
  content_type: string;
  content: string;
  /** The one currency the file books; null for the generic CSV (several, in a column). */
  currency: string | null;
  statement_account: SyncStatementAccount | null;
};
export type IifAccounts = { iif_card_account: string; iif_ap_account: string; iif_reimbursement_account: string };

const CSV_TYPE = 'text/csv; charset=utf-8';
/** QuickBooks Desktop reads IIF in the Windows code page: the download is encoded so (server/core/windows-1252.ts). */
const IIF_TYPE = 'text/plain; charset=windows-1252';
/**
 * CSV text: every cell through `exportCell` (schema/exports.ts) by its column's kind, so text a
 * spreadsheet would run as a formula gets a leading apostrophe while amounts ("-12.30") stay
 * numbers, which Xero must read as such. Papaparse only quotes.
 */
const unparse = (fields: readonly string[], numbers: ReadonlySet<string>, data: string[][]) =>
  Papa.unparse({ fields: [...fields], data: data.map((row) => row.map((v, i) => exportCell(v, numbers.has(fields[i]!) ? 'number' : 'text'))) }, { newline: '\r\n' });

const TYPE_LABEL = { transaction: 'Card transaction', bill: 'Bill', reimbursement: 'Reimbursement' } as const;

export const CSV_COLUMNS = [
  'Type', 'Date', 'Payee', 'Memo', 'Reference', 'Currency', 'Amount', 'Line amount', 'GL account code', 'GL account',
  'Department', 'Location', 'Tracking', 'Line description', 'Ledgerline ID',
] as const;
const CSV_NUMBER_COLUMNS: ReadonlySet<string> = new Set(['Amount', 'Line amount']);

export function writeGenericCsv(items: readonly ExportItem[]): string {
  const rows = items.flatMap((item) => {
    checkBalanced(item);
    return item.lines.map((line) => [
      TYPE_LABEL[item.type], item.date, oneLine(item.payee), oneLine(item.memo), oneLine(item.reference), item.currency,
      minorToDecimal(item.amount, item.currency), minorToDecimal(line.amount, item.currency), line.account_code,
      oneLine(line.account_name), oneLine(line.department), oneLine(line.location), oneLine(line.tracking),
      oneLine(line.description), item.id,
    ]);
  });
  return unparse(CSV_COLUMNS, CSV_NUMBER_COLUMNS, rows);
}

export const IIF_HEADER = [
  ['!TRNS', 'TRNSTYPE', 'DATE', 'ACCNT', 'NAME', 'AMOUNT', 'DOCNUM', 'MEMO'],
  ['!SPL', 'TRNSTYPE', 'DATE', 'ACCNT', 'NAME', 'AMOUNT', 'DOCNUM', 'MEMO'],
  ['!ENDTRNS'],
] as const;

/** IIF fields: one line, no tabs, and no double quotes (QuickBooks reads them as delimiters). */
const iifField = (text: string | null | undefined) => oneLine(text).replace(/"/g, "'");
/** The AMOUNT column of a TRNS/SPL row (IIF_HEADER): a number; every other field is text. */
const IIF_AMOUNT = IIF_HEADER[0].indexOf('AMOUNT');
/** A TRNS/SPL row as written: the keyword, then each field an `exportCell` (QuickBooks rows open in spreadsheets too). */
const iifRow = (cells: string[]) => cells.map((v, i) => (i === 0 ? v : exportCell(v, i === IIF_AMOUNT ? 'number' : 'text')));

/**
 * A balance-sheet account of the IIF file of `currency`: the configured name in the business's
 * home currency, the name and the ISO code in any other ("Corporate Card GBP").
 */
export const iifAccountName = (name: string, currency: string, homeCurrency: string): string =>
  currency === homeCurrency ? name : `${name} ${currency}`;

/** One currency's IIF text; every item must be in `currency` (a file never mixes them). */
export function writeIif(items: readonly ExportItem[], accounts: IifAccounts, currency: string, homeCurrency: string): string {
  const out: string[][] = IIF_HEADER.map((r) => [...r]);
  const account = (name: string) => iifField(iifAccountName(name, currency, homeCurrency));
  for (const item of items) {
    checkBalanced(item);
    if (item.currency !== currency) throw new Error(`export item ${item.type} ${item.id}: ${item.currency} in the ${currency} IIF file`);
    const { y, m, d } = dateParts(item.date);
    const date = `${m}/${d}/${y}`;
    const kind = item.type === 'transaction'
      ? { type: item.amount < 0 ? 'CCARD REFUND' : 'CREDIT CARD', account: accounts.iif_card_account }
      : item.type === 'bill'
        ? { type: 'BILL', account: accounts.iif_ap_account }
        : { type: 'GENERAL JOURNAL', account: accounts.iif_reimbursement_account };
    const name = iifField(item.payee);
    const doc = iifField(item.reference);
    const memo = iifField(item.memo ?? item.payee);
    const money = (minor: number) => minorToDecimal(minor, item.currency);
    // The liability is credited what the lines debit: the block sums to zero in minor units.
    out.push(iifRow(['TRNS', kind.type, date, account(kind.account), name, money(-item.amount), doc, memo]));
    for (const line of item.lines) {
      out.push(iifRow(['SPL', kind.type, date, iifField(line.account_name), name, money(line.amount), doc, iifField(line.description ?? item.memo)]));
    }
    out.push(['ENDTRNS']);
  }
  return out.map((r) => r.join('\t')).join('\r\n') + '\r\n';
}

/** The items grouped by a key, groups in the order of the key's text (a file per group). */
function groupsOf<K>(items: readonly ExportItem[], keyOf: (item: ExportItem) => K, keyText: (k: K) => string): { key: K; items: ExportItem[] }[] {
  const groups = new Map<string, { key: K; items: ExportItem[] }>();
  for (const item of items) {
    const key = keyOf(item);
    const text = keyText(key);
    const group = groups.get(text) ?? { key, items: [] };
    group.items.push(item);
    groups.set(text, group);
  }
  return [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
}

/** One IIF text per currency, in code order. */
export function writeIifFiles(items: readonly ExportItem[], accounts: IifAccounts, homeCurrency: string): { currency: string; content: string }[] {
  return groupsOf(items, (i) => i.currency, (c) => c).map(({ key, items: list }) => ({ currency: key, content: writeIif(list, accounts, key, homeCurrency) }));
}

export const XERO_COLUMNS = ['Date', 'Amount', 'Payee', 'Description', 'Reference'] as const;
const XERO_NUMBER_COLUMNS: ReadonlySet<string> = new Set(['Amount']);

/** Dates as the organisation's Xero reads them. */
const XERO_DATE: Record<XeroDateFormat, (p: { y: string; m: string; d: string }) => string> = {
  'DD/MM/YYYY': ({ y, m, d }) => `${d}/${m}/${y}`,
  'MM/DD/YYYY': ({ y, m, d }) => `${m}/${d}/${y}`,
  'YYYY-MM-DD': ({ y, m, d }) => `${y}-${m}-${d}`,
};

/** A statement file's account as its name says it. */
const XERO_ACCOUNT_SLUG: Record<SyncStatementAccount, string> = { card: 'corporate-card', bank: 'bank-account' };

/**
 * Xero statement files, one per (account, currency) in that order, each split into parts of at
 * most `maxLines` lines. Every item must have moved money (`paid_on`): the commit takes no other
 * for Xero, and a writer that met one would book money that never left.
 */
export function writeXeroCsv(
  items: readonly ExportItem[], maxLines = XERO_MAX_LINES, dateFormat: XeroDateFormat = 'DD/MM/YYYY',
): { account: SyncStatementAccount; currency: string; part: number; content: string }[] {
  const writeDate = XERO_DATE[dateFormat];
  for (const item of items) {
    checkBalanced(item);
    if (item.paid_on === null) throw new Error(`export item ${item.type} ${item.id}: no money has moved, so it is on no bank statement`);
  }
  const groups = groupsOf(items, (i) => ({ account: statementAccountOf(i), currency: i.currency }), (k) => `${k.account}|${k.currency}`);
  const files: { account: SyncStatementAccount; currency: string; part: number; content: string }[] = [];
  for (const { key: { account, currency }, items: list } of groups) {
    for (let start = 0, part = 1; start < list.length; start += maxLines, part++) {
      const rows = list.slice(start, start + maxLines).map((item) => {
        const description = [item.memo, ...item.lines.map((l) => `${l.account_code} ${l.account_name}`)].filter(Boolean).join(' · ');
        return [writeDate(dateParts(item.paid_on!)), minorToDecimal(-item.amount, currency), oneLine(item.payee), oneLine(description), oneLine(item.reference ?? item.id)];
      });
      files.push({ account, currency, part, content: unparse(XERO_COLUMNS, XERO_NUMBER_COLUMNS, rows) });
    }
  }
  return files;
}

export type ExportSettings = IifAccounts & { xero_date_format?: XeroDateFormat; home_currency: string };

/**
 * The files a provider's commit produces; `stamp` (e.g. 20261127-0412) names them:
 * `ledgerline-export-<stamp>.csv`, `ledgerline-quickbooks-<stamp>-<CUR>.iif`,
 * `ledgerline-xero-<stamp>-<corporate-card|bank-account>-<CUR>_part-<n>.csv`.
 */
export function exportFiles(provider: AccountingProvider, items: readonly ExportItem[], settings: ExportSettings, stamp: string): ExportFile[] {
  switch (provider) {
    case 'csv':
      return [{ name: `ledgerline-export-${stamp}.csv`, content_type: CSV_TYPE, content: writeGenericCsv(items), currency: null, statement_account: null }];
    case 'quickbooks_desktop':
      return writeIifFiles(items, settings, settings.home_currency).map((f) => ({
        name: `ledgerline-quickbooks-${stamp}-${f.currency}.iif`, content_type: IIF_TYPE, content: f.content, currency: f.currency, statement_account: null,
      }));
    case 'xero_csv':
      return writeXeroCsv(items, XERO_MAX_LINES, settings.xero_date_format).map((f) => ({
        name: `ledgerline-xero-${stamp}-${XERO_ACCOUNT_SLUG[f.account]}-${f.currency}_part-${f.part}.csv`,
        content_type: CSV_TYPE, content: f.content, currency: f.currency, statement_account: f.account,
      }));
  }
}
