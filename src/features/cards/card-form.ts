import type { z } from 'zod';
import { commandDef } from '../../../schema/commands/index.ts';
import type { CardPatch } from '../../../schema/api/calls-cards.ts';
import { checkIssue, type CardActor } from '../../../schema/card-rules.ts';
import type { Card, LimitInterval } from '../../../schema/entities/card.ts';
import { validationMessages } from '../../../schema/errors.ts';
import { currencyExponent, toMinorUnits } from '../../../schema/money.ts';

/**
 * The card forms' values (as typed) and their way to a command: the input is parsed with the
 * command's own args schema (the server's body schema), so what the form accepts the server
 * accepts; errors come back per field in the §5 words, named with the field's label. Pure; tested.
 */

export interface LimitValues {
  amount: string;
  currency: string;
  interval: LimitInterval;
  /** Optional per-purchase cap; empty for none. */
  per_transaction: string;
}

export interface IssueValues extends LimitValues {
  user_id: string;
  display_name: string;
  is_physical: boolean;
  /** Merchant categories, comma-separated; empty allows every category. */
  categories: string;
  department_id: string;
  location_id: string;
}

export interface RequestValues {
  is_physical: boolean;
  amount: string;
  currency: string;
  interval: LimitInterval;
  reason: string;
}

export type FieldErrors<V> = Partial<Record<keyof V, string>>;
export type Built<V, I> = { ok: true; input: I } | { ok: false; errors: FieldErrors<V> };

export const emptyIssueValues = (currency: string): IssueValues => ({
  user_id: '', display_name: '', is_physical: false, amount: '', currency, interval: 'MONTHLY', per_transaction: '',
  categories: '', department_id: '', location_id: '',
});

export const emptyRequestValues = (currency: string): RequestValues => ({ is_physical: false, amount: '', currency, interval: 'MONTHLY', reason: '' });

/** Minor units as an amount input shows them ("500000" USD → "5000.00"). */
export function amountText(minor: number, currency: string): string {
  const exp = currencyExponent(currency);
  return exp === 0 ? String(minor) : (minor / 10 ** exp).toFixed(exp);
}

export const limitValues = (card: Pick<Card, 'limit'>): LimitValues => ({
  amount: amountText(card.limit.amount, card.limit.currency),
  currency: card.limit.currency,
  interval: card.limit.interval,
  per_transaction: card.limit.per_transaction === null ? '' : amountText(card.limit.per_transaction, card.limit.currency),
});

/** Typed money → minor units; what is not money is passed on as typed so the schema's message says why. */
function minor(text: string, currency: string): number | string | undefined {
  const t = text.trim().replace(/^[$€£¥]/, '').replaceAll(',', '');
  if (t === '') return undefined;
  return toMinorUnits(t, currency) ?? t;
}

function limitOf(v: LimitValues) {
  return { amount: minor(v.amount, v.currency), currency: v.currency, interval: v.interval, per_transaction: minor(v.per_transaction, v.currency) ?? null };
}

const LABELS: Record<string, string> = {
  'limit.amount': 'Limit', 'limit.currency': 'Currency', 'limit.interval': 'Interval', 'limit.per_transaction': 'Per-purchase cap',
  amount: 'Amount', currency: 'Currency', interval: 'Interval', reason: 'Reason', user_id: 'Cardholder', display_name: 'Card name',
  allowed_categories: 'Merchant categories', department_id: 'Department', location_id: 'Location', per_transaction: 'Per-purchase cap',
};

/** Where an API path's error shows in the form. */
const FIELD_OF: Record<string, string> = {
  'limit.amount': 'amount', 'limit.currency': 'currency', 'limit.interval': 'interval', 'limit.per_transaction': 'per_transaction',
  'patch.limit.amount': 'amount', 'patch.limit.currency': 'currency', 'patch.limit.per_transaction': 'per_transaction',
};

/** API field errors → form field errors, worded with the fields' labels ("Limit must be…"). */
export function fieldErrors<V>(errors: Record<string, string>): FieldErrors<V> {
  const out: Record<string, string> = {};
  for (const [rawPath, message] of Object.entries(errors)) {
    const path = rawPath.replace(/^patch\./, '');
    const field = FIELD_OF[path] ?? (path.startsWith('allowed_categories') ? 'categories' : path);
    let text = message.replaceAll('patch.', '');
    for (const api of Object.keys(LABELS).sort((a, b) => b.length - a.length)) text = text.replaceAll(api, LABELS[api]!.toLowerCase());
    out[field] ??= text.charAt(0).toUpperCase() + text.slice(1);
  }
  return out as FieldErrors<V>;
}

function parse<V, I>(name: string, input: Record<string, unknown>): Built<V, I> {
  const parsed = commandDef(name).args.safeParse(input);
  if (!parsed.success) return { ok: false, errors: fieldErrors<V>(validationMessages(parsed.error as z.ZodError, input)) };
  return { ok: true, input: parsed.data as I };
}

export const splitCategories = (text: string): string[] => [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];

export type IssueInput = {
  id: string; user_id: string; display_name: string; is_physical: boolean;
  limit: { amount: number; currency: string; interval: LimitInterval; per_transaction: number | null };
  allowed_categories: string[]; department_id: string | null; location_id: string | null;
};

/** The issue form → `card.issue`'s input (a client id, so a resend is the same card), or why not, every field at once. */
export function issueCommand(v: IssueValues, id: string, actor: CardActor): Built<IssueValues, IssueInput> {
  const built = parse<IssueValues, IssueInput>('card.issue', {
    id, user_id: v.user_id || undefined, display_name: v.display_name.trim(), is_physical: v.is_physical, limit: limitOf(v),
    allowed_categories: splitCategories(v.categories), department_id: v.department_id || null, location_id: v.location_id || null,
  });
  const allowed = v.user_id ? checkIssue(actor, v.user_id) : ({ ok: false, message: 'Choose a cardholder' } as const);
  if (allowed.ok) return built;
  return { ok: false, errors: { ...(built.ok ? {} : built.errors), user_id: allowed.message } };
}

export type RequestInput = { id: string; is_physical?: boolean; amount: number; currency: string; interval: LimitInterval; reason: string };

/**
 * The request form → its command: a physical card goes through `request-physical`
 * (`cardRequest.requestPhysical`), a virtual one through `cardRequest.create`.
 */
export function requestCommand(
  v: RequestValues, id: string,
): { ok: true; name: 'cardRequest.create' | 'cardRequest.requestPhysical'; input: RequestInput } | { ok: false; errors: FieldErrors<RequestValues> } {
  const name = v.is_physical ? 'cardRequest.requestPhysical' : 'cardRequest.create';
  const body = { id, amount: minor(v.amount, v.currency), currency: v.currency, interval: v.interval, reason: v.reason.trim() };
  const built = parse<RequestValues, RequestInput>(name, v.is_physical ? body : { ...body, is_physical: false });
  return built.ok ? { ok: true, name, input: built.input } : built;
}

/** The limit edit → `card.update`'s patch (only the limit), or null when nothing changed. */
export function limitPatch(card: Pick<Card, 'id' | 'limit'>, v: LimitValues): Built<LimitValues, { card_id: string; patch: CardPatch }> | { ok: true; input: null } {
  const limit = limitOf(v);
  const same = limit.amount === card.limit.amount && limit.currency === card.limit.currency && limit.interval === card.limit.interval
    && limit.per_transaction === card.limit.per_transaction;
  if (same) return { ok: true, input: null };
  return parse('card.update', { card_id: card.id, patch: { limit } });
}
