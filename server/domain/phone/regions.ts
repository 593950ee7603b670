/**
 * Where Ledgerline texts codes (6019 elsewhere): the United States and Canada, the United Kingdom,
 * and the European Union, the regions the product operates in. By E.164 country code; +1 is
 * shared by the North American Numbering Plan, so the Caribbean nations' area codes are left out.
 */
export const SUPPORTED_REGIONS = 'the United States, Canada, the United Kingdom and the European Union';

/** EU member states' calling codes (+44 is the United Kingdom). */
const EUROPE = [
  '30', '31', '32', '33', '34', '351', '352', '353', '356', '357', '358', '359', '36', '370', '371', '372',
  '385', '386', '39', '40', '420', '421', '43', '44', '45', '46', '48', '49',
];

/** NANP area codes of countries other than the US (and its territories) and Canada. */
const NANP_ELSEWHERE = new Set([
  '242', '246', '264', '268', '284', '345', '441', '473', '649', '658', '664', '721', '758', '767', '784',
  '809', '829', '849', '868', '869', '876',
]);

/** Whether an E.164 number is in a supported region. */
export function inSupportedRegion(e164: string): boolean {
  const digits = e164.slice(1);
  if (digits.startsWith('1')) return digits.length === 11 && !NANP_ELSEWHERE.has(digits.slice(1, 4));
  return EUROPE.some((code) => digits.startsWith(code));
}
