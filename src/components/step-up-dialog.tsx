import { useState } from 'react';
import { Button } from './button.tsx';
import { useAppState, useDataClient } from '../data-access/data-context.tsx';
import type { StepUpInput } from '../data-access/types.ts';
import { CodeField } from './code-field.tsx';
import { FormError } from './form-error.tsx';
import { Modal } from './modal.tsx';
import { useSubmitAction } from '../lib/use-submit-action.ts';
import { TextField } from './text-field.tsx';

/**
 * §6 step-up: a sensitive action (or a command the outbox parked as needs_step_up) needs the
 * `sensitive` scope. The user re-enters the password, or an authenticator code when they have
 * MFA; the worker keeps the stepped-up token for its lifetime, for sensitive calls only.
 */
export function StepUpDialog({ onDone, onCancel }: { onDone: () => void | Promise<void>; onCancel: () => void }) {
  const client = useDataClient();
  const mfa = useAppState((s) => s.session?.mfa_enabled === true);
  const [useCode, setUseCode] = useState(false);
  const [value, setValue] = useState('');
  const { error, busy, submit } = useSubmitAction();

  const onSubmit = submit(async () => {
    const input: StepUpInput = useCode ? { mfa_code: value.trim() } : { password: value };
    const result = await client.stepUp(input);
    if (!result.ok) return result.error;
    await onDone();
  });

  return (
    <Modal title="Confirm it's you" onClose={onCancel} onSubmit={onSubmit}>
      <p className="muted">
        {useCode ? 'Enter the code from your authenticator app to continue.' : 'Enter your password to continue.'}
      </p>
      {useCode ? (
        <CodeField label="Authenticator code" value={value} onChange={setValue} autoFocus />
      ) : (
        <TextField label="Password" type="password" autoComplete="current-password" value={value} onChange={setValue} autoFocus />
      )}
      {mfa && (
        <Button
          variant="ghost"
          size="sm"
          onClick={() => {
            setUseCode(!useCode);
            setValue('');
          }}
        >
          {useCode ? 'Use my password instead' : 'Use an authenticator code instead'}
        </Button>
      )}
      <FormError message={error} />
      <div className="modal-actions">
        <Button onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy} disabled={!value}>
          Confirm
        </Button>
      </div>
    </Modal>
  );
}
