import { useCallback, useEffect, useId, useState } from 'react';
import { BULK_BILL_CREATION_LIMIT_RANGE, FEATURE_FLAG_DEFAULTS, type FeatureFlagName, type FeatureFlags } from '../../../schema/feature-flags.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section, SettingRow } from '../../components/section.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { changeText, confirmWords, FLAG_GROUPS, FLAG_WORDS, flagChanges, flagsOfGroup, limitError, overridesOf, valueText } from './flag-words.ts';
import './feature-flags.css';

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; flags: FeatureFlags; fromCache: boolean };

/**
 * Settings → Feature flags (issue 32), owners and admins: every business-level flag grouped, in
 * words, with its default and current value; switches, a number for the bulk bill limit, "Reset
 * to default" per flag. Changes are a draft until "Save changes", which asks first, saying what
 * changes for whom. Offline: the flags this device read last, read-only, saying why.
 */
export function FeatureFlagsPage() {
  const user = useAppState((s) => s.session?.user);
  return (
    <div className="page">
      <div className="page-narrow">
        <h1>Feature flags</h1>
        {user && isAdmin(user)
          ? <Flags />
          : <p className="notice">Only owners and admins can see and change the business’s feature flags.</p>}
      </div>
    </div>
  );
}

function useBusinessFlags() {
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const read = useCallback(async (): Promise<Loaded> => {
    const r = await client.businessFlags();
    if (r.ok) return { state: 'ready', flags: r.flags, fromCache: false };
    // Offline: the set this device cached (the app reads the same one), shown read-only.
    if (r.offline) return { state: 'ready', flags: await client.flags(), fromCache: true };
    return { state: 'failed', message: errorText(r.error) };
  }, [client]);
  const reload = useCallback(() => {
    setLoaded({ state: 'loading' });
    void read().then(setLoaded);
  }, [read]);
  useEffect(() => {
    let live = true;
    void read().then((l) => live && setLoaded(l));
    return () => {
      live = false;
    };
  }, [read, online]);
  return { client, online, loaded, setLoaded, reload };
}

function Flags() {
  const { client, online, loaded, setLoaded, reload } = useBusinessFlags();
  const [draft, setDraft] = useState<FeatureFlags | null>(null);
  const [limitText, setLimitText] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (loaded.state === 'loading') return <p className="muted" role="status">Loading your feature flags…</p>;
  if (loaded.state === 'failed') {
    return (
      <div className="notice notice-error" role="alert">
        <span>{loaded.message}</span>
        <div><Button onClick={reload}>Try again</Button></div>
      </div>
    );
  }
  const saved = loaded.flags;
  const current = draft ?? saved;
  const readOnly = !online || loaded.fromCache;
  const changes = flagChanges(saved, current);
  const limitProblem = limitText === null ? null : limitError(limitText);

  const set = <K extends FeatureFlagName>(name: K, value: FeatureFlags[K]) => setDraft({ ...current, [name]: value });
  const reset = (name: FeatureFlagName) => {
    if (name === 'bulk_bill_creation_limit') setLimitText(null);
    set(name, FEATURE_FLAG_DEFAULTS[name] as FeatureFlags[typeof name]);
  };
  const discard = () => {
    setDraft(null);
    setLimitText(null);
  };
  async function save(): Promise<boolean> {
    setError(null);
    const r = await client.saveFeatureFlags(overridesOf(current));
    if (!r.ok) {
      setError(errorText(r.error));
      return false;
    }
    setLoaded({ state: 'ready', flags: r.flags, fromCache: false });
    discard();
    toastInfo(`Feature flags saved: ${changes.length === 1 ? 'the change applies' : 'the changes apply'} now.`);
    return true;
  }

  const control = (name: FeatureFlagName) => {
    const value = current[name];
    if (typeof value === 'number') {
      return (
        <LimitField value={limitText ?? String(value)} error={limitProblem} disabled={readOnly}
          onChange={(text) => {
            setLimitText(text);
            if (limitError(text) === null) set('bulk_bill_creation_limit', Number(text));
          }} />
      );
    }
    return (
      <label className="ff-switch">
        <input type="checkbox" role="switch" checked={value} disabled={readOnly} onChange={(e) => set(name, e.target.checked as FeatureFlags[typeof name])} />
        <span>{value ? 'On' : 'Off'}</span>
      </label>
    );
  };

  return (
    <>
      {readOnly && (
        <p className="notice notice-warn" role="note">
          You’re offline. These are the flags this device read last; changing them needs a connection, so they are read-only until you’re back.
        </p>
      )}
      {FLAG_GROUPS.map((g) => (
        <Section key={g.key} title={g.title} description={g.description}>
          {flagsOfGroup(g.key).map((name) => {
            const changed = current[name] !== FEATURE_FLAG_DEFAULTS[name];
            return (
              <SettingRow key={name} title={FLAG_WORDS[name].title} description={
                <>
                  <span>{FLAG_WORDS[name].description}</span>
                  <span className="ff-meta">
                    <code>{name}</code> · Default: {valueText(name, FEATURE_FLAG_DEFAULTS[name])}
                    {changed && <span className="pill pill-info">Changed</span>}
                    {saved[name] !== current[name] && <span className="pill pill-warn">Not saved</span>}
                  </span>
                </>
              }>
                <div className="ff-control">
                  {control(name)}
                  {changed && <Button variant="ghost" size="sm" disabled={readOnly} onClick={() => reset(name)}>Reset to default</Button>}
                </div>
              </SettingRow>
            );
          })}
        </Section>
      ))}
      {(changes.length > 0 || limitProblem !== null) && !readOnly && <SaveBar count={changes.length} blocked={limitProblem !== null} onDiscard={discard} onSave={() => setAsking(true)} />}
      {asking && (
        <ConfirmDialog
          title={confirmWords(changes).title}
          description="These apply to everyone in the business as soon as you save."
          confirmLabel={confirmWords(changes).confirm}
          onClose={() => {
            setAsking(false);
            setError(null);
          }}
          onConfirm={save}
        >
          <ul className="ff-changes">
            {changes.map((c) => <li key={c.name}>{changeText(c)}</li>)}
          </ul>
          <FormError message={error} />
        </ConfirmDialog>
      )}
    </>
  );
}

/** The draft's foot, kept in view (above the phone's bottom navigation): how many changes, Discard, Save. */
function SaveBar({ count, blocked, onDiscard, onSave }: { count: number; blocked: boolean; onDiscard(): void; onSave(): void }) {
  return (
    <>
      <div className="ff-savebar-space" aria-hidden="true" />
      <div className="ff-savebar" role="region" aria-label="Unsaved changes">
        <span>{blocked ? 'Fix the number of bills to save.' : count === 1 ? '1 unsaved change' : `${count} unsaved changes`}</span>
        <div className="ff-savebar-actions">
          <Button variant="ghost" onClick={onDiscard}>Discard</Button>
          <Button variant="primary" disabled={blocked} onClick={onSave}>Save changes</Button>
        </div>
      </div>
    </>
  );
}

function LimitField({ value, error, disabled, onChange }: { value: string; error: string | null; disabled: boolean; onChange(text: string): void }) {
  const { min, max } = BULK_BILL_CREATION_LIMIT_RANGE;
  const id = useId();
  return (
    <div className="field ff-limit">
      <label className="field-label" htmlFor={id}>Bills at a time</label>
      <input id={id} type="number" inputMode="numeric" min={min} max={max} step={1} value={value} disabled={disabled}
        aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)} />
      {error && <span id={`${id}-error`} className="field-error" role="alert">{error}</span>}
    </div>
  );
}
