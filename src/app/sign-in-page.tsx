import { useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useAppStore, useAppState, useDataClient } from '../data-access/data-context.tsx';
import { safeRedirect } from './redirect.ts';

export interface SignInPageProps {
  redirect: string | undefined;
}

/** Sign-in. The worker does the call and keeps the token; the page shows the server's words. */
export function SignInPage({ redirect }: SignInPageProps) {
  const client = useDataClient();
  const store = useAppStore();
  const online = useAppState((s) => s.online);
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await client.signIn(email.trim(), password);
      if (!result.ok) {
        setError(result.error.message);
        return;
      }
      store.set({ session: result.session, status: await client.status() });
      await navigate({ href: safeRedirect(redirect), replace: true });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Sign-in failed.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="sign-in">
      <form className="sign-in-card" onSubmit={(e) => void onSubmit(e)} noValidate>
        <div className="brand brand-lg">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>Ledgerline</span>
        </div>
        <h1>Sign in</h1>
        {!online && (
          <p className="notice notice-warn">You are offline. Signing in needs a connection.</p>
        )}
        <label className="field">
          <span className="field-label">Email</span>
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoFocus
          />
        </label>
        <label className="field">
          <span className="field-label">Password</span>
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy || !email || !password}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
