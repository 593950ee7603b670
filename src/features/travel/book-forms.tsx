import { useState, type FormEvent, type ReactNode } from 'react';
import type { FlightSearchBody, HotelSearchBody } from '../../../schema/api/calls-travel.ts';
import { CABINS, type Cabin } from '../../../schema/entities/trip.ts';
import { Button } from '../../components/button.tsx';
import { DateField } from '../../components/date-field.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import { CABIN_LABELS } from '../../lib/trip-labels.ts';
import { AirportField } from './airport-field.tsx';
import { flightSearchBody, hotelSearchBody, type FlightSearchValues, type HotelSearchValues, type SearchErrors } from './offers.ts';

const CABIN_OPTIONS = CABINS.map((c) => ({ value: c, label: CABIN_LABELS[c] }));

interface FormProps<B> {
  /** Offline: the fields and the button are disabled (the page says why). */
  disabled: boolean;
  busy: boolean;
  today: string;
  tripId: string;
  onSearch(body: B): void;
}

/** A search form's values and errors; `submit` builds the body (or shows why not) and searches. */
function useSearchForm<V extends object, B>(initial: V, build: (v: V) => { ok: true; body: B } | { ok: false; errors: SearchErrors<V> }, onSearch: (body: B) => void) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<SearchErrors<V>>({});
  const set = <K extends keyof V>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  };
  function submit(e: FormEvent) {
    e.preventDefault();
    const built = build(values);
    if (!built.ok) return setErrors(built.errors);
    onSearch(built.body);
  }
  return { values, errors, set, submit };
}

/** The form both searches share: its fields (disabled offline) and the submit button. */
function SearchFormShell({ name, off, busy, onSubmit, children }: { name: string; off: boolean; busy: boolean; onSubmit(e: FormEvent): void; children: ReactNode }) {
  return (
    <form className="book-form" onSubmit={onSubmit} aria-label={name} noValidate>
      <fieldset className="book-fields" disabled={off}>
        {children}
      </fieldset>
      <Button type="submit" variant="primary" loading={busy} disabled={off || busy}>
        {name}
      </Button>
    </form>
  );
}

/** From, To (airport type-ahead), Depart, Return, Cabin, Passengers → `POST /v1/auth/booking/flights/search`. */
export function FlightSearchForm(props: FormProps<FlightSearchBody> & { initial: FlightSearchValues }) {
  const { values, errors, set, submit } = useSearchForm(props.initial, (v) => flightSearchBody(v, props.today, props.tripId), props.onSearch);
  const off = props.disabled;
  return (
    <SearchFormShell name="Search flights" off={off} busy={props.busy} onSubmit={submit}>
      <AirportField label="From" value={values.origin} error={errors.origin} disabled={off} onChange={(v) => set('origin', v)} />
      <AirportField label="To" value={values.destination} error={errors.destination} disabled={off} onChange={(v) => set('destination', v)} />
      <DateField label="Depart" value={values.depart_date} min={props.today} error={errors.depart_date} disabled={off} onChange={(v) => set('depart_date', v)} />
      <DateField label="Return" value={values.return_date} min={values.depart_date || props.today} error={errors.return_date} hint="Optional: one way without it." disabled={off} onChange={(v) => set('return_date', v)} />
      <SelectField label="Cabin" value={values.cabin} leading={[{ value: '', label: 'Any cabin' }]} options={CABIN_OPTIONS} onChange={(v) => set('cabin', v as Cabin | '')} />
      <TextField label="Passengers" value={values.passengers} error={errors.passengers} disabled={off} onChange={(v) => set('passengers', v)} />
    </SearchFormShell>
  );
}

/** City (airport type-ahead), Check-in, Check-out → `POST /v1/auth/booking/hotels/search`. */
export function HotelSearchForm(props: FormProps<HotelSearchBody> & { initial: HotelSearchValues }) {
  const { values, errors, set, submit } = useSearchForm(props.initial, (v) => hotelSearchBody(v, props.today, props.tripId), props.onSearch);
  const off = props.disabled;
  return (
    <SearchFormShell name="Search hotels" off={off} busy={props.busy} onSubmit={submit}>
      <AirportField label="City" value={values.city} error={errors.city} disabled={off} onChange={(v) => set('city', v)} />
      <DateField label="Check-in" value={values.check_in} min={props.today} error={errors.check_in} disabled={off} onChange={(v) => set('check_in', v)} />
      <DateField label="Check-out" value={values.check_out} min={values.check_in || props.today} error={errors.check_out} disabled={off} onChange={(v) => set('check_out', v)} />
    </SearchFormShell>
  );
}
