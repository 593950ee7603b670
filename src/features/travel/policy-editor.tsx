import { useCallback, useState, type FormEvent } from 'react';
import { CABINS, type Cabin } from '../../../schema/entities/trip.ts';
import type { TravelPolicy } from '../../../schema/travel-policy.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section } from '../../components/section.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { CABIN_LABELS } from '../../lib/trip-labels.ts';
import { AirportField } from './airport-field.tsx';
import { policyBody, policyValues, type PolicyValues } from './policy-form.ts';
import { LoadState, useOnlineLoad } from './load-state.tsx';

const CABIN_OPTIONS = CABINS.map((c) => ({ value: c, label: CABIN_LABELS[c] }));

/** Settings → Travel policy (admins): read, edit, save, or go back to the default. */
export function PolicyEditor() {
  const client = useDataClient();
  const read = useCallback(() => client.travelPolicy(), [client]);
  const { loaded, reload, set } = useOnlineLoad(read);
  return (
    <Section title="Travel policy" description="What can be booked without approval: cabins by flight length, fare and hotel caps, booking ahead.">
      <LoadState loaded={loaded} what="the travel policy" reload={reload}>
        {(v) => <PolicyForm key={JSON.stringify(v.policy)} policy={v.policy} isDefault={v.is_default} onSaved={set} />}
      </LoadState>
    </Section>
  );
}

type Saved = { ok: true; policy: TravelPolicy; is_default: boolean };

function PolicyForm({ policy, isDefault, onSaved }: { policy: TravelPolicy; isDefault: boolean; onSaved(v: Saved): void }) {
  const client = useDataClient();
  const [v, setV] = useState<PolicyValues>(() => policyValues(policy));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resetting, setResetting] = useState(false);
  const cur = v.currency;
  const patch = (p: Partial<PolicyValues>) => setV((x) => ({ ...x, ...p }));
  const err = (path: string) => errors[path];

  async function submit(e: FormEvent) {
    e.preventDefault();
    const built = policyBody(v);
    setErrors(built.ok ? {} : built.errors);
    if (!built.ok) return setError('Check the fields marked below.');
    setBusy(true);
    try {
      const r = await client.saveTravelPolicy(built.body);
      if (!r.ok) return setError(errorText(r.error));
      setError(null);
      onSaved(r);
      toastInfo('Travel policy saved.');
    } finally {
      setBusy(false);
    }
  }
  async function reset(): Promise<boolean> {
    const r = await client.resetTravelPolicy();
    if (!r.ok) {
      setError(errorText(r.error));
      return false;
    }
    onSaved(r);
    toastInfo('The default travel policy applies again.');
    return true;
  }

  return (
    <>
    <form className="policy-form" onSubmit={submit} aria-label="Travel policy" noValidate>
      <FormError message={error} />
      {isDefault && <p className="muted">This is the default policy: nobody has changed it yet.</p>}
      <fieldset className="policy-group">
        <legend>Best cabin by flight length</legend>
        {err('cabin_by_duration') && <span className="field-error">{err('cabin_by_duration')}</span>}
        {v.cabin_rules.map((r, i) => (
          <div className="policy-row" key={i}>
            <TextField label={`Flights from (hours), rule ${i + 1}`} value={r.hours} error={err(`cabin_by_duration.${i}.min_duration_minutes`)}
              onChange={(hours) => patch({ cabin_rules: v.cabin_rules.map((x, j) => (j === i ? { ...x, hours } : x)) })} />
            <SelectField label={`Best cabin, rule ${i + 1}`} value={r.max_cabin} options={CABIN_OPTIONS}
              onChange={(c) => patch({ cabin_rules: v.cabin_rules.map((x, j) => (j === i ? { ...x, max_cabin: c as Cabin } : x)) })} />
            <Button size="sm" variant="ghost" disabled={v.cabin_rules.length <= 1} onClick={() => patch({ cabin_rules: v.cabin_rules.filter((_, j) => j !== i) })}>
              Remove<span className="sr-only"> rule {i + 1}</span>
            </Button>
          </div>
        ))}
        <Button size="sm" disabled={v.cabin_rules.length >= 8} onClick={() => patch({ cabin_rules: [...v.cabin_rules, { hours: '', max_cabin: 'ECONOMY' }] })}>
          Add a rule
        </Button>
      </fieldset>
      <fieldset className="policy-group">
        <legend>Fare caps per passenger ({cur}; empty: no cap)</legend>
        <div className="policy-grid">
          {CABINS.map((c) => (
            <TextField key={c} label={CABIN_LABELS[c]} value={v.fare_caps[c]} error={err(`flight_fare_caps.${c}`)} onChange={(x) => patch({ fare_caps: { ...v.fare_caps, [c]: x } })} />
          ))}
        </div>
      </fieldset>
      <fieldset className="policy-group">
        <legend>Hotel nightly cap ({cur})</legend>
        <TextField label="Any city" value={v.hotel_default} error={err('hotel_nightly_cap.default')} onChange={(x) => patch({ hotel_default: x })} />
        {err('hotel_nightly_cap.cities') && <span className="field-error">{err('hotel_nightly_cap.cities')}</span>}
        {v.hotel_cities.map((c, i) => (
          <div className="policy-row" key={i}>
            <AirportField label={`City ${i + 1}`} value={c.city} error={err(`hotel_nightly_cap.cities.${i}.city`)}
              onChange={(city) => patch({ hotel_cities: v.hotel_cities.map((x, j) => (j === i ? { ...x, city } : x)) })} />
            <TextField label={`Cap, city ${i + 1}`} value={c.amount} error={err(`hotel_nightly_cap.cities.${i}.amount`)}
              onChange={(amount) => patch({ hotel_cities: v.hotel_cities.map((x, j) => (j === i ? { ...x, amount } : x)) })} />
            <Button size="sm" variant="ghost" onClick={() => patch({ hotel_cities: v.hotel_cities.filter((_, j) => j !== i) })}>
              Remove<span className="sr-only"> city {i + 1}</span>
            </Button>
          </div>
        ))}
        <Button size="sm" onClick={() => patch({ hotel_cities: [...v.hotel_cities, { city: '', amount: '' }] })}>
          Add a city
        </Button>
      </fieldset>
      <div className="policy-grid">
        <TextField label="Book flights at least (days ahead)" value={v.min_advance_days} error={err('min_advance_days')} onChange={(x) => patch({ min_advance_days: x })} />
        <SelectField label="Out of policy" value={v.out_of_policy}
          options={[{ value: 'REQUIRE_APPROVAL', label: 'Needs approval' }, { value: 'BLOCK', label: 'Not allowed' }]}
          onChange={(x) => patch({ out_of_policy: x as PolicyValues['out_of_policy'] })} />
      </div>
      <div className="policy-actions">
        <Button type="submit" variant="primary" loading={busy}>
          Save policy
        </Button>
        {!isDefault && (
          <Button variant="ghost" onClick={() => setResetting(true)}>
            Use the default policy
          </Button>
        )}
      </div>
    </form>
    {resetting && (
      <ConfirmDialog title="Use the default travel policy?" description="Your changes to the policy are replaced by the default; new searches use it at once."
        confirmLabel="Use the default" onClose={() => setResetting(false)} onConfirm={reset} />
    )}
    </>
  );
}
