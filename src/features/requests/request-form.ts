import { z } from 'zod';
import { spendRequestCreateSchema, type SpendRequestCreate } from '../../../schema/api/calls-procurement.ts';
import type { LimitInterval } from '../../../schema/entities/card.ts';
import type { SpendAllocation } from '../../../schema/entities/spend-allocation.ts';
import type { SpendRequestType } from '../../../schema/entities/spend-request.ts';
import type { UserRow } from '../../../schema/entities/spend-user.ts';
import { fullName } from '../../../schema/entities/spend-user.ts';
import { validationMessages } from '../../../schema/errors.ts';
import { toMinorUnits } from '../../../schema/money.ts';
import { linesTotal, spendRequestErrors } from '../../../schema/procurement-rules.ts';
import { canRequestSpendForOthers, canSeeAllTransactions, isBookkeeper, isManager, type Actor } from '../../../schema/roles.ts';
import { budgetOpen } from '../../lib/spend-request-labels.ts';
import { teamOf } from '../../lib/reporting-team.ts';

/**
 * The New request form (issue 28): its values as typed, and their way to `spendRequest.create`'s
 * input. The input is parsed with the call's own body schema (what the form accepts the server
 * accepts) and checked with `spendRequestErrors` (schema/procurement-rules.ts), so the rules'
 * words show under the fields before anything is sent. Pure; tested.
 */

export interface LineValues {
  /** A stable React key (never sent). */
  key: string;
  description: string;
  quantity: string;
  unit_price: string;
}

export interface RequestValues {
  type: SpendRequestType;
  /** The amount as typed (GENERAL_EXPENSE, PHYSICAL_CARD); a purchase's amount is its lines' total. */
  amount: string;
  currency: string;
  interval: LimitInterval;
  description: string;
  vendor_id: string;
  lines: LineValues[];
  /** YYYY-MM-DD or empty. */
  needed_by: string;
  /** Empty: the viewer themselves. */
  for_user_id: string;
  /** Empty: a new card (GENERAL_EXPENSE only). */
  spend_allocation_id: string;
}

/** A field's error; a line's errors are keyed `lines.<index>.<field>`. */
export type RequestErrors = Partial<Record<keyof RequestValues | 'line_items', string>> & Record<string, string | undefined>;

export const emptyLine = (key: string): LineValues => ({ key, description: '', quantity: '1', unit_price: '' });

export function emptyRequestValues(currency: string, init: Partial<RequestValues> = {}): RequestValues {
  return {
    type: 'GENERAL_EXPENSE', amount: '', currency, interval: 'TOTAL', description: '', vendor_id: '', lines: [], needed_by: '',
    for_user_id: '', spend_allocation_id: '', ...init,
  };
}

/** Typed money → minor units; what is not money is passed on as typed so the schema's words say why. */
function minor(text: string, currency: string): number | string | undefined {
  const t = text.trim().replace(/^[$€£¥]/, '').replaceAll(',', '');
  if (t === '') return undefined;
  return toMinorUnits(t, currency) ?? t;
}

function quantity(text: string): number | string {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : t;
}

/** The lines as numbers (what does not read as a number counts as 0 for the live total). */
export function lineNumbers(lines: readonly LineValues[], currency: string) {
  return lines.map((l) => {
    const q = quantity(l.quantity);
    const p = minor(l.unit_price, currency);
    return { quantity: typeof q === 'number' ? q : 0, unit_price: typeof p === 'number' ? p : 0 };
  });
}

/** The live total of a purchase's lines (quantity × unit price), minor units. */
export const valuesTotal = (v: Pick<RequestValues, 'lines' | 'currency'>) => linesTotal(lineNumbers(v.lines, v.currency));

const createInputSchema = spendRequestCreateSchema.extend({ id: z.uuid() });
export type RequestInput = SpendRequestCreate & { id: string };

/** The body schema's paths in the form's fields. */
function fieldOf(path: string): string {
  const line = /^line_items\.(\d+)\.(\w+)$/.exec(path);
  if (line) return `lines.${line[1]}.${line[2]}`;
  if (path.startsWith('amount')) return 'amount';
  return path;
}

const LABELS: [string, string][] = [
  ['amount.amount', 'Amount'], ['amount.currency', 'Currency'], ['description', 'Description'], ['needed_by', 'Needed by'],
  ['unit_price', 'Unit price'], ['quantity', 'Quantity'],
];

function worded(message: string): string {
  let text = message;
  for (const [api, label] of LABELS) text = text.replaceAll(api, label.toLowerCase());
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The form's values as the call's body (before parsing): numbers where the text reads as one. */
function bodyOf(v: RequestValues, id: string, submit: boolean): Record<string, unknown> {
  const purchase = v.type === 'PRODUCT_OR_SERVICE';
  const lines = purchase
    ? v.lines.map((l) => ({ description: l.description.trim(), quantity: quantity(l.quantity), unit_price: minor(l.unit_price, v.currency) ?? '' }))
    : [];
  const amount = purchase ? valuesTotal(v) : minor(v.amount, v.currency);
  return {
    id, type: v.type, amount: { amount, currency: v.currency }, description: v.description.trim(),
    ...(purchase ? { vendor_id: v.vendor_id || null, line_items: lines } : {}),
    needed_by: v.needed_by || null,
    ...(v.for_user_id ? { for_user_id: v.for_user_id } : {}),
    ...(purchase ? {} : { interval: v.interval }),
    ...(v.type === 'GENERAL_EXPENSE' ? { spend_allocation_id: v.spend_allocation_id || null } : {}),
    submit,
  };
}

/**
 * Every error the form has now, by field, in words: the body schema's and the procurement rules'
 * (a purchase's vendor and lines, the date needed by not in the past: `today`, YYYY-MM-DD).
 */
export function requestErrors(v: RequestValues, today: string): RequestErrors {
  const body = bodyOf(v, '00000000-0000-4000-8000-000000000000', true);
  const errors: RequestErrors = {};
  const parsed = createInputSchema.safeParse(body);
  if (!parsed.success) {
    for (const [path, message] of Object.entries(validationMessages(parsed.error, body))) errors[fieldOf(path)] ??= worded(message);
  }
  const purchase = v.type === 'PRODUCT_OR_SERVICE';
  const amount = purchase ? valuesTotal(v) : typeof body.amount === 'object' && body.amount ? (body.amount as { amount: unknown }).amount : 0;
  const rules = spendRequestErrors({
    type: v.type,
    amount: { amount: typeof amount === 'number' ? amount : 0, currency: v.currency },
    vendor_id: purchase ? v.vendor_id || null : null,
    line_items: purchase ? lineNumbers(v.lines, v.currency).map((l, i) => ({ ...l, id: String(i), description: v.lines[i]!.description })) : [],
    spend_allocation_id: v.type === 'GENERAL_EXPENSE' ? v.spend_allocation_id || null : null,
    needed_by: v.needed_by || null,
  }, today);
  // The amount of a purchase is its lines' total: a mismatch cannot happen here, an empty one is said on the lines.
  for (const [field, message] of Object.entries(rules)) if (!(purchase && field === 'amount')) errors[field === 'line_items' ? 'line_items' : field] ??= message;
  if (purchase && errors.amount && v.lines.length > 0) {
    errors.line_items ??= errors.amount;
    delete errors.amount;
  } else if (purchase && errors.amount) delete errors.amount;
  return errors;
}

/** The form → `spendRequest.create`'s input (`submit` false keeps a draft), or every field's error at once. */
export function requestCommand(v: RequestValues, id: string, submit: boolean, today: string): { ok: true; input: RequestInput } | { ok: false; errors: RequestErrors } {
  const errors = requestErrors(v, today);
  if (Object.values(errors).some(Boolean)) return { ok: false, errors };
  return { ok: true, input: createInputSchema.parse(bodyOf(v, id, submit)) as RequestInput };
}

// --- Who and which budget -------------------------------------------------------------------------

type Person = Pick<UserRow, 'id' | 'first_name' | 'last_name' | 'manager_id' | 'status'>;

/**
 * Whom the viewer may ask for besides themselves (§6): a bookkeeper anyone active, a manager
 * their reporting team; anyone else nobody (the field is not shown).
 */
export function requestForOptions(viewer: Actor, users: readonly Person[]): { value: string; label: string }[] {
  if (!canRequestSpendForOthers(viewer)) return [];
  const team = isBookkeeper(viewer) ? null : new Set(teamOf(viewer.id, users));
  return users
    .filter((u) => u.id !== viewer.id && u.status !== 'SUSPENDED' && (team === null || team.has(u.id)))
    .map((u) => ({ value: u.id, label: fullName(u) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** The people whose requests the viewer's Team tab lists: everyone for business-wide roles, a manager's reports. */
export function teamIds(viewer: Actor, users: readonly Pick<UserRow, 'id' | 'manager_id'>[]): string[] {
  if (canSeeAllTransactions(viewer)) return users.map((u) => u.id);
  return isManager(viewer) ? teamOf(viewer.id, users) : [viewer.id];
}

/** Whether the viewer has a Team tab (managers, bookkeepers, admins and the other business-wide roles). */
export const hasTeamTab = (viewer: Actor) => isManager(viewer) || canSeeAllTransactions(viewer);

/** The budgets a GENERAL_EXPENSE request may add room to: open ones the person it is for owns or is a member of. */
export function budgetChoices(allocations: readonly SpendAllocation[], userId: string, today: string): SpendAllocation[] {
  return allocations
    .filter((a) => budgetOpen(a, today) && (a.owner_id === userId || a.member_ids.includes(userId)))
    .sort((a, b) => a.name.localeCompare(b.name));
}
