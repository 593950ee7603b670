import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { Link } from '@tanstack/react-router';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { SignUpInput } from '../../data-access/types.ts';
import { AuthCard } from '../../components/auth-card.tsx';
import { FormError } from '../../components/form-error.tsx';
import { MfaCodeForm } from './mfa-code-form.tsx';
import { useFinishSignIn } from './sign-in-page.tsx';
import { errorText } from '../../lib/error-text.ts';
import { TextField, type TextFieldProps } from '../../components/text-field.tsx';

const FIELDS: { key: keyof SignUpInput; label: string; type: TextFieldProps['type']; autoComplete: string }[] = [
  { key: 'first_name', label: 'First name', type: 'text', autoComplete: 'given-name' },
  { key: 'last_name', label: 'Last name', type: 'text', autoComplete: 'family-name' },
  { key: 'business_name', label: 'Business name', type: 'text', autoComplete: 'organization' },
  { key: 'email', label: 'Email', type: 'email', autoComplete: 'username' },
  { key: 'password', label: 'Password', type: 'password', autoComplete: 'new-password' },
];

const EMPTY: SignUpInput = { first_name: '', last_name: '', business_name: '', email: '', password: '' };

/**
 * Sign-up: creates the identity and a business owned by it, then the user is signed in; the server
 * mails a code to confirm the address (the app's EmailVerificationBanner asks for it).
 */
export function SignUpPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const finish = useFinishSignIn(undefined);
  const [form, setForm] = useState<SignUpInput>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [mfaStep, setMfaStep] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      const result = await client.signUp({ ...form, email: form.email.trim() });
      if (result.ok) await finish(result);
      else if (result.mfa_required) setMfaStep(true);
      else {
        setError(errorText(result.error));
        setFieldErrors(result.error.errors ?? {});
      }
    } finally {
      setBusy(false);
    }
  }

  if (mfaStep) {
    return (
      <AuthCard title="Two-factor authentication">
        <MfaCodeForm downMessage={null} onVerified={finish} />
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Create your account" onSubmit={onSubmit}>
      {!online && <p className="notice notice-warn">You are offline. Creating an account needs a connection.</p>}
      {FIELDS.map((f) => (
        <TextField
          key={f.key}
          label={f.label}
          type={f.type}
          name={f.key}
          autoComplete={f.autoComplete}
          required
          value={form[f.key]}
          error={fieldErrors[f.key]}
          onChange={(value) => setForm({ ...form, [f.key]: value })}
        />
      ))}
      <p className="muted">
        We’ll email you a 6-digit code to confirm your address. You can start right away; inviting people and single
        sign-on wait until it is confirmed.
      </p>
      <FormError message={error} />
      <Button type="submit" variant="primary" block loading={busy} disabled={Object.values(form).some((v) => !v.trim())}>
        Create account
      </Button>
      <p className="card-footer">
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </AuthCard>
  );
}
