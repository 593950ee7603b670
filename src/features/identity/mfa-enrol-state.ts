import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useDataClient } from '../../data-access/data-context.tsx';
import type { TotpSetup } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { createPasskey } from '../../lib/passkeys.ts';

/** `verify-passkey`: a passkey was registered instead of the app; it finishes the sign-in too. */
type Phase = 'starting' | 'enrol' | 'verify' | 'verify-passkey';
/** The first passkey's name (renamed in Settings later). */
const FIRST_PASSKEY_NAME = 'Passkey';

/**
 * The enrolment's steps: the authenticator started and the email code mailed once (StrictMode
 * safe), then either the app turned on with both codes or a passkey registered with the email code.
 */
export function useMfaEnrolment(email: string | null, downMessage: string | null) {
  const client = useDataClient();
  const [phase, setPhase] = useState<Phase>('starting');
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [emailCode, setEmailCode] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [mailed, setMailed] = useState(false);
  // StrictMode runs effects twice: a second start would replace the authenticator and mail again.
  const started = useRef(false);

  async function sendCode(again: boolean) {
    const sent = await client.sendEmailCode();
    if (!sent.ok) {
      setError(errorText(sent.error));
      return;
    }
    setMailed(true);
    if (again) setNotice(`We sent a new code to ${email ?? 'your email address'}.`);
  }

  useEffect(() => {
    if (started.current || downMessage) return;
    started.current = true;
    void (async () => {
      const r = await client.startTotp();
      if (!r.ok) {
        setError(errorText(r.error));
        return;
      }
      setSetup(r.setup);
      setPhase('enrol');
      await sendCode(false);
    })();
    // Runs once per enrolment step: the client and the step's props do not change under it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!setup) return;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const r = await client.verifyTotp(setup.authenticator_id, code, emailCode);
      if (r.ok) setPhase('verify');
      else setError(errorText(r.error));
    } finally {
      setBusy(false);
    }
  }

  async function enrolPasskey() {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const options = await client.passkeyRegistrationOptions();
      if (!options.ok) return setError(errorText(options.error));
      const created = await createPasskey(options.options);
      if (!created.ok) return setError(created.message);
      const saved = await client.registerPasskey(created.value, FIRST_PASSKEY_NAME, emailCode);
      if (!saved.ok) return setError(errorText(saved.error));
      setPhase('verify-passkey');
    } finally {
      setBusy(false);
    }
  }

  async function resend() {
    setError(null);
    setNotice(null);
    await sendCode(true);
  }

  return { phase, setup, emailCode, setEmailCode, code, setCode, error, notice, busy, mailed, onSubmit, enrolPasskey, resend };
}
