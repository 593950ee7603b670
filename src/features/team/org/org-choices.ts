import type { SelectOption } from '../../../components/select-field.tsx';

/**
 * The entity form's pickers: every ISO 3166-1 country and every ISO 4217 currency in use, named
 * in the reader's language (Intl). The vendors feature keeps a short list of its own (the
 * countries payees are most often in); a legal entity can be anywhere, so this one is complete.
 */
const ISO_3166 = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
  'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
  'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
  'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
  'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

/** Most entities are in these: offered first. */
const COMMON_COUNTRIES = ['US', 'GB', 'CA', 'DE', 'FR', 'NL', 'IE', 'AU', 'SG', 'IN'];
const COMMON_CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'SGD', 'INR', 'JPY', 'CHF'];

function displayNames(type: 'region' | 'currency'): (code: string) => string {
  try {
    const names = new Intl.DisplayNames(undefined, { type });
    return (code) => names.of(code) ?? code;
  } catch {
    return (code) => code;
  }
}

const regionName = displayNames('region');
export const countryName = (code: string): string => regionName(code);

/** Every country, the common ones first; a stored code not in the list stays a choice. */
export function countryChoices(current = ''): SelectOption[] {
  const all = ISO_3166.includes(current) || !/^[A-Z]{2}$/.test(current) ? ISO_3166 : [...ISO_3166, current];
  const option = (code: string) => ({ value: code, label: regionName(code) });
  const rest = all.filter((c) => !COMMON_COUNTRIES.includes(c)).map(option).sort((a, b) => a.label.localeCompare(b.label));
  return [...COMMON_COUNTRIES.map(option), ...rest];
}

function allCurrencies(): string[] {
  try {
    return Intl.supportedValuesOf('currency');
  } catch {
    return COMMON_CURRENCIES;
  }
}

/** Every currency Intl knows (the server's money rules take the same), "EUR · Euro", the common ones first. */
export function currencyChoices(current = ''): SelectOption[] {
  const name = displayNames('currency');
  const codes = new Set([...COMMON_CURRENCIES, ...allCurrencies()]);
  if (/^[A-Z]{3}$/.test(current)) codes.add(current);
  const option = (code: string) => ({ value: code, label: `${code} · ${name(code)}` });
  const rest = [...codes].filter((c) => !COMMON_CURRENCIES.includes(c)).sort().map(option);
  return [...COMMON_CURRENCIES.map(option), ...rest];
}

/** The usual currency of a country, suggested for a new entity (the admin can change it); null when not in our table. */
export function defaultCurrencyFor(country: string): string | null {
  return CURRENCY_OF[country] ?? null;
}

/** Where entities are most often incorporated (Intl has no region → currency lookup). */
const CURRENCY_OF: Record<string, string> = {
  US: 'USD', GB: 'GBP', CA: 'CAD', AU: 'AUD', NZ: 'NZD', SG: 'SGD', IN: 'INR', JP: 'JPY', CH: 'CHF', SE: 'SEK', NO: 'NOK', DK: 'DKK',
  PL: 'PLN', CZ: 'CZK', HU: 'HUF', MX: 'MXN', BR: 'BRL', IL: 'ILS', CN: 'CNY', HK: 'HKD', AE: 'AED', ZA: 'ZAR', KR: 'KRW',
  DE: 'EUR', FR: 'EUR', NL: 'EUR', IE: 'EUR', ES: 'EUR', IT: 'EUR', PT: 'EUR', BE: 'EUR', AT: 'EUR', FI: 'EUR', GR: 'EUR',
  LU: 'EUR', EE: 'EUR', LV: 'EUR', LT: 'EUR', SK: 'EUR', SI: 'EUR', MT: 'EUR', CY: 'EUR', HR: 'EUR',
};
