import {
  ACCOUNTING_PROVIDERS, accountingPreferencesPatchSchema, type AccountingPreferences, type AccountingProvider, type SyncCommit,
  type XeroDateFormat,
} from '../../../schema/api/calls-accounting.ts';
import {
  mappingRuleInputSchema, type MappingMatchField, type MappingRule,
} from '../../../schema/mapping-rules.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatCount } from '../../lib/format.ts';

/**
 * The Accounting page's pure parts (issue 12): providers and rules in words, the rule and
 * preferences forms mapped to the catalogue's bodies (validated by the catalogue's own schemas,
 * so the page refuses exactly what the server would), and the sync answers as sentences.
 */

export const PROVIDER_LABELS: Record<AccountingProvider, string> = {
  csv: 'CSV',
  quickbooks_desktop: 'QuickBooks Desktop (IIF)',
  xero_csv: 'Xero (bank statement CSV)',
};

/** What each provider's commit produces, said to the person choosing it. */
export const PROVIDER_DESCRIPTIONS: Record<AccountingProvider, string> = {
  csv: 'One generic CSV file per sync, with every item’s date, amount, payee and coding: for any system that imports spreadsheets.',
  quickbooks_desktop: 'IIF files for QuickBooks Desktop (File › Utilities › Import › IIF Files), one per currency: each item a balanced transaction against the accounts set below, which outside your home currency carry the currency code (“Corporate Card GBP”).',
  xero_csv: 'Xero bank-statement CSV files (Date, Amount, Payee, Description, Reference) for money that moved: cleared card charges on the corporate card’s statement, settled bill and claim payments on the bank account’s, one file per account and currency, at most 1,000 lines each.',
};

export const PROVIDER_OPTIONS = ACCOUNTING_PROVIDERS.map((p) => ({ value: p, label: PROVIDER_LABELS[p] }));

export const MATCH_FIELD_LABELS: Record<MappingMatchField, string> = {
  merchant_name: 'Merchant name',
  merchant_category: 'Merchant category',
  vendor: 'Vendor',
};
export const OPERATOR_LABELS = { equals: 'is', contains: 'contains' } as const;

/** What a rule's form holds: selects as strings ('' for none), the priority as typed. */
export interface RuleFormValues {
  match_field: MappingMatchField;
  match_operator: 'equals' | 'contains';
  match_value: string;
  gl_account_id: string;
  department_id: string;
  /** tracking category id → option id ('' or absent: none). */
  tracking: Record<string, string>;
  priority: string;
}

export type RuleFieldErrors = Partial<Record<'match_value' | 'gl_account_id' | 'priority', string>>;

export const emptyRuleForm = (): RuleFormValues => ({
  match_field: 'merchant_name', match_operator: 'contains', match_value: '', gl_account_id: '', department_id: '', tracking: {}, priority: '',
});

export const ruleFormOf = (rule: MappingRule): RuleFormValues => ({
  match_field: rule.match_field,
  match_operator: rule.match_operator,
  match_value: rule.match_value,
  gl_account_id: rule.gl_account_id ?? '',
  department_id: rule.department_id ?? '',
  tracking: { ...rule.tracking },
  priority: String(rule.priority),
});

/** The create/replace body, or the fields to fix. An empty priority on a create puts the rule last. */
export function ruleInput(values: RuleFormValues): { ok: true; body: ReturnType<typeof mappingRuleInputSchema.parse> } | { ok: false; errors: RuleFieldErrors } {
  const priorityText = values.priority.trim();
  const priority = priorityText === '' ? undefined : Number(priorityText);
  if (priority !== undefined && (!Number.isInteger(priority) || priority < 0 || priority > 1_000_000)) {
    return { ok: false, errors: { priority: 'Enter a whole number from 0 to 1,000,000 (lower runs first).' } };
  }
  const tracking = Object.fromEntries(Object.entries(values.tracking).filter(([, option]) => option !== ''));
  const parsed = mappingRuleInputSchema.safeParse({
    ...(priority !== undefined && { priority }),
    match_field: values.match_field,
    match_operator: values.match_field === 'vendor' ? 'equals' : values.match_operator,
    match_value: values.match_value,
    gl_account_id: values.gl_account_id || null,
    department_id: values.department_id || null,
    tracking,
  });
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: RuleFieldErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0];
    if (key === 'match_value' && !errors.match_value) {
      errors.match_value = values.match_field === 'vendor' ? 'Choose the vendor this rule matches.' : 'Enter the text to match (at most 200 characters).';
    } else if (key === 'gl_account_id' && !errors.gl_account_id) {
      errors.gl_account_id = 'Choose a GL account, a department or a tracking option for the rule to set.';
    }
  }
  if (Object.keys(errors).length === 0) errors.match_value = 'Check this rule.';
  return { ok: false, errors };
}

/** Names the summary needs (from the reference data). */
export interface RuleNames {
  glAccount(id: string | null): string;
  department(id: string | null): string;
  vendor(id: string): string;
  tracking(categoryId: string, optionId: string): { category: string; option: string };
}

/** "Merchant name contains “uber”": the rule's condition. */
export function ruleCondition(rule: Pick<MappingRule, 'match_field' | 'match_operator' | 'match_value'>, names: Pick<RuleNames, 'vendor'>): string {
  if (rule.match_field === 'vendor') return `Vendor is ${names.vendor(rule.match_value) || 'an unknown vendor'}`;
  return `${MATCH_FIELD_LABELS[rule.match_field]} ${OPERATOR_LABELS[rule.match_operator]} “${rule.match_value}”`;
}

/** "GL account 6100 Travel · Department Sales · Project: Apollo": what the rule sets. */
export function ruleCoding(rule: Pick<MappingRule, 'gl_account_id' | 'department_id' | 'tracking'>, names: RuleNames): string {
  const parts: string[] = [];
  if (rule.gl_account_id) parts.push(`GL account ${names.glAccount(rule.gl_account_id) || 'unknown'}`);
  if (rule.department_id) parts.push(`Department ${names.department(rule.department_id) || 'unknown'}`);
  for (const [category, option] of Object.entries(rule.tracking)) {
    const t = names.tracking(category, option);
    parts.push(`${t.category || 'Tracking'}: ${t.option || 'unknown'}`);
  }
  return parts.join(' · ');
}

/**
 * The preferences form: the three QuickBooks account names the IIF export credits. (The stored
 * `default_provider` follows the connection: the page always syncs to the connected provider.)
 */
export interface PreferencesFormValues {
  iif_card_account: string;
  iif_ap_account: string;
  iif_reimbursement_account: string;
}

const PREFERENCE_KEYS = ['iif_card_account', 'iif_ap_account', 'iif_reimbursement_account'] as const;
type PreferenceKey = (typeof PREFERENCE_KEYS)[number];

export type PreferencesFieldErrors = Partial<Record<keyof PreferencesFormValues, string>>;

export const preferencesFormOf = (p: AccountingPreferences): PreferencesFormValues => ({
  iif_card_account: p.iif_card_account,
  iif_ap_account: p.iif_ap_account,
  iif_reimbursement_account: p.iif_reimbursement_account,
});

/** Only what changed, as the PATCH body; `null` when nothing did. */
export function preferencesPatch(
  saved: AccountingPreferences,
  values: PreferencesFormValues,
): { ok: true; patch: Partial<Pick<AccountingPreferences, PreferenceKey>> | null } | { ok: false; errors: PreferencesFieldErrors } {
  const patch: Record<string, string> = {};
  const errors: PreferencesFieldErrors = {};
  for (const key of PREFERENCE_KEYS) {
    const text = values[key].trim();
    if (text === saved[key]) continue;
    patch[key] = text;
    const one = accountingPreferencesPatchSchema.safeParse({ [key]: text });
    if (!one.success) {
      errors[key] = text === '' ? 'Enter the account’s name as it is in QuickBooks.' : 'Use at most 159 characters, without tabs, quotes or colons.';
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, patch: Object.keys(patch).length > 0 ? patch : null };
}

/** The Xero date formats as the page offers them, each with a date to recognise it by. */
export const XERO_DATE_OPTIONS: readonly { value: XeroDateFormat; label: string }[] = [
  { value: 'DD/MM/YYYY', label: 'Day first — 27/11/2026 (UK, Australia, New Zealand)' },
  { value: 'MM/DD/YYYY', label: 'Month first — 11/27/2026 (United States)' },
  { value: 'YYYY-MM-DD', label: 'ISO — 2026-11-27 (any region)' },
];

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** "Synced 12 items into 1 file." */
export const syncAnswerText = (commit: Pick<SyncCommit, 'item_count' | 'files'>): string =>
  `Synced ${plural(commit.item_count, 'item', 'items')} into ${plural(commit.files.length, 'file', 'files')}.`;

/** A sync's refusal as the page says it: nothing to sync and a sync running are expected, not failures. */
export function syncRefusal(error: { error_code: string; message: string }): { tone: 'info' | 'error'; text: string } {
  if (error.error_code === 'ACCOUNTING_7303') {
    return { tone: 'info', text: 'Nothing to sync: every coded, approved item has already been exported. New items appear here once they are coded and approved.' };
  }
  if (error.error_code === 'ACCOUNTING_7302') {
    return { tone: 'info', text: 'Another sync is running for this business right now. Nothing was done: try again in a moment, once it has finished.' };
  }
  return { tone: 'error', text: errorText(error) };
}

/** "Rules coded 4 transactions." after "Apply rules to uncoded transactions". */
export const applyResultText = (updated: number): string =>
  updated === 0
    ? 'No uncoded transaction matched a rule: nothing was changed.'
    : `Rules coded ${plural(updated, 'uncoded transaction', 'uncoded transactions')}.`;

/** "12.3 KB": a file's size on its download button. */
/** What a sync file books, beside its name: "GBP · Corporate card statement"; null when it says nothing more (the generic CSV). */
export function syncFileLabel(file: Pick<SyncCommit['files'][number], 'currency' | 'statement_account'>): string | null {
  const account = file.statement_account === 'card' ? 'Corporate card statement' : file.statement_account === 'bank' ? 'Bank account statement' : null;
  const parts = [file.currency, account].filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(' · ') : null;
}

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${formatCount(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The manual match form: a card transaction and either the bill it paid or a bank line id. */
export interface ManualMatchFormValues {
  transaction_id: string;
  kind: 'bill' | 'bank_line';
  target: string;
}
export type ManualMatchErrors = Partial<Record<'transaction_id' | 'target', string>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The manual-match body, or the fields to fix (ids pasted with spaces around them are trimmed). */
export function manualMatchInput(
  values: ManualMatchFormValues,
): { ok: true; body: { transaction_id: string; bill_id: string } | { transaction_id: string; bank_line_id: string } } | { ok: false; errors: ManualMatchErrors } {
  const errors: ManualMatchErrors = {};
  const transaction = values.transaction_id.trim();
  const target = values.target.trim();
  if (!UUID.test(transaction)) errors.transaction_id = 'Paste the transaction’s id (36 characters, like 3f2a…-…).';
  if (values.kind === 'bill' && !UUID.test(target)) errors.target = 'Paste the bill’s id (36 characters).';
  if (values.kind === 'bank_line' && (target === '' || target.length > 200)) errors.target = 'Enter the bank line’s id (at most 200 characters).';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    body: values.kind === 'bill' ? { transaction_id: transaction.toLowerCase(), bill_id: target.toLowerCase() } : { transaction_id: transaction.toLowerCase(), bank_line_id: target },
  };
}
