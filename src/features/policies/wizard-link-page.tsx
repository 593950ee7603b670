import { useEffect, useState } from 'react';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ListSkeleton } from '../../components/skeleton.tsx';
import { ReceiptCapture } from '../../components/receipt-capture.tsx';
import { formatCount, formatDay, formatMoney } from '../../lib/format.ts';
import { addLinkReceipt, dropWizardLinkToken, LinkCallError, linkItems, wizardLinkToken, type LinkItem } from './wizard-link.ts';

type State =
  | { kind: 'loading' }
  | { kind: 'no-link' }
  | { kind: 'refused'; message: string }
  | { kind: 'unreachable' }
  | { kind: 'walk'; items: LinkItem[]; at: number; added: number; other: number };

const signIn = <a className="btn btn-primary" href="/sign-in?redirect=%2Fmissing-items">Sign in</a>;

/**
 * Issue 29: /missing-items/link, where the reminder mail's link lands (wizard-link.ts took the
 * token off the address). The restricted mode of the wizard: no sign-in, this person's items that
 * miss a receipt, one at a time, a photo each, straight to the server (online only: nothing is
 * kept on a device nobody signed in to). Memos and coding need signing in.
 */
export function WizardLinkPage() {
  const [state, setState] = useState<State>(() => (wizardLinkToken() ? { kind: 'loading' } : { kind: 'no-link' }));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const token = wizardLinkToken();

  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!token) return;
    linkItems(fetch, token).then(
      ({ items, other }) => setState({ kind: 'walk', items, at: 0, added: 0, other }),
      // Offline or the server unreachable: say so and offer a retry (nothing is kept on this device).
      (e: unknown) => setState(e instanceof LinkCallError ? { kind: 'refused', message: refusal(e) } : { kind: 'unreachable' }),
    );
  }, [token, attempt]);

  async function add(item: LinkItem, files: File[]) {
    if (!token || !files[0]) return;
    setBusy(true);
    setError(null);
    try {
      await addLinkReceipt(fetch, token, item, files[0]);
      setState((s) => (s.kind === 'walk' ? { ...s, at: s.at + 1, added: s.added + 1 } : s));
    } catch (e) {
      if (e instanceof LinkCallError && e.expired) setState({ kind: 'refused', message: refusal(e) });
      else setError(refusal(e));
    } finally {
      setBusy(false);
    }
  }

  const current = state.kind === 'walk' ? state.items[state.at] : undefined;
  return (
    <main className="page page-narrow missing-items missing-link" aria-labelledby="missing-link-title">
      <div className="page-header">
        <h1 id="missing-link-title">Add your receipts</h1>
        <span className="spacer" />
        {state.kind === 'walk' && current && <span className="missing-progress-text" aria-live="polite">{state.at + 1} of {state.items.length}</span>}
      </div>
      <p className="notice" role="note">You are not signed in: this link only adds receipts. Sign in to add memos and coding.</p>
      {state.kind === 'loading' && <ListSkeleton what="missing items" />}
      {state.kind === 'no-link' && (
        <EmptyState title="Open the link from your email again" action={signIn}>This page needs the link from the reminder email, and it works once per visit.</EmptyState>
      )}
      {state.kind === 'unreachable' && (
        <EmptyState title="Can’t reach Ledgerline" action={<Button variant="primary" onClick={() => { setState({ kind: 'loading' }); setAttempt((n) => n + 1); }}>Try again</Button>}>
          This page needs a connection: receipts added here go straight to the server.
        </EmptyState>
      )}
      {state.kind === 'refused' && <EmptyState title="This link no longer works" action={signIn}>{state.message}</EmptyState>}
      {state.kind === 'walk' && !current && (
        <EmptyState title={state.items.length === 0 ? 'No receipts missing' : 'All done'} action={signIn}>
          {state.added > 0 ? `You added ${formatCount(state.added)} ${state.added === 1 ? 'receipt' : 'receipts'}. ` : ''}
          {state.other > 0 ? `${formatCount(state.other)} ${state.other === 1 ? 'item still needs' : 'items still need'} a memo or coding: sign in to add them.` : ''}
        </EmptyState>
      )}
      {state.kind === 'walk' && current && (
        <section className="wizard-item" aria-labelledby="link-item-title">
          <header className="wizard-item-head">
            <h2 id="link-item-title">{current.merchant}</h2>
            <span className="wizard-item-amount">{formatMoney(current.amount, current.currency)}</span>
            <span className="wizard-item-date">{formatDay(`${current.date}T12:00:00Z`)} · {current.object_type === 'transaction' ? 'Card charge' : 'Claim'}</span>
          </header>
          <ul className="wizard-missing">
            {current.violations.filter((v) => v.code === 'missing_receipt').map((v) => <li key={v.policy_id}>{v.message}</li>)}
          </ul>
          <ReceiptCapture onFiles={(files) => void add(current, files)} disabled={busy} label="Take a photo of the receipt" accept="image/*,application/pdf" multiple={false} hint="or choose a photo" />
          {error && <p className="form-error" role="alert">{error}</p>}
          <div className="wizard-actions">
            <span className="spacer" />
            <Button onClick={() => setState((s) => (s.kind === 'walk' ? { ...s, at: s.at + 1 } : s))} disabled={busy}>Skip</Button>
          </div>
        </section>
      )}
    </main>
  );
}

function refusal(e: unknown): string {
  if (e instanceof LinkCallError && e.expired) {
    dropWizardLinkToken();
    return 'It has expired or you signed out everywhere since it was sent. Sign in to see your missing items.';
  }
  return e instanceof LinkCallError ? e.message : 'Can’t reach Ledgerline. Check your connection and try again.';
}
