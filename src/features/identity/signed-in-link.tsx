import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { fullName } from '../../../schema/entities/spend-user.ts';
import { Button } from '../../components/button.tsx';
import type { BusinessSessionInfo as SessionInfo } from '../../data-access/types.ts';
import { HOME_PATH } from '../../lib/redirect.ts';
import { useSignOut } from '../../lib/use-sign-out.ts';
import { AuthCard } from '../../components/auth-card.tsx';

/**
 * An invite or sign-in link opened by someone already signed in on this device (issue 14): the
 * link is for whoever it was sent to, so nothing is used behind their back. They carry on as
 * themselves, or sign out here and the page goes on with the link (the link stays valid).
 */
export function SignedInLinkNotice({ session, purpose }: { session: SessionInfo; purpose: 'invite' | 'sign-in link' }) {
  const signOut = useSignOut({ stay: true });
  const [busy, setBusy] = useState(false);
  const who = fullName(session.user) || session.user.email;
  async function leave() {
    setBusy(true);
    try {
      await signOut(false);
    } finally {
      setBusy(false);
    }
  }
  return (
    <AuthCard title={purpose === 'invite' ? 'Your invite' : 'Sign-in link'}>
      <p>
        You’re signed in as <strong>{who}</strong> ({session.user.email}) at {session.business.name}.
      </p>
      <p className="muted">
        {purpose === 'invite'
          ? 'To accept this invite, sign out first: the invite stays valid until it is accepted.'
          : 'This link signs in the person it was emailed to. Sign out first to use it.'}
      </p>
      <Button variant="primary" block loading={busy} onClick={() => void leave()}>
        {purpose === 'invite' ? 'Sign out and open the invite' : 'Sign out and use the link'}
      </Button>
      <p className="card-footer">
        <Link to={HOME_PATH}>Continue as {who}</Link>
      </p>
    </AuthCard>
  );
}
