import { useEffect, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Button } from '../../../components/button.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { signedInSession } from '../../../data-access/app-state.ts';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import type { PortalInvite } from '../../../../workers/api.ts';
import { isBusinessSession } from '../../../../workers/contracts/session.ts';
import { errorText } from '../../../lib/error-text.ts';
import { AuthCard } from '../../../components/auth-card.tsx';
import { inviteTokenOf, PENDING_INVITE_KEY } from './portal-rules.ts';
import { NewAccountFields, useFinishInvite, useNewAccountForm } from '../invite-join.tsx';

type Lookup = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'found'; invite: PortalInvite };

/**
 * Issue 31 §2.4: the vendor's invitation link (`/vendor-portal/invite#token=…`, the mail's link;
 * the token stays in the fragment, never sent in a request line). A new email sets a password and
 * names; an email with an account signs in first, then accepts. Either way the vendor lands in the portal.
 */
export function VendorInvitePage() {
  const client = useDataClient();
  const token = inviteTokenOf(window.location.hash, sessionStorage.getItem(PENDING_INVITE_KEY));
  const [answered, setLookup] = useState<Lookup>({ kind: 'loading' });
  const lookup: Lookup = token ? answered : { kind: 'failed', message: 'This link is incomplete. Open the link from the invitation email again.' };
  useEffect(() => {
    if (!token) return;
    let live = true;
    void client.portalInvite(token).then((r) => {
      if (!live) return;
      if (r.ok) setLookup({ kind: 'found', invite: r.invite });
      else if (r.error.error_code === 'REQUEST_7004') setLookup({ kind: 'failed', message: 'This invitation link is no longer valid: it was replaced by a newer one or the payer removed it. Ask the payer to invite you again.' });
      else setLookup({ kind: 'failed', message: errorText(r.error) });
    });
    return () => {
      live = false;
    };
  }, [client, token]);

  if (lookup.kind === 'loading') return <AuthCard title="Join the vendor network"><p className="muted" role="status">Checking your invitation…</p></AuthCard>;
  if (lookup.kind === 'failed') return <AuthCard title="Join the vendor network"><p className="notice notice-error" role="alert">{lookup.message}</p><a href="/sign-in">Go to sign in</a></AuthCard>;
  const { invite } = lookup;
  const title = `${invite.payer_name} invited you to get paid through Ledgerline`;
  if (invite.status !== 'INVITED') {
    return (
      <AuthCard title={title}>
        <p className="notice" role="note">
          {invite.status === 'ACTIVE' ? 'This invitation was already accepted. Sign in to open the vendor portal.' : 'This invitation was declined.'}
        </p>
        <a href="/sign-in">Go to sign in</a>
      </AuthCard>
    );
  }
  return invite.existing_account ? <SignedInAccept token={token!} invite={invite} title={title} /> : <NewAccountAccept token={token!} invite={invite} title={title} />;
}

/** The session the accept answered goes into the store, then the portal. */
const useFinishAccept = () => useFinishInvite('/vendor-portal', PENDING_INVITE_KEY, errorText);

function NewAccountAccept({ token, invite, title }: { token: string; invite: PortalInvite; title: string }) {
  const client = useDataClient();
  const finish = useFinishAccept();
  const state = useNewAccountForm(async (body) => finish(await client.acceptPortalInvite(token, body, null)));
  return (
    <AuthCard title={title} onSubmit={state.submit}>
      <p className="muted">
        See what {invite.payer_name} owes and paid {invite.vendor_name}, and keep your bank and tax details up to date. Set a password for {invite.masked_email}.
      </p>
      <NewAccountFields state={state} />
      <Button type="submit" variant="primary" block loading={state.busy}>Join and open the vendor portal</Button>
    </AuthCard>
  );
}

function SignedInAccept({ token, invite, title }: { token: string; invite: PortalInvite; title: string }) {
  const client = useDataClient();
  const finish = useFinishAccept();
  const navigate = useNavigate();
  const signedIn = useAppState((s) => signedInSession(s));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!signedIn) {
    return (
      <AuthCard title={title}>
        <p className="muted">{invite.masked_email} already has a Ledgerline account. Sign in with it, then accept the invitation.</p>
        <Button variant="primary" block onClick={() => {
          sessionStorage.setItem(PENDING_INVITE_KEY, token);
          void navigate({ to: '/sign-in', search: { redirect: '/vendor-portal/invite' } });
        }}>Sign in to accept</Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={title}>
      <p className="muted">You’re signed in as {isBusinessSession(signedIn) ? signedIn.user.email : (signedIn.email ?? 'your account')}. Accepting adds the vendor portal for {invite.vendor_name} to your account.</p>
      <FormError message={error} />
      <Button variant="primary" block loading={busy} onClick={() => {
        setBusy(true);
        void client.acceptPortalInviteSignedIn(token).then(finish).then((message) => {
          setError(message);
          setBusy(false);
        });
      }}>Accept and open the vendor portal</Button>
    </AuthCard>
  );
}
