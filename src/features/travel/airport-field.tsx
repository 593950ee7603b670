import { AIRPORTS } from '../../../schema/travel/airports.ts';
import { Combobox } from '../../components/combobox.tsx';
import type { SelectOption } from '../../components/select-field.tsx';

/** Every known airport as a choice: "Lisbon (LIS) · Humberto Delgado", by city then code. */
export const AIRPORT_OPTIONS: readonly SelectOption[] = Object.entries(AIRPORTS)
  .map(([code, a]) => ({ value: code, label: `${a.city} (${code}) · ${a.name}`, city: a.city }))
  .sort((a, b) => a.city.localeCompare(b.city) || a.value.localeCompare(b.value))
  .map(({ value, label }) => ({ value, label }));

/** The city of a code ("Lisbon"), or the code itself when the list does not know it. */
export const cityOf = (code: string): string => (Object.hasOwn(AIRPORTS, code) ? AIRPORTS[code]!.city : code);

/**
 * A type-ahead airport picker (the shared `Combobox`: typing a city, a code or an airport's name
 * narrows the list; the value is the IATA code).
 */
export function AirportField(props: { label: string; value: string; onChange(code: string): void; error?: string | undefined; disabled?: boolean }) {
  return <Combobox label={props.label} value={props.value} options={AIRPORT_OPTIONS} onChange={props.onChange} error={props.error} disabled={props.disabled ?? false} />;
}
