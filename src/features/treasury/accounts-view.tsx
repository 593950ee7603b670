import { useId } from 'react';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { formatMoney } from '../../lib/format.ts';
import { KIND_LABELS, sortAccounts, totalsText } from './treasury-words.ts';
import type { WalletRow } from './use-treasury.ts';

export interface AccountsViewProps {
  /** null: the worker has not answered yet. */
  accounts: WalletRow[] | null;
  downloading: boolean;
  selectedId: string | null;
  onSelect(id: string): void;
}

/**
 * The wallet accounts from the mirror (offline too): balance (what can be moved now), pending in
 * and out, primary badge, a queued transfer's hold marked "Waiting to sync"; the loading and empty
 * states (a mirror still downloading says so). Pure: the page passes the rows.
 */
export function AccountsView({ accounts, downloading, selectedId, onSelect }: AccountsViewProps) {
  const headingId = useId();
  if (accounts === null) {
    return (
      <div className="tr-accounts" aria-busy="true"><span className="sr-only">Loading accounts…</span>
        <Skeleton height={112} /><Skeleton height={112} />
      </div>
    );
  }
  if (accounts.length === 0) {
    return downloading ? (
      <EmptyState title="Downloading your accounts">
        <p>Your wallet accounts are still downloading to this device for offline use. They show here as soon as they arrive.</p>
      </EmptyState>
    ) : (
      <EmptyState title="No wallet accounts yet">
        <p>The business’s operating, reserve and investment accounts show here with their balances once they are opened.</p>
      </EmptyState>
    );
  }
  const rows = sortAccounts(accounts);
  return (
    <section aria-labelledby={headingId} className="tr-accounts-section">
      <div className="section-row">
        <h2 id={headingId}>Accounts</h2>
        <p className="tr-total"><span className="muted">Total available</span> <strong>{totalsText(rows)}</strong></p>
      </div>
      {downloading && <p className="notice" role="status">Still downloading: some figures may not be on this device yet.</p>}
      <ul className="tr-accounts" aria-label="Wallet accounts">
        {rows.map((a) => {
          const nameId = `${headingId}-${a.id}`;
          const selected = a.id === selectedId;
          return (
            <li key={a.id}>
              <article className={selected ? 'tr-account selected' : 'tr-account'} aria-labelledby={nameId}>
                <div className="tr-account-head">
                  <h3 id={nameId}>{a.name}</h3>
                  <span className="muted">{KIND_LABELS[a.kind]}</span>
                  {a.is_primary && <StatusPill tone="ok" title="Bill payments, claims and card settlements in this currency draw on it">Primary</StatusPill>}
                  <SyncMark row={{ pending: a.pending ?? null, failure: a.failure ?? null }} />
                </div>
                <p className="tr-balance">
                  <span className="tr-balance-amount">{formatMoney(a.balance, a.currency)}</span> <span className="tr-currency">{a.currency}</span>
                  <span className="sr-only"> available</span>
                </p>
                <dl className="tr-pending">
                  <div><dt>Pending in</dt><dd>{formatMoney(a.pending_in, a.currency)} {a.currency}</dd></div>
                  <div><dt>Pending out</dt><dd>{formatMoney(a.pending_out, a.currency)} {a.currency}</dd></div>
                </dl>
                <Button size="sm" variant={selected ? 'primary' : 'secondary'} aria-pressed={selected} onClick={() => onSelect(a.id)}>
                  History and activity<span className="sr-only"> of {a.name}</span>
                </Button>
              </article>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
