import type { z } from 'zod';
import { tripCreateBodySchema, type TripCreateBody } from '../../../schema/api/calls-travel.ts';
import { validationMessages } from '../../../schema/errors.ts';
import { toMinorUnits } from '../../../schema/money.ts';

/**
 * The New trip dialog's values (as typed) and their way to the `trip.create` command: checked
 * with the call's own body schema (what the server validates with) and the one rule across
 * fields the form can tell (the trip ends on or after its first day). Errors per field, in the
 * §5 words with the field's label. Pure; tested.
 */
export interface TripFormValues {
  name: string;
  /** IATA code picked in the destination autocomplete ('' until one is picked). */
  destination: string;
  start_date: string;
  end_date: string;
  purpose: string;
  /** Major units of the business currency, as typed ('' = the settings' default budget). */
  budget: string;
}
export type TripField = keyof TripFormValues;
export type TripFieldErrors = Partial<Record<TripField, string>>;

const LABELS: Record<TripField, string> = {
  name: 'Name', destination: 'Destination', start_date: 'Start date', end_date: 'End date', purpose: 'Purpose', budget: 'Budget',
};

export function emptyTripValues(today: string): TripFormValues {
  return { name: '', destination: '', start_date: today, end_date: today, purpose: '', budget: '' };
}

export type TripCreateResult = { ok: true; input: TripCreateBody & { id: string } } | { ok: false; errors: TripFieldErrors };

/** The create command's input (a client `id`, so the row shows at once and a retry is the same trip), or why not. */
export function tripCreateInput(v: TripFormValues, id: string, currency: string): TripCreateResult {
  const budgetText = v.budget.trim().replace(/^[$€£¥]/, '');
  const budget = budgetText === '' ? undefined : (toMinorUnits(budgetText, currency) ?? budgetText);
  const purpose = v.purpose.trim();
  const input = {
    id,
    name: v.name.trim(),
    destination: v.destination,
    start_date: v.start_date,
    end_date: v.end_date,
    ...(purpose ? { purpose } : {}),
    ...(budget === undefined ? {} : { budget }),
  };
  const errors: TripFieldErrors = {};
  const parsed = tripCreateBodySchema.safeParse(input);
  if (!parsed.success) {
    for (const [path, message] of Object.entries(validationMessages(parsed.error as z.ZodError, input))) {
      const field = path.split('.')[0] as TripField;
      if (!(field in LABELS)) continue;
      errors[field] ??= message.replaceAll(field, LABELS[field].toLowerCase()).replace(/^./, (c) => c.toUpperCase());
    }
  }
  if (v.destination === '') errors.destination = 'Pick a destination from the list.';
  if (v.start_date && v.end_date && v.end_date < v.start_date) errors.end_date ??= 'The trip must end on or after its first day.';
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, input: { ...parsed.data, id } };
}
