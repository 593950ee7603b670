import type { FieldConflict } from '../../schema/commands/conflicts.ts';
import { formatDay, formatLocalDateTime, formatMoney } from './format.ts';
import type { ReferenceNames } from './reference-data.ts';

/**
 * Issue 24: what the conflict drawer shows for each field the server named in a 409 CONFLICT:
 * the field's name, "theirs" (who, when, the value) and "mine", each value written the way the
 * app shows that field elsewhere (GL account "6010 Meals", department and people by name, money
 * with its currency, dates as days), and one honest sentence saying what happened. Pure.
 */
export interface ConflictFieldView {
  field: string;
  label: string;
  theirs: string;
  mine: string;
  /** Who changed it on the server ("Someone" when the server does not say). */
  who: string;
  /** When, in the reader's local time. */
  when: string;
  sentence: string;
}

/** What the values are read against: reference names, the row's currency, names of vendors. */
export interface ConflictContext {
  names: ReferenceNames;
  /** The row's currency: amounts are minor units of it. */
  currency?: string;
  /** A vendor's name by id (bills), when known. */
  vendor?: (id: string) => string | undefined;
  /** A tracking category's name by id. */
  trackingCategory?: (id: string) => string | undefined;
}

const LABELS: Record<string, string> = {
  memo: 'Memo',
  gl_account_id: 'GL account',
  department_id: 'Department',
  location_id: 'Location',
  entity_id: 'Entity',
  user_id: 'Person',
  vendor_id: 'Vendor',
  amount: 'Amount',
  currency: 'Currency',
  merchant: 'Merchant',
  merchant_name: 'Merchant',
  transaction_date: 'Date',
  invoice_number: 'Invoice number',
  invoice_date: 'Invoice date',
  due_date: 'Due date',
  display_name: 'Card name',
  receipt_ids: 'Receipts',
  line_items: 'Line items',
};

/** The field's name as the app's forms write it. */
export function fieldLabel(field: string, ctx?: Pick<ConflictContext, 'trackingCategory'>): string {
  const [key, sub] = splitField(field);
  if (key === 'tracking' && sub) return ctx?.trackingCategory?.(sub) || 'Tracking';
  const known = LABELS[key];
  if (known) return known;
  const words = key.replace(/_id$/, '').replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const splitField = (field: string): [string, string | undefined] => {
  const dot = field.indexOf('.');
  return dot < 0 ? [field, undefined] : [field.slice(0, dot), field.slice(dot + 1)];
};

const EMPTY = 'Empty';
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T/;

/** A value of the field as the app shows it ("Empty" for none, names for ids, money, days). */
export function formatFieldValue(field: string, value: unknown, ctx: ConflictContext): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  const [key, sub] = splitField(field);
  const { names } = ctx;
  if (typeof value === 'string') {
    if (key === 'tracking' && sub) return names.trackingOption(sub, value) || 'An option not on this device';
    if (key === 'gl_account_id') return names.glAccount(value) || 'A GL account not on this device';
    if (key === 'department_id') return names.department(value) || 'A department not on this device';
    if (key === 'location_id') return names.location(value) || 'A location not on this device';
    if (key === 'entity_id') return names.entity(value) || 'An entity not on this device';
    if (key === 'vendor_id') return ctx.vendor?.(value) || 'A vendor not on this device';
    if (key.endsWith('user_id') || key === 'owner_id') return names.user(value) || 'Someone not on this device';
    if (ISO_DAY.test(value)) return formatDay(`${value}T12:00:00Z`);
    if (ISO_TIME.test(value) && !Number.isNaN(Date.parse(value))) return formatLocalDateTime(value);
    return value;
  }
  if (typeof value === 'number') {
    if (ctx.currency && (key === 'amount' || key.endsWith('_amount') || key.includes('limit'))) return formatMoney(value, ctx.currency);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.length === 0 ? EMPTY : `${value.length} ${value.length === 1 ? 'item' : 'items'}`;
  if (typeof value === 'object' && key === 'tracking') {
    const parts = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => typeof v === 'string')
      .map(([cat, opt]) => `${ctx.trackingCategory?.(cat) || 'Tracking'}: ${names.trackingOption(cat, opt as string) || 'an option not on this device'}`);
    return parts.length ? parts.join(', ') : EMPTY;
  }
  return JSON.stringify(value);
}

/** "the memo", "the GL account"; a tracking category or another name keeps its own spelling. */
const fieldPhrase = (label: string): string =>
  Object.values(LABELS).includes(label) && !label.startsWith('GL') ? `the ${label.toLowerCase()}` : `the ${label}`;

/**
 * One sentence of what happened: who changed the field, when, and whether that was while this
 * device's change waited to be delivered (it was made before theirs) or before this device had
 * their change (made after theirs, on an older copy).
 */
export function conflictSentence(c: Pick<FieldConflict, 'changed_by' | 'changed_at'>, label: string, madeAt: number): string {
  const who = c.changed_by?.name || 'Someone';
  const at = Date.parse(c.changed_at);
  const when = Number.isNaN(at) ? '' : ` at ${formatLocalDateTime(at)}`;
  const what = fieldPhrase(label);
  if (Number.isNaN(at)) return `${who} changed ${what} after the version your change was made on.`;
  return at >= madeAt
    ? `${who} changed ${what}${when} while your change was waiting to sync.`
    : `${who} changed ${what}${when}, before this device had their change.`;
}

/**
 * A direct (online) edit the server refused with CONFLICT (vendors, people: no outbox entry, so
 * no drawer): who changed which field to what, then what the person can do. The form keeps what
 * they typed; saving again sends it on the version the conflict names (keep mine), closing keeps
 * theirs. Null when the error is not a field conflict.
 */
export function directConflictMessage(conflicts: readonly FieldConflict[] | undefined, ctx: ConflictContext): string | null {
  if (!conflicts?.length) return null;
  const said = conflicts.map((c) => {
    const label = fieldLabel(c.field, ctx);
    const at = Date.parse(c.changed_at);
    const when = Number.isNaN(at) ? '' : ` at ${formatLocalDateTime(at)}`;
    return `${c.changed_by?.name || 'Someone'} changed ${fieldPhrase(label)}${when} to “${formatFieldValue(c.field, c.server_value, ctx)}”.`;
  });
  return `${said.join(' ')} Nothing of yours was saved. Save again to keep your version, or cancel to keep theirs.`;
}

/** Names for values with no reference data at hand (a vendor's own fields): ids read as blank. */
export const NO_NAMES: ReferenceNames = {
  user: () => '', department: () => '', location: () => '', glAccount: () => '', trackingOption: () => '', entity: () => '',
};

/** Every conflicting field of an entry, ready to show. `madeAt`: when the conflicted change was made here (ms). */
export function conflictFieldViews(conflicts: readonly FieldConflict[], ctx: ConflictContext, madeAt: number): ConflictFieldView[] {
  return conflicts.map((c) => {
    const label = fieldLabel(c.field, ctx);
    const at = Date.parse(c.changed_at);
    return {
      field: c.field,
      label,
      theirs: formatFieldValue(c.field, c.server_value, ctx),
      mine: formatFieldValue(c.field, c.your_value, ctx),
      who: c.changed_by?.name || 'Someone',
      when: Number.isNaN(at) ? '' : formatLocalDateTime(at),
      sentence: conflictSentence(c, label, madeAt),
    };
  });
}
