import { useCallback, useState, type FormEvent } from 'react';
import { isAdmin } from '../../../schema/roles.ts';
import type { TravelSettings } from '../../../schema/travel-policy.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section } from '../../components/section.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { PolicyEditor } from './policy-editor.tsx';
import { settingsBody, settingsValues, type SettingsValues } from './policy-form.ts';
import { TravelerProfileSection } from './traveler-profile.tsx';
import { LoadState, useOnlineLoad } from './load-state.tsx';
import { rewardsBody, rewardsValues, type RewardsValues } from './rewards-form.ts';

/**
 * Settings → Travel (issue 27): the traveller's profile for everyone (saving asks for step-up),
 * the travel policy and the travel settings for admins. Each is read and saved online.
 */
export function TravelSettingsSections() {
  const session = useAppState((s) => s.session);
  if (!session) return null;
  const admin = isAdmin(session.user);
  return (
    <>
      <TravelerProfileSection />
      {admin && <PolicyEditor />}
      {admin && <TravelOptionsSection currency={session.business.currency} />}
    </>
  );
}

function TravelOptionsSection({ currency }: { currency: string }) {
  const client = useDataClient();
  const read = useCallback(() => client.travelSettings(), [client]);
  const { loaded, reload, set } = useOnlineLoad(read);
  return (
    <Section title="Travel settings" description="What people can book, and the defaults of a new trip.">
      <LoadState loaded={loaded} what="travel settings" reload={reload}>
        {(v) => <TravelOptionsForm settings={v.settings} currency={currency} onSaved={(settings) => set({ ok: true, settings })} />}
      </LoadState>
    </Section>
  );
}

function TravelOptionsForm({ settings, currency, onSaved }: { settings: TravelSettings; currency: string; onSaved(s: TravelSettings): void }) {
  const client = useDataClient();
  const [values, setValues] = useState<SettingsValues>(() => settingsValues(settings, currency));
  const [rewards, setRewards] = useState<RewardsValues>(() => rewardsValues(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof SettingsValues>(key: K, value: SettingsValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  async function submit(e: FormEvent) {
    e.preventDefault();
    const built = settingsBody(values, currency);
    const share = rewardsBody(rewards);
    setErrors({ ...(built.ok ? {} : built.errors), ...(share.ok ? {} : { rewards_share: share.errors.share_percent! }) });
    if (!built.ok || !share.ok) return setError('Check the fields marked below.');
    setBusy(true);
    try {
      const r = await client.saveTravelSettings({ ...built.body, rewards: share.rewards });
      if (!r.ok) return setError(errorText(r.error));
      setError(null);
      onSaved(r.settings);
      setRewards(rewardsValues(r.settings));
      toastInfo('Travel settings saved.');
    } finally {
      setBusy(false);
    }
  }
  const check = (key: 'flights_enabled' | 'hotels_enabled' | 'require_trip_purpose', label: string) => (
    <label className="check">
      <input type="checkbox" checked={values[key]} onChange={(e) => set(key, e.target.checked)} />
      {label}
    </label>
  );
  return (
    <form className="travel-settings-form" onSubmit={submit} aria-label="Travel settings" noValidate>
      <FormError message={error} />
      <div className="travel-checks">
        {check('flights_enabled', 'People can book flights')}
        {check('hotels_enabled', 'People can book hotels')}
        {check('require_trip_purpose', 'A trip needs a purpose before anything is booked')}
      </div>
      <div className="travel-settings-fields">
        <TextField label={`Default trip budget (${currency})`} value={values.default_trip_budget} error={errors.default_trip_budget} hint="Empty: no budget." onChange={(v) => set('default_trip_budget', v)} />
        <TextField label="Trip card limit (× first booking)" value={values.trip_card_limit_multiplier} error={errors.trip_card_limit_multiplier} hint="From 1 to 5." onChange={(v) => set('trip_card_limit_multiplier', v)} />
      </div>
      <fieldset className="travel-rewards-settings">
        <legend>Travel rewards</legend>
        <label className="check">
          <input type="checkbox" checked={rewards.enabled} onChange={(e) => setRewards((r) => ({ ...r, enabled: e.target.checked }))} />
          Reward travellers who book in policy below the cap
        </label>
        <TextField
          label="Traveller’s share of the savings (%)"
          value={rewards.share_percent}
          error={errors.rewards_share}
          hint="From 0 to 100."
          onChange={(v) => setRewards((r) => ({ ...r, share_percent: v }))}
        />
      </fieldset>
      <div>
        <Button type="submit" variant="primary" loading={busy}>
          Save travel settings
        </Button>
      </div>
    </form>
  );
}
