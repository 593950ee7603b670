import { matchTolerancesSchema, type MatchTolerances } from '../../../schema/bill-match.ts';

/**
 * The "Matching rules" form (three-way match tolerances), pure: the saved percentages as typed
 * and back, checked with the call's own schema (0–100, decimals allowed), each refusal under its
 * field. Tested in matching-rules.test.ts.
 */
export interface MatchingRulesValues {
  price: string;
  quantity: string;
}

export const matchingRulesValues = (t: MatchTolerances): MatchingRulesValues => ({
  price: String(t.price_tolerance_percent),
  quantity: String(t.quantity_tolerance_percent),
});

export type MatchingRulesResult =
  | { ok: true; body: MatchTolerances }
  | { ok: false; errors: Partial<Record<keyof MatchingRulesValues, string>> };

function percent(typed: string): number | null {
  const bare = typed.trim().replace(/\s*%$/, '');
  if (!/^\d+(\.\d+)?$/.test(bare)) return null;
  return Number(bare);
}

export function matchingRulesBody(v: MatchingRulesValues): MatchingRulesResult {
  const errors: Partial<Record<keyof MatchingRulesValues, string>> = {};
  const price = percent(v.price);
  const quantity = percent(v.quantity);
  const body = { price_tolerance_percent: price, quantity_tolerance_percent: quantity };
  const parsed = matchTolerancesSchema.safeParse(body);
  if (price === null || !parsed.success && parsed.error.issues.some((i) => i.path[0] === 'price_tolerance_percent')) errors.price = 'Enter a percentage from 0 to 100.';
  if (quantity === null || !parsed.success && parsed.error.issues.some((i) => i.path[0] === 'quantity_tolerance_percent')) errors.quantity = 'Enter a percentage from 0 to 100.';
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: parsed.data };
}

/** "A bill's unit price may differ by up to 2% either way; quantities must match exactly." */
export function matchingRulesText(t: MatchTolerances): string {
  const price = t.price_tolerance_percent === 0 ? 'must equal the PO’s' : `may differ from the PO’s by up to ${t.price_tolerance_percent}% either way`;
  const quantity = t.quantity_tolerance_percent === 0
    ? 'a bill may not bill more units than ordered'
    : `a bill may bill up to ${t.quantity_tolerance_percent}% more units than ordered`;
  return `A bill’s unit price ${price}; ${quantity}, nor more than received.`;
}
