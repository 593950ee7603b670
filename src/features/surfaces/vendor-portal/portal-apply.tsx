import { useRef, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { toastInfo } from '../../../lib/toast-store.ts';
import { useFinishScopeSwitch } from '../scope-picker.tsx';
import { prefilledText } from './portal-rules.ts';

/**
 * "Apply for Ledgerline for your own business" (issue 31, §7 "PUT financing applications for
 * vendor"): starts an application prefilled from the vendor profile (a client-made id, so a retry
 * is the same application), then switches this session to it and lands on `/application`, saying
 * what was prefilled.
 */
export function ApplyCard() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const finish = useFinishScopeSwitch();
  const id = useRef<string>(crypto.randomUUID());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function apply() {
    setBusy(true);
    setError(null);
    try {
      const started = await client.startVendorApplication(id.current);
      if (!started.ok) return setError(errorText(started.error));
      const { financing_application_id, prefilled } = started.start;
      const switched = await client.switchScope({ kind: 'FINANCING_APPLICATION', financing_application_id });
      if (!switched.ok) {
        return setError(switched.mfa_required
          ? 'Your application is started. This account asks for two-factor authentication: open it from Switch account in the account menu.'
          : `Your application is started, but it could not be opened: ${errorText(switched.error)} Open it from Switch account in the account menu.`);
      }
      toastInfo(prefilledText(prefilled));
      await finish(switched.session, switched.left_behind);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card portal-apply" aria-labelledby="portal-apply-title">
      <h2 id="portal-apply-title">Apply for Ledgerline for your own business</h2>
      <p className="muted">Cards, bill pay and expense management for your company. Your application starts with what your vendor profile already holds:</p>
      <ul className="muted">
        <li>your legal name as the business name</li>
        <li>your ACH bank account, when you saved one</li>
      </ul>
      <FormError message={error} />
      <div>
        <Button variant="primary" loading={busy} disabled={!online} onClick={() => void apply()}>
          {online ? 'Start an application' : 'Starting an application needs a connection'}
        </Button>
      </div>
      <p className="muted small">You can come back to the vendor portal any time from Switch account.</p>
    </section>
  );
}
