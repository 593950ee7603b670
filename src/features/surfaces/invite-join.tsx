import { useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { FormError } from '../../components/form-error.tsx';
import { TextField } from '../../components/text-field.tsx';
import { sessionState } from '../../data-access/app-state.ts';
import { useAppStore, useDataClient } from '../../data-access/data-context.tsx';
import type { SignInResult } from '../../../workers/api.ts';
import { inviteFormErrors, type InviteForm } from './vendor-portal/portal-rules.ts';

/**
 * Issue 31: joining a surface from a mailed invite (the advisor console's `/console/join`, the
 * vendor portal's `/vendor-portal/invite`): the new-account form and what follows the accept.
 */

/**
 * The accept's answer: its session goes into the store and the surface opens at `home` (the
 * pending-invite key is forgotten); else the words to show (`refusal` puts the error in words).
 */
export function useFinishInvite(home: string, pendingKey: string, refusal: (e: { error_code?: string; message?: string }) => string) {
  const client = useDataClient();
  const store = useAppStore();
  const navigate = useNavigate();
  return async (result: SignInResult): Promise<string | null> => {
    if (!result.ok) return result.mfa_required ? 'Finish signing in with your authenticator, then open the link again.' : refusal(result.error);
    sessionStorage.removeItem(pendingKey);
    const status = await client.status();
    store.set((s) => ({ ...sessionState(result.session), status, dataVersion: s.dataVersion + 1, referenceVersion: s.referenceVersion + 1 }));
    await navigate({ href: home, replace: true });
    return null;
  };
}

/** A new account's names and password, checked on the device, then `accept` (trimmed names): its words on a refusal. */
export function useNewAccountForm(accept: (body: InviteForm) => Promise<string | null>) {
  const [form, setForm] = useState<InviteForm>({ first_name: '', last_name: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof InviteForm, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<InviteForm>) => setForm((f) => ({ ...f, ...patch }));
  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = inviteFormErrors(form);
    setErrors(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setError(await accept({ password: form.password, first_name: form.first_name.trim(), last_name: form.last_name.trim() }));
    setBusy(false);
  }
  return { form, set, errors, error, busy, submit };
}

/** The new account's fields and the refusal, inside the page's AuthCard. */
export function NewAccountFields({ state }: { state: ReturnType<typeof useNewAccountForm> }) {
  const { form, set, errors, error } = state;
  return (
    <>
      <TextField label="First name" autoComplete="given-name" value={form.first_name} onChange={(first_name) => set({ first_name })} error={errors.first_name} maxLength={100} />
      <TextField label="Last name" autoComplete="family-name" value={form.last_name} onChange={(last_name) => set({ last_name })} error={errors.last_name} maxLength={100} />
      <TextField label="Password" type="password" autoComplete="new-password" value={form.password} onChange={(password) => set({ password })} error={errors.password} hint="At least 10 characters." />
      <FormError message={error} />
    </>
  );
}
