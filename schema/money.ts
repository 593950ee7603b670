import { z } from 'zod';

/** ISO 4217 minor-unit exponents that differ from 2; every other code uses 2. */
const EXPONENTS: Record<string, number> = {
  BHD: 3, BIF: 0, CLP: 0, DJF: 0, GNF: 0, IQD: 3, ISK: 0, JOD: 3, JPY: 0, KMF: 0, KRW: 0,
  KWD: 3, LYD: 3, OMR: 3, PYG: 0, RWF: 0, TND: 3, UGX: 0, UYI: 0, VND: 0, VUV: 0, XAF: 0,
  XOF: 0, XPF: 0,
};

export const currencyCodeSchema = z.string().regex(/^[A-Z]{3}$/, 'must be a valid ISO 4217 code');

export const currencyExponent = (currency: string) => EXPONENTS[currency] ?? 2;

/** Parses a decimal string ("12.34") into integer minor units, or null when it is not money. */
export function toMinorUnits(input: string, currency: string): number | null {
  const exp = currencyExponent(currency);
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(input.trim().replace(/,/g, ''));
  if (!m) return null;
  const frac = m[3] ?? '';
  if (frac.length > exp) return null;
  const minor = Number(m[2]) * 10 ** exp + Number(frac.padEnd(exp, '0') || '0');
  return m[1] ? -minor : minor;
}

/**
 * Integer minor units as a plain decimal string with the currency's exponent ("-12.30" for
 * -1230 USD, "500" for 500 JPY): no symbol, no grouping, exact (no float division).
 */
export function minorToDecimal(minor: number, currency: string): string {
  const exp = currencyExponent(currency);
  const digits = String(Math.abs(minor)).padStart(exp + 1, '0');
  const sign = minor < 0 ? '-' : '';
  return exp === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -exp)}.${digits.slice(-exp)}`;
}

const formatters = new Map<string, Intl.NumberFormat>();
export function formatMoney(minor: number, currency: string, locale = 'en-US'): string {
  const key = `${locale}:${currency}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'currency', currency });
    formatters.set(key, f);
  }
  return f.format(minor / 10 ** currencyExponent(currency));
}

let known: ReadonlySet<string> | null = null;
/** An ISO 4217 code the runtime's Intl knows (Intl.supportedValuesOf), not just three letters. */
export function isKnownCurrency(code: string): boolean {
  known ??= new Set(Intl.supportedValuesOf('currency'));
  return known.has(code);
}

/** A currency a request may name: three capitals that are an ISO 4217 code. */
export const knownCurrencySchema = currencyCodeSchema.refine(isKnownCurrency, 'must be a valid ISO 4217 code');

/**
 * Money on the wire, defined once: `{amount, currency}` with `amount` in integer minor units of
 * `currency` (the exponents above). The variants differ only in the amounts they allow; give
 * `moneyOf` the amount's own bounds (a cap, a floor) rather than writing the object again.
 */
export const moneyOf = <A extends z.ZodType<number>>(amount: A) => z.object({ amount, currency: knownCurrencySchema });
/** A signed amount in a known currency (a price, a budget, a total). */
export const moneySchema = moneyOf(z.number().int());
export type Money = z.infer<typeof moneySchema>;
/** More than zero: what a payment or transfer moves, a threshold. Zero, negative or fractional → 422 on `….amount`. */
export const positiveMoneySchema = moneyOf(z.number().int().positive());
/** Zero or more: a target balance, a minimum. */
export const nonNegativeMoneySchema = moneyOf(z.number().int().nonnegative());
/** A signed value the server answers (a balance, a fee, an accrual): its currency is the stored code, not re-checked. */
export const moneyValueSchema = z.object({ amount: z.number().int(), currency: z.string().length(3) });
