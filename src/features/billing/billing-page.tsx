import { useCallback, useEffect, useState } from 'react';
import { CANCEL_REASONS, type BillingSubscription, type CancelSubscriptionBody } from '../../../schema/api/calls-platform.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section, SettingRow } from '../../components/section.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { formatMoney } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; items: BillingSubscription[] };
type Asking = { action: 'start' | 'cancel'; sub: BillingSubscription } | null;

const REASON_LABELS: Record<(typeof CANCEL_REASONS)[number], string> = {
  TOO_EXPENSIVE: 'It costs too much',
  NOT_USING: 'We are not using it',
  MISSING_FEATURES: 'It is missing something we need',
  SWITCHING: 'We are moving to another product',
  OTHER: 'Another reason',
};
const REASON_CHOICES = CANCEL_REASONS.map((value) => ({ value, label: REASON_LABELS[value] }));

const price = (s: BillingSubscription) => `${formatMoney(s.monthly_price.amount, s.monthly_price.currency)} per month`;
const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }) : '');

function statusText(s: BillingSubscription): string {
  if (s.status === 'ACTIVE') return `Active · ${price(s)} · next charge ${day(s.current_period_end)}`;
  if (s.status === 'CANCELING') return `Canceled · ends ${day(s.current_period_end)}, nothing more is charged`;
  return `Not subscribed · ${price(s)}`;
}

/**
 * Settings → Billing (issue 32), owners and admins: the business's Ledgerline plan and add-ons,
 * what each costs per month in USD, and starting or canceling each after a confirmation that
 * states the price and when it is charged. Online only: billing is decided on the server.
 */
export function BillingPage() {
  const user = useAppState((s) => s.session?.user);
  return (
    <div className="page">
      <div className="page-narrow">
        <h1>Billing</h1>
        {user && isAdmin(user) ? <Subscriptions /> : <p className="notice">Only owners and admins can see and change the business&apos;s plan.</p>}
      </div>
    </div>
  );
}

function Subscriptions() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [asking, setAsking] = useState<Asking>(null);
  const [reason, setReason] = useState<CancelSubscriptionBody['reason']>('TOO_EXPENSIVE');
  const [feedback, setFeedback] = useState('');
  const [error, setError] = useState<string | null>(null);

  const apply = useCallback((r: { ok: true; items: BillingSubscription[] } | { ok: false; error: Parameters<typeof errorText>[0] }) => {
    setLoaded(r.ok ? { state: 'ready', items: r.items } : { state: 'failed', message: errorText(r.error) });
  }, []);
  const load = useCallback(() => void client.billingSubscriptions().then(apply), [client, apply]);
  useEffect(() => {
    let live = true;
    void client.billingSubscriptions().then((r) => live && apply(r));
    return () => {
      live = false;
    };
  }, [client, apply]);

  function close() {
    setAsking(null);
    setError(null);
    setFeedback('');
  }
  async function confirm(): Promise<boolean> {
    if (!asking) return false;
    const { action, sub } = asking;
    const r = action === 'start'
      ? await client.startSubscription(sub.product)
      : await client.cancelSubscription(sub.product, { reason, ...(feedback.trim() && { feedback: feedback.trim() }) });
    if (!r.ok) {
      setError(errorText(r.error));
      return false;
    }
    setLoaded((l) => (l.state === 'ready' ? { state: 'ready', items: l.items.map((s) => (s.product === sub.product ? r.subscription : s)) } : l));
    toastInfo(action === 'start' ? `${sub.name} is active.` : `${sub.name} is canceled and ends ${day(r.subscription.current_period_end)}.`);
    return true;
  }

  if (loaded.state === 'loading') return <p className="muted" role="status">Loading your plan…</p>;
  if (loaded.state === 'failed') {
    return (
      <div className="notice notice-error" role="alert">
        <span>{online ? loaded.message : 'You’re offline. Billing needs a connection: connect to see your plan.'}</span>
        <div><Button onClick={load}>Try again</Button></div>
      </div>
    );
  }
  const plans = loaded.items.filter((s) => s.kind === 'PLAN');
  const addOns = loaded.items.filter((s) => s.kind === 'ADD_ON');
  const row = (s: BillingSubscription) => (
    <SettingRow key={s.product} title={s.name} description={<><span>{s.description}</span><br /><span className="muted">{statusText(s)}</span></>}>
      {s.status === 'ACTIVE'
        ? <Button variant="danger" disabled={!online} onClick={() => setAsking({ action: 'cancel', sub: s })}>Cancel</Button>
        : <Button variant="primary" disabled={!online} onClick={() => setAsking({ action: 'start', sub: s })}>{s.status === 'CANCELING' ? 'Keep it' : 'Start'}</Button>}
    </SettingRow>
  );
  return (
    <>
      {!online && <p className="notice notice-warn">You’re offline. Changing your plan needs a connection: nothing is sent until you’re back.</p>}
      <Section title="Plan" description="Every business has Ledgerline Standard at no cost. Plus adds the controls larger teams need.">
        {plans.map(row)}
      </Section>
      <Section title="Add-ons" description="Flat monthly prices per business, in US dollars.">
        {addOns.map(row)}
      </Section>
      {asking?.action === 'start' && (
        <ConfirmDialog
          title={asking.sub.status === 'CANCELING' ? `Keep ${asking.sub.name}?` : `Start ${asking.sub.name}?`}
          description={asking.sub.status === 'CANCELING'
            ? `It stays active and renews on ${day(asking.sub.current_period_end)} at ${price(asking.sub)}. Nothing is charged now.`
            : `${price(asking.sub)}, charged today for the first month and then on the same day each month until you cancel.`}
          confirmLabel={asking.sub.status === 'CANCELING' ? 'Keep it' : `Start for ${price(asking.sub)}`}
          onClose={close}
          onConfirm={confirm}
        >
          <FormError message={error} />
        </ConfirmDialog>
      )}
      {asking?.action === 'cancel' && (
        <ConfirmDialog
          title={`Cancel ${asking.sub.name}?`}
          description={`It stays active until ${day(asking.sub.current_period_end)}, the end of the month already paid, and is not charged again. You can keep it until then.`}
          confirmLabel={`Cancel ${asking.sub.name}`}
          cancelLabel="Keep it"
          tone="danger"
          onClose={close}
          onConfirm={confirm}
        >
          <div className="stack">
            <SelectField label="Why are you canceling?" value={reason} options={REASON_CHOICES} onChange={(v) => setReason(v as CancelSubscriptionBody['reason'])} />
            <label className="field">
              <span className="field-label">Anything we should know? (optional)</span>
              <textarea value={feedback} maxLength={2000} rows={3} onChange={(e) => setFeedback(e.target.value)} />
            </label>
            <FormError message={error} />
          </div>
        </ConfirmDialog>
      )}
    </>
  );
}
