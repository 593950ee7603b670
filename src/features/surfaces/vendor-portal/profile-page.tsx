import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/button.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { StepUpDialog } from '../../../components/step-up-dialog.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import type { ActionResult } from '../../../data-access/types.ts';
import type { NetworkVendorProfile, PortalPropagation } from '../../../../workers/api.ts';
import { errorText } from '../../../lib/error-text.ts';
import { formatDay } from '../../../lib/format.ts';
import { useSensitiveAction } from '../../../lib/use-sensitive-action.ts';
import { ReadNote, usePortalRead } from './portal-read.tsx';
import { bankFormErrors, digits, propagationText, tinError } from './portal-rules.ts';

type Saved = ActionResult & { profile?: NetworkVendorProfile; payers?: PortalPropagation };
type Errors = Record<string, string | undefined>;

/**
 * One sensitive section of the profile: its form, checked here first (the server's rules), then
 * saved after "Confirm it's you"; the answer says what happened at each payer.
 */
function SensitiveForm({ title, what, current, check, save, onSaved, children }: {
  title: string; what: string; current: ReactNode; check: () => Errors; save: () => Promise<Saved>;
  onSaved: (profile: NetworkVendorProfile) => void; children: (errors: Errors) => ReactNode;
}) {
  const online = useAppState((s) => s.online);
  const sensitive = useSensitiveAction();
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = check();
    setErrors(found);
    setError(null);
    setDone(null);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    await sensitive.run(save, (r) => {
      setBusy(false);
      const saved = r as Saved;
      if (!saved.ok) return setError(errorText(saved.error));
      if (saved.profile) onSaved(saved.profile);
      setDone(propagationText(what, saved.payers ?? []));
    });
    setBusy(false);
  }
  const headingId = `profile-${what.replace(/\W+/g, '-')}`;
  return (
    <section className="card portal-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <div className="muted">{current}</div>
      <form onSubmit={(e) => void submit(e)} noValidate className="portal-form">
        {children(errors)}
        <FormError message={error} />
        {done && <p className="notice" role="status">{done}</p>}
        <Button type="submit" variant="primary" loading={busy} disabled={!online}>
          {online ? `Save ${what}` : 'Saving needs a connection'}
        </Button>
        <p className="muted small">You’ll be asked to confirm it’s you before it’s saved.</p>
      </form>
      {sensitive.prompting && <StepUpDialog onDone={sensitive.confirmed} onCancel={sensitive.cancelled} />}
    </section>
  );
}

const verified = (at: string | null) => (at ? ` · verified by you ${formatDay(at)}` : '');

export function ProfilePage() {
  const client = useDataClient();
  const [state] = usePortalRead(() => client.portalProfile(), []);
  const [fresh, setFresh] = useState<NetworkVendorProfile | null>(null);
  const profile = fresh ?? (state.kind === 'read' ? state.data : null);
  const [address, setAddress] = useState({ line1: '', city: '', state: '', postal_code: '', country: 'US' });
  const [ach, setAch] = useState({ holder_name: '', routing_number: '', account_number: '', type: 'CHECKING' as 'CHECKING' | 'SAVINGS' });
  const [wire, setWire] = useState({ bank_name: '', routing_number: '', account_number: '' });
  const [tin, setTin] = useState({ tin_type: 'EIN' as 'EIN' | 'SSN', tin: '' });
  return (
    <section className="surface-page portal-page" aria-labelledby="portal-title">
      <h1 id="portal-title">Profile</h1>
      <p className="muted">Your details, shared with the businesses that pay you. Numbers show only their last four digits once saved.</p>
      <ReadNote state={state} />
      {profile && (
        <>
          <p><strong>{profile.legal_name}</strong> · {profile.email}</p>
          <SensitiveForm title="Business address" what="address" onSaved={setFresh}
            current={profile.address ? `${profile.address.line1}, ${profile.address.city} ${profile.address.postal_code}, ${profile.address.country}${verified(profile.address_verified_at)}` : 'No address yet.'}
            check={() => ({
              line1: address.line1.trim() ? undefined : 'Enter the street address.', city: address.city.trim() ? undefined : 'Enter the city.',
              postal_code: address.postal_code.trim() ? undefined : 'Enter the postal code.',
              state: address.country === 'US' && !/^[A-Za-z]{2}$/.test(address.state.trim()) ? 'Enter the 2-letter state code.' : undefined,
              country: /^[A-Za-z]{2}$/.test(address.country.trim()) ? undefined : 'Enter a 2-letter country code.',
            })}
            save={() => client.savePortalAddress({ ...address, line2: null, state: address.state.trim().toUpperCase() || null, country: address.country.trim().toUpperCase() })}
          >
            {(e) => (
              <>
                <TextField label="Street address" autoComplete="address-line1" value={address.line1} onChange={(line1) => setAddress((a) => ({ ...a, line1 }))} error={e.line1} />
                <TextField label="City" autoComplete="address-level2" value={address.city} onChange={(city) => setAddress((a) => ({ ...a, city }))} error={e.city} />
                <TextField label="State" autoComplete="address-level1" value={address.state} onChange={(v) => setAddress((a) => ({ ...a, state: v }))} error={e.state} />
                <TextField label="Postal code" autoComplete="postal-code" value={address.postal_code} onChange={(postal_code) => setAddress((a) => ({ ...a, postal_code }))} error={e.postal_code} />
                <TextField label="Country" autoComplete="country" value={address.country} onChange={(country) => setAddress((a) => ({ ...a, country }))} error={e.country} />
              </>
            )}
          </SensitiveForm>
          <SensitiveForm title="Bank account for ACH" what="bank account" onSaved={setFresh}
            current={profile.bank ? `${profile.bank.type === 'CHECKING' ? 'Checking' : 'Savings'} ending ${profile.bank.account_last_four}, routing ending ${profile.bank.routing_last_four}${verified(profile.bank.verified_at)}` : 'No bank account yet.'}
            check={() => bankFormErrors(ach, true)}
            save={() => client.savePortalAch({ ...ach, routing_number: digits(ach.routing_number), account_number: digits(ach.account_number) })}
          >
            {(e) => (
              <>
                <TextField label="Name on the account" autoComplete="off" value={ach.holder_name} onChange={(holder_name) => setAch((a) => ({ ...a, holder_name }))} error={e.holder_name} />
                <TextField label="Routing number" autoComplete="off" value={ach.routing_number} onChange={(routing_number) => setAch((a) => ({ ...a, routing_number }))} error={e.routing_number} />
                <TextField label="Account number" autoComplete="off" value={ach.account_number} onChange={(account_number) => setAch((a) => ({ ...a, account_number }))} error={e.account_number} />
                <SelectField label="Account type" value={ach.type} onChange={(type) => setAch((a) => ({ ...a, type: type as 'CHECKING' | 'SAVINGS' }))}
                  options={[{ value: 'CHECKING', label: 'Checking' }, { value: 'SAVINGS', label: 'Savings' }]} />
              </>
            )}
          </SensitiveForm>
          <SensitiveForm title="USD wire details" what="wire details" onSaved={setFresh}
            current={profile.wire ? `${profile.wire.bank_name}, account ending ${profile.wire.account_last_four}` : 'No wire details yet.'}
            check={() => ({ ...bankFormErrors({ holder_name: '', ...wire }, false), bank_name: wire.bank_name.trim() ? undefined : 'Enter the bank’s name.' })}
            save={() => client.savePortalWire({ ...wire, routing_number: digits(wire.routing_number), account_number: digits(wire.account_number) })}
          >
            {(e) => (
              <>
                <TextField label="Bank name" autoComplete="off" value={wire.bank_name} onChange={(bank_name) => setWire((w) => ({ ...w, bank_name }))} error={e.bank_name} />
                <TextField label="Wire routing number" autoComplete="off" value={wire.routing_number} onChange={(routing_number) => setWire((w) => ({ ...w, routing_number }))} error={e.routing_number} />
                <TextField label="Wire account number" autoComplete="off" value={wire.account_number} onChange={(account_number) => setWire((w) => ({ ...w, account_number }))} error={e.account_number} />
              </>
            )}
          </SensitiveForm>
          <SensitiveForm title="Tax ID" what="tax ID" onSaved={setFresh}
            current={profile.tin ? `${profile.tin.type} ending ${profile.tin.last_four}${verified(profile.tin.verified_at)}` : 'No tax ID yet.'}
            check={() => ({ tin: tinError(tin.tin_type, tin.tin) ?? undefined })}
            save={() => client.savePortalTin(tin)}
          >
            {(e) => (
              <>
                <SelectField label="Tax ID type" value={tin.tin_type} onChange={(v) => setTin((t) => ({ ...t, tin_type: v as 'EIN' | 'SSN' }))}
                  options={[{ value: 'EIN', label: 'EIN (business)' }, { value: 'SSN', label: 'SSN (individual)' }]} />
                <TextField label={tin.tin_type === 'EIN' ? 'EIN' : 'SSN'} autoComplete="off" value={tin.tin} onChange={(v) => setTin((t) => ({ ...t, tin: v }))} error={e.tin}
                  hint={tin.tin_type === 'EIN' ? 'Like 12-3456789' : 'Like 123-45-6789'} />
              </>
            )}
          </SensitiveForm>
          <section className="card portal-section" aria-labelledby="profile-documents">
            <h2 id="profile-documents">Documents</h2>
            {profile.documents.length === 0 ? <p className="empty-state">No documents yet.</p> : (
              <ul>{profile.documents.map((d) => <li key={d.id}>{d.kind} · uploaded {formatDay(d.uploaded_at)}</li>)}</ul>
            )}
          </section>
        </>
      )}
    </section>
  );
}
