import type { SpendRequestPatch } from '../../../schema/api/calls-procurement.ts';
import type { SpendRequest } from '../../../schema/entities/spend-request.ts';
import { minorToDecimal } from '../../../schema/money.ts';
import { requestCommand, type RequestErrors, type RequestValues } from './request-form.ts';

/**
 * Editing a draft (issue 28): the stored request as the New request form's values, and the form
 * back to `spendRequest.update`'s patch. The form is the create form (same fields, same checks:
 * `requestCommand`), so what the edit accepts the server accepts; the type and whom it is for are
 * not in the patch (the server keeps them). Pure; tested.
 */

/** A stored request as the form's values: minor units as typed text, lines keyed by their ids. */
export function requestValuesOf(r: Pick<SpendRequest, 'type' | 'amount' | 'interval' | 'description' | 'vendor_id' | 'line_items' | 'needed_by' | 'user_id' | 'spend_allocation_id'>, viewerId: string): RequestValues {
  const money = (minor: number) => minorToDecimal(minor, r.amount.currency);
  return {
    type: r.type,
    // A purchase's amount is its lines' total: the form derives it.
    amount: r.type === 'PRODUCT_OR_SERVICE' ? '' : money(r.amount.amount),
    currency: r.amount.currency,
    interval: r.interval,
    description: r.description,
    vendor_id: r.vendor_id ?? '',
    lines: r.line_items.map((l) => ({ key: l.id, description: l.description, quantity: String(l.quantity), unit_price: money(l.unit_price) })),
    needed_by: r.needed_by ?? '',
    for_user_id: r.user_id === viewerId ? '' : r.user_id,
    spend_allocation_id: r.spend_allocation_id ?? '',
  };
}

export type RequestPatchResult = { ok: true; patch: SpendRequestPatch; changed: boolean } | { ok: false; errors: RequestErrors };

const sameLines = (a: readonly { description: string; quantity: number; unit_price: number }[], b: typeof a) =>
  a.length === b.length && a.every((l, i) => l.description === b[i]!.description && l.quantity === b[i]!.quantity && l.unit_price === b[i]!.unit_price);

/**
 * The form → a draft's patch: only the fields that differ from the stored request (the lines
 * whole when any line differs, as the server replaces them), `submit: true` to send it for
 * approval; `changed` false when no field differs. Every field's error instead when the form has
 * any (the same rules as a new request's).
 */
export function requestPatch(v: RequestValues, row: SpendRequest, submit: boolean, today: string): RequestPatchResult {
  const built = requestCommand(v, row.id, submit, today);
  if (!built.ok) return built;
  const input = built.input;
  const patch: SpendRequestPatch = {};
  if (input.amount.amount !== row.amount.amount || input.amount.currency !== row.amount.currency) patch.amount = input.amount;
  if (input.description !== row.description) patch.description = input.description;
  if ((input.needed_by ?? null) !== row.needed_by) patch.needed_by = input.needed_by ?? null;
  if (row.type === 'PRODUCT_OR_SERVICE') {
    if ((input.vendor_id ?? null) !== row.vendor_id) patch.vendor_id = input.vendor_id ?? null;
    const lines = input.line_items ?? [];
    if (!sameLines(lines, row.line_items)) patch.line_items = lines;
  } else if (input.interval !== undefined && input.interval !== row.interval) patch.interval = input.interval;
  if (row.type === 'GENERAL_EXPENSE' && (input.spend_allocation_id ?? null) !== row.spend_allocation_id) patch.spend_allocation_id = input.spend_allocation_id ?? null;
  const changed = Object.keys(patch).length > 0;
  if (submit) patch.submit = true;
  return { ok: true, patch, changed };
}
