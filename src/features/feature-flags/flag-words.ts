import {
  ACCESS_FLAGS, BULK_BILL_CREATION_LIMIT_RANGE, FEATURE_FLAG_DEFAULTS, FEATURE_FLAG_NAMES,
  type FeatureFlagName, type FeatureFlagOverrides, type FeatureFlags,
} from '../../../schema/feature-flags.ts';
import { formatCount } from '../../lib/format.ts';

/**
 * Settings → Feature flags (issue 32): every business-level flag of the registry
 * (schema/feature-flags.ts) in words, grouped, and what a change does for whom. Pure: the page
 * renders these, the unit test reads them.
 */

export type FlagGroupKey = 'access' | 'bills' | 'requests' | 'banking' | 'other';
export interface FlagWords {
  group: FlagGroupKey;
  /** The flag's name in words. */
  title: string;
  /** What it does, one or two sentences. */
  description: string;
  /** What turning it on (true) or off (false) changes, and for whom; the confirmation says it. */
  change?: (on: boolean) => string;
}

export const FLAG_GROUPS: readonly { key: FlagGroupKey; title: string; description: string }[] = [
  { key: 'access', title: 'Access and roles', description: 'Who can be given which role, and who can invite people. Changes apply to the next invite or role change; no one loses a role they hold.' },
  { key: 'bills', title: 'Bill pay', description: 'Limits on what one action can do to many bills.' },
  { key: 'requests', title: 'Spend requests', description: 'Which kinds of request people can submit.' },
  { key: 'banking', title: 'Banking', description: 'How bank statements are read.' },
  { key: 'other', title: 'Other flags', description: 'Kept for your business and switched on by default. No Ledgerline screen reads them yet, so changing them has no visible effect today.' },
];

const kept = (what: string) => (on: boolean) => on ? `People can submit ${what} requests again.` : `No one can submit new ${what} requests; requests already submitted go on as they are.`;

export const FLAG_WORDS: Readonly<Record<FeatureFlagName, FlagWords>> = {
  auditor_role: {
    group: 'access',
    title: 'Auditor role',
    description: 'Lets owners and admins invite people as Auditors or make someone an Auditor: read-only access to the whole business’s spend.',
    change: (on) => on
      ? 'Owners and admins can invite people as Auditors and change someone’s role to Auditor.'
      : 'No one can be invited as an Auditor or given the role. People who are Auditors now keep the role.',
  },
  it_admin_can_be_assistant: {
    group: 'access',
    title: 'IT admins as approval delegates',
    description: 'Lets people name an IT admin (who holds the Copilot permission) to decide their approvals while they are away.',
    change: (on) => on
      ? 'Anyone can name an IT admin with the Copilot permission as their approval delegate.'
      : 'No one can name an IT admin as a new approval delegate. Delegations already set keep running until they end.',
  },
  disable_invites_by_managers: {
    group: 'access',
    title: 'Turn off invites by managers',
    description: 'When on, only owners and admins can invite people or resend invites; managers can no longer invite their own employees.',
    change: (on) => on
      ? 'Managers can no longer invite people or resend invites; owners and admins still can. Pending invites stay valid.'
      : 'Managers can invite employees who report to them again, and resend those invites.',
  },
  bulk_bill_creation_limit: {
    group: 'bills',
    title: 'Bills per bulk action',
    description: `The most bills one bulk action (pay, schedule, cancel, change dates or coding…) can take at once, from ${BULK_BILL_CREATION_LIMIT_RANGE.min} to ${BULK_BILL_CREATION_LIMIT_RANGE.max}.`,
  },
  general_expenses_spend_requests_enabled: {
    group: 'requests', title: 'General expense requests',
    description: 'People can ask for money to spend on a general expense, for approval before they spend it.',
    change: kept('general expense'),
  },
  product_or_service_spend_requests_enabled: {
    group: 'requests', title: 'Product or service requests',
    description: 'People can request a product or service from a vendor, with line items, for approval and a purchase order.',
    change: kept('product or service'),
  },
  physical_card_spend_requests_enabled: {
    group: 'requests', title: 'Physical card requests',
    description: 'People can ask for a physical card, for approval before it is issued.',
    change: kept('physical card'),
  },
  bank_account_statement_ocr: {
    group: 'banking', title: 'Read statements on this device',
    description: 'A bank statement added as a PDF or photo is read on the device (its lines filled in for checking); when off, lines are typed or pasted.',
    change: (on) => on ? 'New statements are read on the device before upload.' : 'Admins type or paste a new statement’s lines; nothing is read automatically.',
  },
  eligible_for_push_payments: { group: 'other', title: 'Push payments', description: 'Marks the business as eligible for instant push payments.' },
  reimbursement_out_of_pocket_submission_temporal: { group: 'other', title: 'Out-of-pocket submission workflow', description: 'The newer processing of out-of-pocket reimbursement submissions.' },
  security_login_history: { group: 'other', title: 'Login history', description: 'Keeps a history of sign-ins for security review.' },
  spend_export_use_olap: { group: 'other', title: 'Faster spend exports', description: 'Runs spend exports on the reporting store.' },
  reimbursement_form_rhf: { group: 'other', title: 'New reimbursement form', description: 'The newer reimbursement form.' },
  rename_transactions_card_transactions: { group: 'other', title: '“Card transactions” name', description: 'Calls the transactions list “Card transactions”.' },
};

export const flagsOfGroup = (group: FlagGroupKey): FeatureFlagName[] => FEATURE_FLAG_NAMES.filter((n) => FLAG_WORDS[n].group === group);

/** "On" / "Off" / "50 bills". */
export function valueText(name: FeatureFlagName, value: boolean | number): string {
  if (typeof value === 'number') return `${formatCount(value)} ${value === 1 ? 'bill' : 'bills'}`;
  return value ? 'On' : 'Off';
}

export type FlagChange = { name: FeatureFlagName; from: boolean | number; to: boolean | number };

/** What differs between the saved flags and the draft, in registry order. */
export function flagChanges(saved: FeatureFlags, draft: FeatureFlags): FlagChange[] {
  return FEATURE_FLAG_NAMES.filter((n) => saved[n] !== draft[n]).map((name) => ({ name, from: saved[name], to: draft[name] }));
}

/** One change in words: what it is, then what it does for whom. */
export function changeText({ name, from, to }: FlagChange): string {
  const words = FLAG_WORDS[name];
  if (name === 'bulk_bill_creation_limit') {
    return `${words.title}: ${formatCount(from as number)} → ${formatCount(to as number)}. Everyone who manages bills can act on at most ${valueText(name, to)} at a time, on the bills page and through the API; a larger selection is refused before anything changes.`;
  }
  const what = words.change?.(to as boolean) ?? 'No screen reads this flag yet: nothing visible changes.';
  return `${words.title}: ${valueText(name, from)} → ${valueText(name, to)}. ${what}`;
}

/** Whether the change touches who may do what, or a limit (the confirmation then says "Change access rules"). */
export const changesAccess = (changes: readonly FlagChange[]) =>
  changes.some((c) => ACCESS_FLAGS.includes(c.name) || c.name === 'bulk_bill_creation_limit');

/** The confirmation's title and button. */
export function confirmWords(changes: readonly FlagChange[]): { title: string; confirm: string } {
  const n = changes.length;
  const noun = `${formatCount(n)} ${n === 1 ? 'change' : 'changes'}`;
  return changesAccess(changes)
    ? { title: `Save ${noun} to access rules and limits?`, confirm: `Save ${noun}` }
    : { title: `Save ${noun}?`, confirm: `Save ${noun}` };
}

/** What PUT sends: every flag whose value differs from the registry's default (the rest follow the default). */
export function overridesOf(draft: FeatureFlags): FeatureFlagOverrides {
  return Object.fromEntries(FEATURE_FLAG_NAMES.filter((n) => draft[n] !== FEATURE_FLAG_DEFAULTS[n]).map((n) => [n, draft[n]])) as FeatureFlagOverrides;
}

/** The number field's check: a whole number within the registry's range; null when fine. */
export function limitError(text: string): string | null {
  const { min, max } = BULK_BILL_CREATION_LIMIT_RANGE;
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < min || n > max) return `Enter a whole number from ${min} to ${formatCount(max)}.`;
  return null;
}
