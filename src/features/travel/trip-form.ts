import type { z } from 'zod';
import { tripCreateBodySchema, type TripCreateBody } from '../../../schema/api/calls-travel.ts';
import { validationMessages } from '../../../schema/errors.ts';
import { toMinorUnits } from '../../../schema/money.ts';
import { tripDateErrors } from '../../../schema/travel-rules.ts';

/**
 * The New trip dialog's values (as typed) and their way to the `trip.create` command: checked
 * with the call's own body schema (what the server validates with) and the server's own date
 * rules (`tripDateErrors`: the end on or after the start, not over, at most a year long, starting
 * at most 330 days ahead). Errors per field, in the §5 words with the field's label. Pure; tested.
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

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A §5 message with the fields' labels for their keys ("end_date must…" → "End date must…"). */
function labelled(message: string): string {
  let out = message;
  for (const [field, label] of Object.entries(LABELS)) out = out.replaceAll(field, label.toLowerCase());
  return out.replace(/^./, (c) => c.toUpperCase());
}

export function emptyTripValues(today: string): TripFormValues {
  return { name: '', destination: '', start_date: today, end_date: today, purpose: '', budget: '' };
}

export type TripCreateResult = { ok: true; input: TripCreateBody & { id: string } } | { ok: false; errors: TripFieldErrors };

/** The create command's input (a client `id`, so the row shows at once and a retry is the same trip), or why not. */
export function tripCreateInput(v: TripFormValues, id: string, currency: string, now: Date): TripCreateResult {
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
  const datesTyped = ISO_DAY.test(v.start_date) && ISO_DAY.test(v.end_date);
  const messages = {
    ...(parsed.success ? {} : validationMessages(parsed.error as z.ZodError, input)),
    ...(datesTyped ? tripDateErrors(v, now, true) : {}),
  };
  for (const [path, message] of Object.entries(messages)) {
    const field = path.split('.')[0] as TripField;
    if (!(field in LABELS)) continue;
    errors[field] ??= labelled(message);
  }
  if (v.destination === '') errors.destination = 'Pick a destination from the list.';
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, input: { ...parsed.data, id } };
}
