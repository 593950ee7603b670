import { useEffect, useState, type FormEvent } from 'react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { INVITE_PASSWORD_MIN_LENGTH, type InviteLookup } from '../../../schema/api/calls-admin.ts';
import { ERROR_CATALOGUE } from '../../../schema/errors.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { formatDay } from '../../lib/format.ts';
import { AuthCard } from '../../components/auth-card.tsx';
import { SignedInLinkNotice } from './signed-in-link.tsx';
import { useSignInSteps } from './sign-in-steps.tsx';
import { useWebConfig } from './sign-in-page.tsx';

const routeApi = getRouteApi('/_guest/invites/$token');

export function InviteRoute() {
  const { token } = routeApi.useParams();
  const session = useAppState((s) => s.session);
  return session ? <SignedInLinkNotice session={session} purpose="invite" /> : <InvitePage token={token} />;
}

type Lookup = { state: 'loading' } | { state: 'found'; invite: InviteLookup } | { state: 'failed'; message: string; offline: boolean };

/**
 * `/invites/:token`, the link in the invite email (issue 14): who invited whom to which business,
 * then a password (a new one, or the person's existing Ledgerline password when the email already
 * has an account) and "Accept", which signs in through the sign-in page's own steps (MFA too).
 * An expired or used invite says so in §8's words, with what to do next.
 */
export function InvitePage({ token }: { token: string }) {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const config = useWebConfig();
  const steps = useSignInSteps(config);
  const [lookup, setLookup] = useState<Lookup>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void client.inviteDetails(token).then((r) => {
      if (!live) return;
      setLookup(r.ok ? { state: 'found', invite: r.invite } : { state: 'failed', message: errorText(r.error), offline: r.offline === true });
    });
    return () => {
      live = false;
    };
  }, [client, token, attempt]);

  if (steps.view) return steps.view;
  if (lookup.state === 'loading') {
    return (
      <AuthCard title="Your invite">
        <p className="muted" role="status">Opening your invite…</p>
      </AuthCard>
    );
  }
  if (lookup.state === 'failed') {
    return (
      <AuthCard title={lookup.offline ? 'You’re offline' : 'Invite not found'}>
        <p className="notice notice-error" role="alert">
          {lookup.offline ? 'Opening an invite needs a connection. Connect, then try again.' : `${lookup.message} Check that you opened the newest invite email, or ask your admin to send a new one.`}
        </p>
        {lookup.offline && <Button variant="primary" block onClick={() => setAttempt((n) => n + 1)}>Try again</Button>}
        <p className="card-footer"><Link to="/sign-in">Go to sign-in</Link></p>
      </AuthCard>
    );
  }

  const { invite } = lookup;
  const who = (
    <p className="invite-who" data-testid="invite-who">
      {invite.inviter_name ? <><strong>{invite.inviter_name}</strong> invited </> : 'You were invited as '}
      <strong>{invite.email}</strong> to join <strong>{invite.business_name}</strong> on Ledgerline.
    </p>
  );
  if (invite.status !== 'pending') {
    const expired = invite.status === 'expired';
    return (
      <AuthCard title={expired ? 'This invite has expired' : 'This invite was already accepted'}>
        {who}
        <p className={expired ? 'notice notice-warn' : 'notice'} role="status">
          {expired ? ERROR_CATALOGUE.AUTH_7027.message : 'This invite has already been accepted. Sign in with your email and password.'}
        </p>
        <p className="card-footer"><Link to="/sign-in">Go to sign-in</Link></p>
      </AuthCard>
    );
  }

  const mismatch = !invite.existing_account && confirm !== '' && confirm !== password;
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!invite.existing_account && password !== confirm) return setError('The two passwords differ.');
    setBusy(true);
    setError(null);
    try {
      setError(await steps.handle(await client.acceptInvite(token, password)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title={`Join ${invite.business_name}`} onSubmit={onSubmit}>
      {who}
      {!online && <p className="notice notice-warn">You are offline. Accepting the invite needs a connection.</p>}
      {invite.existing_account ? (
        <>
          <p className="muted">You already have a Ledgerline account with this email: enter its password to add {invite.business_name} to it.</p>
          <TextField label="Your Ledgerline password" type="password" name="password" autoComplete="current-password" required autoFocus value={password} onChange={setPassword} />
        </>
      ) : (
        <>
          <TextField label="Create a password" type="password" name="password" autoComplete="new-password" required autoFocus value={password} onChange={setPassword}
            hint={`At least ${INVITE_PASSWORD_MIN_LENGTH} characters.`} />
          <TextField label="Confirm password" type="password" name="confirm-password" autoComplete="new-password" required value={confirm} onChange={setConfirm}
            error={mismatch ? 'The two passwords differ.' : null} />
        </>
      )}
      <FormError message={error} />
      <Button type="submit" variant="primary" block loading={busy}
        disabled={password.length < INVITE_PASSWORD_MIN_LENGTH || (!invite.existing_account && password !== confirm)}>
        Accept invite
      </Button>
      <p className="card-footer muted">The invite is valid until {formatDay(invite.expires_at)}.</p>
    </AuthCard>
  );
}
