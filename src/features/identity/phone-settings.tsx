import { useEffect, useState, type FormEvent } from 'react';
import type { PhoneNumberState } from '../../../schema/api/calls-platform.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { useSensitiveAction } from '../../lib/use-sensitive-action.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatDay, formatLocalDateTime } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { Button } from '../../components/button.tsx';
import { CodeField, isCompleteCode } from '../../components/code-field.tsx';
import { FormError } from '../../components/form-error.tsx';
import { SettingRow } from '../../components/section.tsx';
import { TextField } from '../../components/text-field.tsx';

/** Spaces, dashes, dots and brackets people type are dropped; the server wants E.164 (+14155550123). */
export function normalisePhone(typed: string): string {
  return typed.trim().replace(/[\s().-]/g, '');
}

/** What the row says about the number now. */
export function phoneSummary(state: PhoneNumberState): string {
  if (!state.phone_number) return 'No phone number on your profile.';
  if (state.confirmed && state.confirmed_at) return `${state.phone_number}, confirmed on ${formatDay(state.confirmed_at)}.`;
  return `${state.phone_number}, not confirmed yet.`;
}

/**
 * Settings → Security → Phone number (issue 32, §6 "phone set" is sensitive): the profile's number
 * and whether it is confirmed; "Change" texts a 6-digit code to a new number (a step-up first), and
 * the number becomes the profile's once the code is entered. Refusals say why: out of the
 * supported regions (6019), unsubscribed by STOP (6020), an expired or wrong code. Online only.
 */
export function PhoneNumberSetting({ sensitive }: { sensitive: ReturnType<typeof useSensitiveAction> }) {
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const [state, setState] = useState<PhoneNumberState | null>(null);
  const [editing, setEditing] = useState(false);
  const [number, setNumber] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.phoneNumber().then((r) => {
      if (!live) return;
      if (r.ok) setState(r.phone);
      else setError(errorText(r.error));
    });
    return () => {
      live = false;
    };
  }, [client, online]);

  async function send(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    await sensitive.run(() => client.sendPhoneCode(normalisePhone(number)), (r) => {
      if (!r.ok) return setError(r.error.errors?.phone_number ?? errorText(r.error));
      setState(r.phone);
      setCode('');
    });
    setBusy(false);
  }

  async function confirm(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    await sensitive.run(() => client.confirmPhoneNumber(code), (r) => {
      if (!r.ok) return setError(r.error.errors?.code ?? errorText(r.error));
      setState(r.phone);
      setEditing(false);
      setNumber('');
      toastInfo(`${r.phone.phone_number ?? 'Your number'} is confirmed.`);
    });
    setBusy(false);
  }

  const pending = state?.pending ?? null;
  return (
    <SettingRow title="Phone number" description="The number on your profile. Adding or changing it takes a code texted to that number.">
      {!online && <p className="muted">You’re offline. Your phone number can be read and changed once you reconnect.</p>}
      {online && state === null && !error && <p className="muted" role="status">Loading your phone number…</p>}
      {state && <p>{phoneSummary(state)}</p>}
      {online && state && !editing && !pending && (
        <div>
          <Button onClick={() => setEditing(true)}>{state.phone_number ? 'Change number' : 'Add a phone number'}</Button>
        </div>
      )}
      {online && state && editing && !pending && (
        <form className="stack" onSubmit={(e) => void send(e)} noValidate>
          <TextField label="New phone number" type="tel" autoComplete="tel" value={number} onChange={setNumber}
            hint="With the country code, e.g. +1 415 555 0123. US, Canada, UK and EU numbers." />
          <FormError message={error} />
          <div className="row-actions">
            <Button type="submit" variant="primary" loading={busy} disabled={normalisePhone(number) === ''}>Text me a code</Button>
            <Button onClick={() => { setEditing(false); setError(null); }}>Cancel</Button>
          </div>
        </form>
      )}
      {online && pending && (
        <form className="stack" onSubmit={(e) => void confirm(e)} noValidate>
          <p>We texted a 6-digit code to {pending.phone_number}. It works until {formatLocalDateTime(pending.expires_at)}.</p>
          <CodeField label="Code from the text" value={code} onChange={setCode} />
          <FormError message={error} />
          <div className="row-actions">
            <Button type="submit" variant="primary" loading={busy} disabled={!isCompleteCode(code)}>Confirm number</Button>
            <Button onClick={() => { setState((s) => (s ? { ...s, pending: null } : s)); setEditing(true); setError(null); }}>Use another number</Button>
          </div>
        </form>
      )}
      {!pending && !editing && <FormError message={error} />}
    </SettingRow>
  );
}
