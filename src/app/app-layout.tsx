import { useEffect, useRef } from 'react';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { roleDisplayName } from '../../schema/roles.ts';
import { fullName } from '../../schema/entities/spend-user.ts';
import { useAppStore, useAppState, useDataClient } from '../data-access/data-context.tsx';
import { SyncIndicator } from './sync-indicator.tsx';
import { mirrorProgress } from './sync-text.ts';
import { toastError } from './toast-store.ts';

/** The signed-in shell: top bar (brand, main navigation, sync, user), offline banner, progress. */
export function AppLayout() {
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  useSessionExpiry();
  return (
    <div className="app">
      <header className="topbar">
        <Link to="/transactions" className="brand" aria-label="Ledgerline home">
          <img src="/favicon.svg" alt="" width={22} height={22} />
          <span>Ledgerline</span>
        </Link>
        <nav aria-label="Main" className="main-nav">
          <Link to="/transactions" activeProps={{ className: 'active', 'aria-current': 'page' }}>
            Transactions
          </Link>
        </nav>
        <div className="topbar-spacer" />
        <SyncIndicator />
        <UserMenu />
      </header>
      {!online && (
        <div className="offline-banner" role="region" aria-label="Offline notice">
          You’re offline. Everything you do is saved on this device and syncs when you reconnect.
        </div>
      )}
      <MirrorProgress />
      <main className="app-main">
        <Outlet />
      </main>
    </div>
  );
}

/** First-mirror progress: rows arrive in batches, and the table is usable after the first. */
function MirrorProgress() {
  const progress = useAppState((s) => mirrorProgress(s.status));
  if (!progress) return null;
  const label =
    progress.total > 0
      ? `Downloading transactions for offline use: ${progress.loaded.toLocaleString()} of ${progress.total.toLocaleString()}`
      : 'Preparing offline copy…';
  return (
    <div className="mirror-progress">
      <div
        role="progressbar"
        aria-label="Downloading transactions for offline use"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.percent}
        aria-valuetext={label}
        className="progress-track"
      >
        <div className="progress-fill" style={{ width: `${progress.percent}%` }} />
      </div>
      <span className="progress-label">{label}</span>
    </div>
  );
}

function UserMenu() {
  const session = useAppState((s) => s.session);
  const pending = useAppState((s) => s.status?.pending ?? 0);
  const client = useDataClient();
  const store = useAppStore();
  const navigate = useNavigate();
  const menu = useRef<HTMLDetailsElement>(null);
  if (!session) return null;
  const { user, business } = session;

  async function signOut() {
    // Signing out drops the local mirror and outbox: never silently lose unsent edits.
    if (pending > 0 && !window.confirm(`${pending} changes have not synced yet and will be lost. Sign out anyway?`)) return;
    menu.current?.removeAttribute('open');
    await client.signOut();
    store.set({ session: null, status: null });
    await navigate({ to: '/sign-in', search: {} });
  }

  return (
    <details className="user-menu" ref={menu}>
      <summary aria-label={`Account: ${fullName(user)}`}>
        <span className="avatar" aria-hidden="true">
          {(user.first_name[0] ?? '') + (user.last_name[0] ?? '')}
        </span>
        <span className="user-name">{fullName(user)}</span>
      </summary>
      <div className="menu">
        <div className="menu-header">
          <div className="menu-name">{fullName(user)}</div>
          <div className="muted">{user.email}</div>
          <div className="muted">
            {roleDisplayName(user.role, user.is_manager)} · {business.name}
          </div>
        </div>
        <button type="button" className="menu-item" onClick={() => void signOut()}>
          Sign out
        </button>
      </div>
    </details>
  );
}

/** The worker reports a refused token as phase signed_out: send the user to sign in again. */
function useSessionExpiry() {
  const phase = useAppState((s) => s.status?.phase);
  const store = useAppStore();
  const navigate = useNavigate();
  // Only a change *to* signed_out counts: a stale status read right after sign-in must not.
  const previous = useRef(phase);
  useEffect(() => {
    const before = previous.current;
    previous.current = phase;
    if (phase !== 'signed_out' || before === undefined || before === 'signed_out') return;
    if (!store.get().session) return;
    store.set({ session: null });
    toastError('Your session has expired. Sign in again.');
    void navigate({ to: '/sign-in', search: { redirect: window.location.pathname + window.location.search } });
  }, [phase, store, navigate]);
}
