import { useEffect, useState } from 'react';
import { useDataClient } from '../../data-access/data-context.tsx';
import { MfaCodeForm, type MfaFormProps } from './mfa-code-form.tsx';
import type { SecondFactor } from '../../data-access/types.ts';
import { MfaEnrolForm } from './mfa-enrol-form.tsx';

type Kind = { kind: 'checking' } | { kind: 'verify'; factors?: SecondFactor[] } | { kind: 'enrol'; email: string | null };

/**
 * The second factor of a sign-in the worker holds as pending (re-sign-in, business switch): the
 * code or passkey form, or the first enrolment when the person has no factor yet (MFA newly enforced).
 * A failing check (MFA down, offline) falls back to the code form, which says why on submit.
 */
export function MfaStep({ downMessage, onVerified, onCancel }: MfaFormProps) {
  const client = useDataClient();
  const [step, setStep] = useState<Kind>({ kind: 'checking' });
  useEffect(() => {
    let live = true;
    void client.pendingMfaStatus().then(
      (s) => {
        if (!live) return;
        if (!s.ok) setStep({ kind: 'verify' });
        else setStep(s.factors.length === 0 ? { kind: 'enrol', email: s.email } : { kind: 'verify', factors: s.factors });
      },
      () => live && setStep({ kind: 'verify' }),
    );
    return () => {
      live = false;
    };
  }, [client]);

  if (step.kind === 'checking') return <p className="muted">Checking two-factor authentication…</p>;
  if (step.kind === 'enrol') {
    return <MfaEnrolForm email={step.email} downMessage={downMessage} onVerified={onVerified} onCancel={onCancel} />;
  }
  return <MfaCodeForm downMessage={downMessage} onVerified={onVerified} onCancel={onCancel} factors={step.factors} />;
}
