import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';

/** Said whatever the email: the server never tells whether an address has an account. */
export const LINK_SENT = 'If that email has an account, a link is on its way. It works once, for 15 minutes.';

export interface SignInLinkFormProps {
  initialEmail?: string;
  /** The button's words: "Email me a sign-in link", or "Send a new link" after an expired one. */
  submitLabel?: string;
  autoFocus?: boolean;
}

/** Asks for a passwordless sign-in link (auth.passwordlessSend); the answer never differs by account. */
export function SignInLinkForm({ initialEmail = '', submitLabel = 'Email me a sign-in link', autoFocus = false }: SignInLinkFormProps) {
  const client = useDataClient();
  const [email, setEmail] = useState(initialEmail);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    e.stopPropagation();
    setBusy(true);
    setError(null);
    try {
      const r = await client.sendSignInLink(email.trim());
      if (r.ok) setSent(true);
      else setError(errorText(r.error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="sign-in-link" onSubmit={(e) => void onSubmit(e)} noValidate>
      <TextField label="Email" type="email" name="link-email" autoComplete="username" required value={email} onChange={(v) => {
        setEmail(v);
        setSent(false);
      }} autoFocus={autoFocus} />
      <FormError message={error} />
      {sent && <p className="notice" role="status">{LINK_SENT}</p>}
      <Button type="submit" block loading={busy} disabled={!email.trim()}>{submitLabel}</Button>
    </form>
  );
}
