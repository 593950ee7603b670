import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import { useAppStore, useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { sessionState } from '../../data-access/app-state.ts';
import type { SignInResult } from '../../data-access/types.ts';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { MfaStep } from './mfa-step.tsx';
import { useSubmitAction } from '../../lib/use-submit-action.ts';
import { TextField } from '../../components/text-field.tsx';

/**
 * The session expired or was revoked (401): the outbox is paused (phase signed_out) and this
 * prompt signs the SAME user in again in place, so nothing unsynced and nothing mirrored is
 * lost; the worker resumes syncing once the new token is stored.
 */
export function ReauthDialog({ onSignOut }: { onSignOut: () => void }) {
  const client = useDataClient();
  const store = useAppStore();
  const email = useAppState((s) => s.session?.user.email ?? '');
  const [password, setPassword] = useState('');
  const { error, busy, submit } = useSubmitAction();
  const [mfaStep, setMfaStep] = useState(false);

  async function done(result: Extract<SignInResult, { ok: true }>) {
    store.set({ ...sessionState(result.session), status: await client.status() });
  }

  const onSubmit = submit(async () => {
    const result = await client.reauthenticate(password);
    if (result.ok) await done(result);
    else if (result.mfa_required) setMfaStep(true);
    else return result.error;
  });

  return (
    <Modal title="Sign in again">
      <p className="muted">
        Your session has ended. Sign in as {email} to keep syncing; your unsynced changes are safe on this device.
      </p>
      {mfaStep ? (
        <MfaStep downMessage={null} onVerified={done} />
      ) : (
        <form className="stack" onSubmit={(e) => void onSubmit(e)} noValidate>
          <TextField label="Password" type="password" autoComplete="current-password" value={password} onChange={setPassword} autoFocus />
          <FormError message={error} />
          <div className="modal-actions">
            <Button onClick={onSignOut}>
              Sign out
            </Button>
            <Button type="submit" variant="primary" loading={busy} disabled={!password}>
              Sign in
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
