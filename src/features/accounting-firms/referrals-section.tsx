import { useEffect, useState } from 'react';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section } from '../../components/section.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { errorText } from '../../lib/error-text.ts';
import { seesReferrals } from './firm-rights.ts';

type Referral = { firm: { id: string; name: string } | null };

/**
 * Settings → Accounting firms → Referral (issue 31, `referrals.list`): the accounting firm whose
 * referral code this business signed up with, or none. Shown only to the business's own people
 * (§6 canViewReferrals: never to a firm user acting in it). Read on the server: offline says so.
 */
export function ReferralsSection({ online }: { online: boolean }) {
  const client = useDataClient();
  const shown = useAppState((s) => seesReferrals(s.session));
  const [answer, setAnswer] = useState<Referral | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!shown) return;
    let live = true;
    void client.businessReferral().then((r) => {
      if (!live) return;
      if (r.ok) {
        setAnswer({ firm: r.firm });
        setError(null);
      } else setError('offline' in r ? 'You’re offline. Who referred your business is read on the server: it shows once you’re back online.' : errorText(r.error));
    });
    return () => {
      live = false;
    };
  }, [client, shown, online]);

  if (!shown) return null;
  return (
    <Section title="Referral" description="The accounting firm whose referral code your business signed up with.">
      <FormError message={error} />
      {!answer && !error && (
        <div aria-busy="true">
          <span className="sr-only">Loading who referred your business…</span>
          <Skeleton height={40} />
        </div>
      )}
      {answer?.firm === null && (
        <EmptyState title="No referral" level="text">
          Your business signed up without a firm’s referral code. A firm can still work with you: accept its proposal above or invite it below.
        </EmptyState>
      )}
      {answer?.firm && (
        <p className="firm-referral">
          <strong>{answer.firm.name}</strong> referred your business to Ledgerline.
        </p>
      )}
    </Section>
  );
}
