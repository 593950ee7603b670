import type { SelectOption } from '../../components/select-field.tsx';

/**
 * The country select's choices: the countries bill pay vendors are most often in, named in the
 * reader's language (Intl), the US first. A vendor stored with another code keeps it as a choice.
 */
const COMMON = ['US', 'CA', 'MX', 'GB', 'IE', 'DE', 'FR', 'NL', 'ES', 'IT', 'SE', 'CH', 'IN', 'JP', 'SG', 'AU', 'NZ', 'BR', 'IL', 'CN'];

export function countryOptions(current: string): SelectOption[] {
  const names = new Intl.DisplayNames(undefined, { type: 'region' });
  const codes = COMMON.includes(current) || !/^[A-Z]{2}$/.test(current) ? COMMON : [...COMMON, current];
  const [us, ...rest] = codes.map((code) => ({ value: code, label: names.of(code) ?? code }));
  return [us!, ...rest.sort((a, b) => a.label.localeCompare(b.label))];
}
