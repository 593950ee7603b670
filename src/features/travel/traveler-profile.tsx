import { useCallback, useState, type FormEvent } from 'react';
import { SEAT_PREFERENCES, type TravelerProfile } from '../../../schema/travel-policy.ts';
import { Button } from '../../components/button.tsx';
import { DateField } from '../../components/date-field.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section } from '../../components/section.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { StepUpDialog } from '../../components/step-up-dialog.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useDataClient } from '../../data-access/data-context.tsx';
import type { ActionResult } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { useSensitiveAction } from '../../lib/use-sensitive-action.ts';
import { loyaltyChanged, newLoyaltyRow, profileBody, profileValues, type LoyaltyRow, type ProfileValues } from './profile-form.ts';
import { LoadState, useOnlineLoad } from './load-state.tsx';

const SEAT_LABELS: Record<(typeof SEAT_PREFERENCES)[number], string> = { WINDOW: 'Window', AISLE: 'Aisle', NO_PREFERENCE: 'No preference' };
const SEAT_OPTIONS = SEAT_PREFERENCES.map((s) => ({ value: s, label: SEAT_LABELS[s] }));

/** The saved sensitive values are never on the device: a blank field keeps the saved one. */
const KEEP_HINT = 'Leave blank to keep the saved one.';

/** Settings → Traveler profile (everyone): what airlines need to book you; saving asks you to confirm it's you. */
export function TravelerProfileSection() {
  const client = useDataClient();
  const read = useCallback(() => client.travelerProfile(), [client]);
  const { loaded, reload, set } = useOnlineLoad(read);
  const [editing, setEditing] = useState(false);
  return (
    <Section title="Traveler profile" description="Your name as on your passport and your travel numbers, sent with every booking. Stored encrypted; shown masked.">
      <LoadState loaded={loaded} what="your traveler profile" reload={reload}>
        {(v) =>
          editing ? (
            <ProfileForm profile={v.profile} onCancel={() => setEditing(false)} onSaved={(profile) => {
              set({ ok: true, profile });
              setEditing(false);
            }} />
          ) : (
            <ProfileFacts profile={v.profile} onEdit={() => setEditing(true)} />
          )
        }
      </LoadState>
    </Section>
  );
}

function ProfileFacts({ profile, onEdit }: { profile: TravelerProfile | null; onEdit(): void }) {
  if (!profile) {
    return (
      <div className="travel-profile-empty">
        <p className="muted">No traveler profile yet: add one before you book a flight.</p>
        <Button onClick={onEdit}>Add traveler profile</Button>
      </div>
    );
  }
  const name = [profile.legal_first_name, profile.legal_middle_name, profile.legal_last_name].filter(Boolean).join(' ');
  return (
    <>
      <dl className="facts">
        <dt>Legal name</dt>
        <dd>{name}</dd>
        <dt>Date of birth</dt>
        <dd className="mono">{profile.date_of_birth_masked}</dd>
        <dt>Known traveler number</dt>
        <dd className="mono">{profile.known_traveler_number_last_four ? `••••${profile.known_traveler_number_last_four}` : 'None'}</dd>
        <dt>Loyalty programs</dt>
        <dd>{profile.loyalty_programs.length === 0 ? 'None' : profile.loyalty_programs.map((l) => `${l.airline_code} ••••${l.number_last_four}`).join(', ')}</dd>
        <dt>Seat</dt>
        <dd>{SEAT_LABELS[profile.seat_preference]}</dd>
        <dt>Updated</dt>
        <dd>{formatLocalDateTime(profile.updated_at)}</dd>
      </dl>
      <div>
        <Button onClick={onEdit}>Edit traveler profile</Button>
      </div>
    </>
  );
}

export function ProfileForm({ profile, onCancel, onSaved }: { profile: TravelerProfile | null; onCancel(): void; onSaved(p: TravelerProfile): void }) {
  const client = useDataClient();
  const sensitive = useSensitiveAction();
  const [v, setV] = useState<ProfileValues>(() => profileValues(profile));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const patch = (p: Partial<ProfileValues>) => setV((x) => ({ ...x, ...p }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const built = profileBody(v, profile);
    setErrors(built.ok ? {} : built.errors);
    if (!built.ok) return setError('Check the fields marked below.');
    setBusy(true);
    let saved: TravelerProfile | null = null;
    const save = async (): Promise<ActionResult> => {
      const r = await client.saveTravelerProfile(built.body);
      if (r.ok) saved = r.profile;
      return r.ok ? { ok: true } : r;
    };
    try {
      await sensitive.run(save, (r) => {
        if (!r.ok) return setError(errorText(r.error));
        setError(null);
        toastInfo('Traveler profile saved.');
        if (saved) onSaved(saved);
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <form className="travel-profile-form" onSubmit={submit} aria-label="Traveler profile" noValidate>
        <FormError message={error} />
        <p className="muted">For your security, the saved date of birth and numbers are never shown here.</p>
        <div className="policy-grid">
          <TextField label="First name" autoComplete="given-name" value={v.legal_first_name} error={errors.legal_first_name} onChange={(x) => patch({ legal_first_name: x })} />
          <TextField label="Middle name" autoComplete="additional-name" value={v.legal_middle_name} error={errors.legal_middle_name} hint="Optional." onChange={(x) => patch({ legal_middle_name: x })} />
          <TextField label="Last name" autoComplete="family-name" value={v.legal_last_name} error={errors.legal_last_name} onChange={(x) => patch({ legal_last_name: x })} />
          <DateField label="Date of birth" value={v.date_of_birth} error={errors.date_of_birth} hint={profile ? KEEP_HINT : undefined} onChange={(x) => patch({ date_of_birth: x })} />
          <TextField label="Known traveler number" value={v.known_traveler_number} error={errors.known_traveler_number} disabled={v.clear_known_traveler_number}
            hint={`Optional: TSA PreCheck or Global Entry, 8–10 letters or digits.${profile ? ` ${KEEP_HINT}` : ''}`} onChange={(x) => patch({ known_traveler_number: x })} />
          <SelectField label="Seat" value={v.seat_preference} options={SEAT_OPTIONS} onChange={(x) => patch({ seat_preference: x as ProfileValues['seat_preference'] })} />
        </div>
        {profile && profile.known_traveler_number_last_four !== null ? (
          <label className="check">
            <input type="checkbox" checked={v.clear_known_traveler_number} onChange={(e) => patch({ clear_known_traveler_number: e.target.checked, known_traveler_number: '' })} />
            Remove the saved known traveler number (••••{profile.known_traveler_number_last_four})
          </label>
        ) : null}
        <LoyaltyFieldset rows={v.loyalty} savedCount={profile?.loyalty_programs.length ?? 0} errors={errors} onChange={(loyalty) => patch({ loyalty })} />
        <div className="policy-actions">
          <Button type="submit" variant="primary" loading={busy}>
            Save traveler profile
          </Button>
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
      {sensitive.prompting && <StepUpDialog onDone={sensitive.confirmed} onCancel={sensitive.cancelled} />}
    </>
  );
}

/** The PUT schema's longest list. */
const MAX_PROGRAMS = 20;

interface LoyaltyFieldsetProps {
  rows: LoyaltyRow[];
  /** How many programs are saved (the list as it was). */
  savedCount: number;
  errors: Record<string, string>;
  onChange(rows: LoyaltyRow[]): void;
}

/**
 * The loyalty programs one row each: a saved one shows its airline and masked number with Edit
 * and Remove; a new or edited one its two fields. The numbers are saved as one list (profile-form.ts).
 */
export function LoyaltyFieldset({ rows, savedCount, errors, onChange }: LoyaltyFieldsetProps) {
  const set = (i: number, p: Partial<LoyaltyRow>) => onChange(rows.map((y, j) => (j === i ? { ...y, ...p } : y)));
  // Once the list changes it is sent whole, so the saved rows kept need their numbers typed again.
  const retype = loyaltyChanged({ loyalty: rows }, savedCount) && rows.some((l) => l.saved !== null && l.number.trim() === '');
  return (
    <fieldset className="policy-group">
      <legend>Loyalty programs</legend>
      {retype ? <p className="muted">The programs are saved as one list: type again the numbers of the saved ones you keep.</p> : null}
      {rows.length === 0 ? <p className="muted">None.</p> : null}
      {rows.map((l, i) => {
        const numberError = errors[`loyalty_programs.${i}.number`];
        const remove = (
          <Button size="sm" variant="ghost" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            Remove<span className="sr-only"> program {i + 1}</span>
          </Button>
        );
        if (l.saved && !l.editing && !retype && !numberError) {
          return (
            <div className="policy-row loyalty-saved" key={i}>
              <span>{l.saved.airline_code}</span>
              <span className="mono">••••{l.saved.number_last_four}</span>
              <span className="loyalty-actions">
                <Button size="sm" onClick={() => set(i, { editing: true })}>
                  Edit<span className="sr-only"> program {i + 1}</span>
                </Button>
                {remove}
              </span>
            </div>
          );
        }
        return (
          <div className="policy-row" key={i}>
            <TextField label={`Airline code, program ${i + 1}`} value={l.airline_code} maxLength={2} error={errors[`loyalty_programs.${i}.airline_code`]}
              onChange={(x) => set(i, { airline_code: x })} />
            <TextField label={`Number, program ${i + 1}`} value={l.number} error={numberError}
              hint={l.saved ? `Saved: ••••${l.saved.number_last_four}` : undefined} onChange={(x) => set(i, { number: x })} />
            {remove}
          </div>
        );
      })}
      <Button size="sm" disabled={rows.length >= MAX_PROGRAMS} onClick={() => onChange([...rows, newLoyaltyRow()])}>
        Add a program
      </Button>
    </fieldset>
  );
}
