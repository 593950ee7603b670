import type { Money } from '../entities/trip.ts';
import { currencyExponent } from '../money.ts';

/**
 * Issue 27: the fixed exchange rates the generated travel inventory prices in. The inventory's
 * fares are computed in US dollars (server/domain/travel/inventory.ts); a business sees and pays
 * them in its own currency, as Navan and Ramp show a traveller prices in the company's currency,
 * so the policy's caps (in that currency) are compared with the price actually charged.
 *
 * The rates are fixed — units of each currency one US dollar buys, mid-market reference rates of
 * 2 January 2026 rounded to four significant figures — so the same search answers the same price
 * tomorrow (tests and demos repeat) and a booking charges exactly the price searched. There is no
 * live market here: the inventory is generated, and so are its prices. A currency not listed is
 * not converted: its business sees USD prices, which a policy in its own currency then refuses
 * to compare ("Priced in USD: the policy caps …", schema/travel-booking-rules.ts).
 */
export const USD_RATES: Readonly<Record<string, number>> = {
  USD: 1, EUR: 0.9215, GBP: 0.7905, CAD: 1.362, AUD: 1.518, NZD: 1.642, JPY: 149.8, CHF: 0.8815, SEK: 10.52, NOK: 10.61,
  DKK: 6.873, PLN: 3.998, CZK: 23.15, HUF: 362.4, SGD: 1.348, HKD: 7.812, INR: 83.12, MXN: 17.05, BRL: 4.953, ZAR: 18.49,
  CNY: 7.182, KRW: 1331, AED: 3.673, ILS: 3.706, TRY: 30.12,
};

/** The currency search prices in for a business of `currency`: its own when the table has it, else USD. */
export const inventoryCurrency = (currency: string): string => (Object.hasOwn(USD_RATES, currency) ? currency : 'USD');

/**
 * A US-dollar amount (minor units) in `currency` at the fixed rate, rounded to whole major units
 * (whole dollars, euros, yen), as the inventory rounds its dollar fares. `currency` must be in
 * the table (see `inventoryCurrency`).
 */
export function fromUsd(usdMinor: number, currency: string): Money {
  const rate = USD_RATES[currency];
  if (rate === undefined) throw new Error(`no fixed rate for ${currency}`);
  const major = Math.round((usdMinor / 100) * rate);
  return { amount: major * 10 ** currencyExponent(currency), currency };
}
