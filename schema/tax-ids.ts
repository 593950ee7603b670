/**
 * US tax ids, defined once (issue 31): the financing application's EIN and SSNs and the vendor
 * network's TIN (schema/vendor-network.ts `tinCheck`) follow the same IRS and SSA rules.
 */

/** An SSN: 9 digits (dashes allowed); area not 000, 666 or 9xx; group not 00; serial not 0000. */
export function isValidSsn(ssn: string): boolean {
  const m = /^(\d{3})-?(\d{2})-?(\d{4})$/.exec(ssn);
  if (!m) return false;
  const [, area, group, serial] = m as unknown as [string, string, string, string];
  return area !== '000' && area !== '666' && !area.startsWith('9') && group !== '00' && serial !== '0000';
}
export const ssnDigits = (ssn: string) => ssn.replace(/-/g, '');

/** The IRS campus prefixes an EIN may start with (the others were never assigned). */
const EIN_PREFIXES = new Set([
  1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 14, 15, 16, 20, 21, 22, 23, 24, 25, 26, 27,
  30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
  50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68,
  71, 72, 73, 74, 75, 76, 77, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90, 91, 92, 93, 94, 95, 98, 99,
]);
/** An EIN: `12-3456789` or 9 digits, with a valid IRS prefix. */
export function isValidEin(ein: string): boolean {
  const m = /^(\d{2})-?\d{7}$/.exec(ein);
  return m !== null && EIN_PREFIXES.has(Number(m[1]));
}
