import { useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useDataClient } from '../../../data-access/data-context.tsx';
import { Button } from '../../../components/button.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useFinishScopeSwitch } from '../scope-picker.tsx';

/**
 * `/console/apply` (issue 31, signed out): an accounting firm applies — firm name, the applicant's
 * name and email — then enters the code mailed to that email. Verified, the firm's console opens
 * (or the application's page, "in review", when the screening holds it).
 */
export function ConsoleApplyPage() {
  const client = useDataClient();
  const finish = useFinishScopeSwitch();
  const [form, setForm] = useState({ firm_name: '', first_name: '', last_name: '', email: '' });
  const [sent, setSent] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));

  async function apply(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const r = await client.firmApply({ ...form, email: form.email.trim() });
    setBusy(false);
    if (r.ok) setSent(true);
    else setError(errorText(r.error));
  }

  async function verify(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const r = await client.firmApplyVerify(form.email.trim(), code.trim());
    setBusy(false);
    if (r.ok) await finish(r.session, null);
    else setError(errorText(r.error));
  }

  return (
    <main className="sign-in">
      <div className="sign-in-card">
        <div className="brand brand-lg">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>Ledgerline</span>
        </div>
        <h1>{sent ? 'Check your email' : 'Apply for the advisor console'}</h1>
        <FormError message={error} />
        {!sent ? (
          <form onSubmit={(e) => void apply(e)}>
            <p className="muted">For accounting firms that work with businesses on Ledgerline. We email you a code to confirm it’s you.</p>
            <TextField label="Firm name" value={form.firm_name} onChange={set('firm_name')} required maxLength={200} autoComplete="organization" />
            <TextField label="First name" value={form.first_name} onChange={set('first_name')} required autoComplete="given-name" />
            <TextField label="Last name" value={form.last_name} onChange={set('last_name')} required autoComplete="family-name" />
            <TextField label="Work email" type="email" value={form.email} onChange={set('email')} required autoComplete="email" />
            <Button type="submit" variant="primary" block loading={busy}>
              Email me a code
            </Button>
            <p className="muted">
              Already have an account? <Link to="/sign-in">Sign in</Link>
            </p>
          </form>
        ) : (
          <form onSubmit={(e) => void verify(e)}>
            <p className="muted">We sent a 6-digit code to {form.email.trim()}. It expires soon.</p>
            <label className="field">
              <span className="field-label">Code</span>
              <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="\d{6}" maxLength={6} required value={code} onChange={(e) => setCode(e.target.value)} />
            </label>
            <Button type="submit" variant="primary" block loading={busy}>
              Confirm and continue
            </Button>
            <Button variant="ghost" block onClick={() => setSent(false)}>
              Use another email
            </Button>
          </form>
        )}
      </div>
    </main>
  );
}
