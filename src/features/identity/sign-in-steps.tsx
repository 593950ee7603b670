import { useState, type ReactNode } from 'react';
import { mfaDownMessage, type WebConfig } from '../../../schema/web-config.ts';
import { useDataClient } from '../../data-access/data-context.tsx';
import type { SignInResult } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { AuthCard } from '../../components/auth-card.tsx';
import { MfaCodeForm } from './mfa-code-form.tsx';
import { MfaEnrolForm } from './mfa-enrol-form.tsx';
import { useFinishSignIn } from './sign-in-page.tsx';

type Step = null | { kind: 'verify' } | { kind: 'enrol'; email: string | null };

/**
 * What the sign-in page does with a sign-in's answer, for the pages that sign in another way
 * (invite acceptance, sign-in links): signed in → the store and on into the app; MFA pending → the
 * code step, or the first enrolment when no authenticator exists yet. `view` is that step's card.
 */
export function useSignInSteps(config: WebConfig | null, redirect?: string) {
  const client = useDataClient();
  const finish = useFinishSignIn(redirect);
  const [step, setStep] = useState<Step>(null);

  /** Null when signed in or waiting for the second factor; else the refusal in words. */
  async function handle(result: SignInResult): Promise<string | null> {
    if (result.ok) {
      await finish(result);
      return null;
    }
    if (result.mfa_required) {
      const mfa = await client.pendingMfaStatus();
      setStep(mfa.ok && !mfa.totp_enrolled ? { kind: 'enrol', email: mfa.email } : { kind: 'verify' });
      return null;
    }
    return errorText(result.error);
  }

  const down = config?.isMfaDown ? mfaDownMessage(config) : null;
  let view: ReactNode = null;
  if (step?.kind === 'enrol') {
    view = (
      <AuthCard title="Set up two-factor authentication">
        <MfaEnrolForm email={step.email} downMessage={down} onVerified={finish} onCancel={() => setStep(null)} />
      </AuthCard>
    );
  } else if (step) {
    view = (
      <AuthCard title="Two-factor authentication">
        <MfaCodeForm downMessage={down} onVerified={finish} onCancel={() => setStep(null)} />
      </AuthCard>
    );
  }
  return { handle, view };
}
