import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import { useDataClient } from '../../data-access/data-context.tsx';
import type { SignInResult } from '../../data-access/types.ts';
import { CodeField, isCompleteCode } from '../../components/code-field.tsx';
import { FormError } from '../../components/form-error.tsx';
import { useSubmitAction } from '../../lib/use-submit-action.ts';

/**
 * The second sign-in step: a 6-digit authenticator code → verify-mfa → a fully scoped token.
 * While MFA is switched off by the web config (isMfaDown) only its message is shown.
 */
export interface MfaFormProps {
  /** The web config's MFA-down message: while set, codes cannot be checked. */
  downMessage: string | null;
  onVerified: (r: Extract<SignInResult, { ok: true }>) => Promise<void> | void;
  onCancel?: () => void;
}

export function MfaCodeForm({ downMessage, onVerified, onCancel }: MfaFormProps) {
  const client = useDataClient();
  const [code, setCode] = useState('');
  const { error, busy, submit } = useSubmitAction();

  const onSubmit = submit(async () => {
    const result = await client.verifyMfa(code);
    if (!result.ok) return result.error;
    await onVerified(result);
  });

  return (
    <form className="stack" onSubmit={(e) => void onSubmit(e)} noValidate>
      <p className="muted">Enter the 6-digit code from your authenticator app.</p>
      {downMessage && (
        <p className="notice notice-error" role="alert">
          {downMessage}
        </p>
      )}
      <CodeField label="Verification code" value={code} onChange={setCode} autoFocus />
      <FormError message={error} />
      <Button type="submit" variant="primary" block loading={busy} disabled={downMessage !== null || !isCompleteCode(code)}>
        Verify
      </Button>
      {onCancel && (
        <Button block onClick={onCancel}>
          Back
        </Button>
      )}
    </form>
  );
}
