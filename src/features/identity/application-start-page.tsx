import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { AuthCard } from '../../components/auth-card.tsx';
import { inviteLinkOf } from './application-invite-link.ts';
import { MfaCodeForm } from './mfa-code-form.tsx';
import { useFinishSignIn } from './sign-in-page.tsx';

/**
 * Issue 31: `/application/start` (guest) — "Apply for Ledgerline": email and names (a referral code
 * from `?ref=`), then the mailed 6-digit code, then the application. Wrong or expired codes and an
 * email whose domain signs in with SSO (AUTH_7022) are said in words. An invite's link
 * (`?application=&invite=`, application-invite-link.ts) joins that application as a co-applicant:
 * the code is verified with its token, and the application's page says whose it is.
 */
const CODE_WORDS: Record<string, string> = {
  AUTH_7022: 'Your company signs in to Ledgerline with single sign-on. Ask your administrator, or apply with another email.',
  PROFILE_7016: 'That code has expired. Send a new code.',
  PROFILE_7017: 'That code is not right. Check the email and try again.',
};
/** application.verify with an invite's token: 404 when it was withdrawn, used, expired, or sent to another address. */
const INVITE_GONE = 'This invite no longer works: it was withdrawn, already used or has expired, or was sent to another email address. Ask the applicant to invite you again.';
const words = (e: { error_code?: string; message?: string }) => CODE_WORDS[e.error_code ?? ''] ?? errorText(e);

export function ApplicationStartPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const [invite] = useState(() => inviteLinkOf(location.search));
  const link = invite === 'broken' ? null : invite;
  const joining = link !== null;
  const finish = useFinishSignIn(joining ? '/application?joined=1' : '/application');
  const [form, setForm] = useState(() => ({ email: '', first_name: '', last_name: '', referral_code: new URLSearchParams(location.search).get('ref') ?? '' }));
  const [sent, setSent] = useState(false);
  const [code, setCode] = useState('');
  const [mfa, setMfa] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start() {
    const { referral_code, ...rest } = form;
    const r = await client.applicationStart({ ...rest, email: rest.email.trim(), ...(referral_code.trim() ? { referral_code: referral_code.trim() } : {}) });
    if (r.ok) {
      setSent(true);
      setNote(`We emailed a 6-digit code to ${form.email.trim()}. It works for 10 minutes.`);
    } else {
      setError(words(r.error));
      setFieldErrors(r.error.errors ?? {});
    }
  }
  async function verify() {
    if (!/^\d{6}$/.test(code.trim())) {
      setFieldErrors({ code: 'Enter the 6 digits from the email.' });
      return;
    }
    const r = await client.applicationVerify(form.email.trim(), code.trim(), link ?? undefined);
    if (r.ok) await finish(r);
    else if (r.mfa_required) setMfa(true);
    else setError(joining && r.error.error_code === 'REQUEST_7004' ? INVITE_GONE : words(r.error));
  }
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      await (sent ? verify() : start());
    } finally {
      setBusy(false);
    }
  }

  if (mfa) {
    return (
      <AuthCard title="Two-factor authentication">
        <MfaCodeForm downMessage={null} onVerified={finish} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={joining ? 'Join an application' : 'Apply for Ledgerline'} onSubmit={onSubmit}>
      {!online && <p className="notice notice-warn">{`You’re offline. ${joining ? 'Joining' : 'Starting'} an application needs a connection.`}</p>}
      {invite === 'broken' && (
        <p className="notice notice-warn" role="status">This invite link is incomplete. Open it again from the email, or ask for a new invite. You can still start an application of your own below.</p>
      )}
      {!sent ? (
        <>
          {joining ? (
            <p className="muted">You’re joining a Ledgerline financing application you were invited to help with. Enter the email address the invite was sent to; we’ll email you a code to confirm it.</p>
          ) : (
            <p className="muted">Tell us who you are. We’ll email you a code to confirm your address; your answers are then saved as you go.</p>
          )}
          <TextField label="Work email" type="email" name="email" autoComplete="email" required value={form.email} error={fieldErrors.email} onChange={(v) => setForm({ ...form, email: v })} />
          <TextField label="First name" name="first_name" autoComplete="given-name" required value={form.first_name} error={fieldErrors.first_name} onChange={(v) => setForm({ ...form, first_name: v })} />
          <TextField label="Last name" name="last_name" autoComplete="family-name" required value={form.last_name} error={fieldErrors.last_name} onChange={(v) => setForm({ ...form, last_name: v })} />
          {!joining && (
            <TextField label="Referral code (optional)" name="referral_code" value={form.referral_code} error={fieldErrors.referral_code} onChange={(v) => setForm({ ...form, referral_code: v })} />
          )}
        </>
      ) : (
        <>
          {note && <p role="status">{note}</p>}
          <TextField label="6-digit code" name="code" autoComplete="one-time-code" required maxLength={6} value={code} error={fieldErrors.code} onChange={setCode} autoFocus />
        </>
      )}
      <FormError message={error} />
      <Button type="submit" variant="primary" block loading={busy} disabled={!online}>
        {sent ? 'Continue' : 'Email me a code'}
      </Button>
      {sent && (
        <Button variant="ghost" block disabled={!online || busy} onClick={() => { setBusy(true); setError(null); void start().finally(() => setBusy(false)); }}>
          Send a new code
        </Button>
      )}
    </AuthCard>
  );
}
