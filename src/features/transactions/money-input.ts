import { currencyExponent, toMinorUnits } from '../../../schema/money.ts';

export type AmountInput = { ok: true; minor: number | undefined } | { ok: false; message: string };

/**
 * A filter amount typed in major units ("12.50", "1,200") → integer minor units of the
 * business currency. Empty means "no bound"; anything else that is not money is refused with
 * the §5 wording so the field can say why.
 */
export function parseAmountInput(text: string, currency: string, label: string): AmountInput {
  const trimmed = text.trim().replace(/^[$€£¥]/, '');
  if (trimmed === '') return { ok: true, minor: undefined };
  const minor = toMinorUnits(trimmed, currency);
  if (minor === null || !Number.isSafeInteger(minor)) return { ok: false, message: `${label} must be a valid amount` };
  return { ok: true, minor };
}

/** Minor units back to the plain decimal text the input shows ("1250" → "12.50"). */
export function formatAmountInput(minor: number | undefined, currency: string): string {
  if (minor === undefined) return '';
  const exp = currencyExponent(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  if (exp === 0) return `${sign}${abs}`;
  const whole = Math.floor(abs / 10 ** exp);
  const frac = String(abs % 10 ** exp).padStart(exp, '0');
  return `${sign}${whole}.${frac}`;
}
