/** The currencies a money form offers after the ones it already holds: the most used first. */
export const COMMON_CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'JPY', 'CHF', 'MXN', 'INR'] as const;

/**
 * A currency picker's options: the business's and the form's own currency first (whatever they
 * are; blanks skipped), then the common ones, each once.
 */
export function currencyChoices(...own: (string | null | undefined)[]): string[] {
  return [...new Set([...own.filter((c): c is string => !!c), ...COMMON_CURRENCIES])];
}
