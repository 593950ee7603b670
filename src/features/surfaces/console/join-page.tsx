import { useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { AuthCard } from '../../../components/auth-card.tsx';
import { Button } from '../../../components/button.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { signedInSession } from '../../../data-access/app-state.ts';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { isBusinessSession } from '../../../../workers/contracts/session.ts';
import { inviteTokenOf } from '../vendor-portal/portal-rules.ts';
import { NewAccountFields, useFinishInvite, useNewAccountForm } from '../invite-join.tsx';

/** The invite's token kept while its holder signs in first (the link's fragment is gone after sign-in). */
export const PENDING_FIRM_INVITE_KEY = 'ledgerline.console-invite';
const TITLE = 'Join your firm on Ledgerline';

/**
 * Issue 31: the firm's invitation link (`/console/join#token=…`, the mail's link; the token stays
 * in the fragment, never in a request line or a log). There is no lookup of a firm invite: the
 * accept call itself says when a link is used, expired or withdrawn. Signed out, the invitee sets
 * names and a password; signed in as the invite's email, they join with that account. Either way
 * they land in the advisor console.
 */
export function ConsoleJoinPage() {
  const token = inviteTokenOf(window.location.hash, sessionStorage.getItem(PENDING_FIRM_INVITE_KEY));
  const signedIn = useAppState((s) => signedInSession(s));
  if (!token) {
    return (
      <AuthCard title={TITLE}>
        <p className="notice notice-error" role="alert">
          This link is incomplete. Open the link in the invitation email again, or ask your firm’s admin to send it again.
        </p>
        <a href="/sign-in">Go to sign in</a>
      </AuthCard>
    );
  }
  return signedIn ? <SignedInJoin token={token} email={isBusinessSession(signedIn) ? signedIn.user.email : signedIn.email} /> : <NewAccountJoin token={token} />;
}

/** A refusal of the link in words that say what to do next. */
function joinRefusal(error: { error_code?: string; message?: string }): string {
  if (error.error_code === 'REQUEST_7004') return 'This invitation link is no longer valid: it was withdrawn or replaced by a newer one. Ask your firm’s admin to invite you again.';
  if (error.error_code === 'AUTH_7018') return 'This invitation is for another email address. Sign out, then open the link again and join with the invited address.';
  return errorText(error);
}

/** The session the accept answered goes into the store, then the console. */
const useFinishJoin = () => useFinishInvite('/console', PENDING_FIRM_INVITE_KEY, joinRefusal);

function NewAccountJoin({ token }: { token: string }) {
  const client = useDataClient();
  const finish = useFinishJoin();
  const navigate = useNavigate();
  const state = useNewAccountForm(async (body) => finish(await client.acceptFirmInvite(token, body)));
  return (
    <AuthCard title={TITLE} onSubmit={state.submit}>
      <p className="muted">Your firm invited you to its advisor console: your clients’ books, proposals and team in one place. Set your name and a password to join.</p>
      <NewAccountFields state={state} />
      <Button type="submit" variant="primary" block loading={state.busy}>
        Join and open the console
      </Button>
      <p className="muted">Already have a Ledgerline account with the invited email?</p>
      <Button block onClick={() => {
        sessionStorage.setItem(PENDING_FIRM_INVITE_KEY, token);
        void navigate({ to: '/sign-in', search: { redirect: '/console/join' } });
      }}>
        Sign in to accept
      </Button>
    </AuthCard>
  );
}

function SignedInJoin({ token, email }: { token: string; email: string | null }) {
  const client = useDataClient();
  const finish = useFinishJoin();
  const [names, setNames] = useState({ first_name: '', last_name: '' });
  const [errors, setErrors] = useState<{ first_name?: string; last_name?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = {
      ...(names.first_name.trim() ? {} : { first_name: 'Enter your first name.' }),
      ...(names.last_name.trim() ? {} : { last_name: 'Enter your last name.' }),
    };
    setErrors(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const result = await client.acceptFirmInviteSignedIn(token, { first_name: names.first_name.trim(), last_name: names.last_name.trim() });
    setError(await finish(result));
    setBusy(false);
  }
  return (
    <AuthCard title={TITLE} onSubmit={submit}>
      <p className="muted">
        You’re signed in as {email ?? 'your account'}. Joining adds your firm’s advisor console to this account; the name is how your firm sees you.
      </p>
      <TextField label="First name" autoComplete="given-name" value={names.first_name} onChange={(first_name) => setNames((n) => ({ ...n, first_name }))} error={errors.first_name} maxLength={100} />
      <TextField label="Last name" autoComplete="family-name" value={names.last_name} onChange={(last_name) => setNames((n) => ({ ...n, last_name }))} error={errors.last_name} maxLength={100} />
      <FormError message={error} />
      <Button type="submit" variant="primary" block loading={busy}>
        Join and open the console
      </Button>
    </AuthCard>
  );
}
