import { useState } from 'react';
import { SelectField } from '../../../components/select-field.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useDataClient } from '../../../data-access/data-context.tsx';
import type { NetworkVendorProfile } from '../../../../workers/api.ts';
import { formatDay } from '../../../lib/format.ts';
import { DocumentsSection } from './portal-documents.tsx';
import { ReadNote, usePortalRead } from './portal-read.tsx';
import { bankFormErrors, digits, tinError } from './portal-rules.ts';
import { ProfileForm } from './profile-form.tsx';

const verified = (at: string | null) => (at ? ` · verified by you ${formatDay(at)}` : '');

export function ProfilePage() {
  const client = useDataClient();
  const [state] = usePortalRead(() => client.portalProfile(), []);
  const [fresh, setFresh] = useState<NetworkVendorProfile | null>(null);
  const profile = fresh ?? (state.kind === 'read' ? state.data : null);
  const [address, setAddress] = useState({ line1: '', city: '', state: '', postal_code: '', country: 'US' });
  const [ach, setAch] = useState({ holder_name: '', routing_number: '', account_number: '', type: 'CHECKING' as 'CHECKING' | 'SAVINGS' });
  const [wire, setWire] = useState({ bank_name: '', routing_number: '', account_number: '' });
  const [typedName, setLegalName] = useState<string | null>(null);
  const legalName = typedName ?? profile?.legal_name ?? '';
  const [tin, setTin] = useState({ tin_type: 'EIN' as 'EIN' | 'SSN', tin: '' });
  return (
    <section className="surface-page portal-page" aria-labelledby="portal-title">
      <h1 id="portal-title">Profile</h1>
      <p className="muted">Your details, shared with the businesses that pay you. Numbers show only their last four digits once saved.</p>
      <ReadNote state={state} what="your profile" />
      {profile && (
        <>
          <ProfileForm title="Legal name" what="legal name" onSaved={setFresh} sensitiveSave={false}
            current={<><strong>{profile.legal_name}</strong>{` · signs in as ${profile.email}`}</>}
            check={() => ({ legal_name: legalName.trim() ? undefined : 'Enter your business’s legal name, as on your tax forms.' })}
            save={() => client.savePortalLegalName(legalName.trim())}
          >
            {(e) => (
              <TextField label="Legal name" autoComplete="organization" value={legalName} onChange={setLegalName} error={e.legal_name}
                hint="As on your W-9. Payers that have you under another name are asked to accept it." />
            )}
          </ProfileForm>
          <ProfileForm title="Business address" what="address" onSaved={setFresh}
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
          </ProfileForm>
          <ProfileForm title="Bank account for ACH" what="bank account" onSaved={setFresh}
            current={profile.bank ? `${profile.bank.type === 'CHECKING' ? 'Checking' : 'Savings'} ending ${profile.bank.account_last_four}, routing ending ${profile.bank.routing_last_four}${verified(profile.bank.verified_at)}` : 'No bank account yet.'}
            check={() => bankFormErrors(ach, true)}
            save={() => client.savePortalAch({ ...ach, routing_number: digits(ach.routing_number), account_number: digits(ach.account_number) })}
            remove={profile.bank && {
              label: 'Remove ACH account', title: 'Remove your ACH bank account?', done: 'Your ACH bank account is removed from your profile.',
              description: 'It’s removed from your profile. Each payer keeps the account it last accepted until you add a new one.',
              run: () => client.deletePortalBank('ACH'),
            }}
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
          </ProfileForm>
          <ProfileForm title="USD wire details" what="wire details" onSaved={setFresh}
            current={profile.wire ? `${profile.wire.bank_name}, account ending ${profile.wire.account_last_four}` : 'No wire details yet.'}
            check={() => ({ ...bankFormErrors({ holder_name: '', ...wire }, false), bank_name: wire.bank_name.trim() ? undefined : 'Enter the bank’s name.' })}
            save={() => client.savePortalWire({ ...wire, routing_number: digits(wire.routing_number), account_number: digits(wire.account_number) })}
            remove={profile.wire && {
              label: 'Remove wire details', title: 'Remove your wire details?', done: 'Your wire details are removed from your profile.',
              description: 'They’re removed from your profile. Each payer keeps the details it last accepted.',
              run: () => client.deletePortalBank('WIRE'),
            }}
          >
            {(e) => (
              <>
                <TextField label="Bank name" autoComplete="off" value={wire.bank_name} onChange={(bank_name) => setWire((w) => ({ ...w, bank_name }))} error={e.bank_name} />
                <TextField label="Wire routing number" autoComplete="off" value={wire.routing_number} onChange={(routing_number) => setWire((w) => ({ ...w, routing_number }))} error={e.routing_number} />
                <TextField label="Wire account number" autoComplete="off" value={wire.account_number} onChange={(account_number) => setWire((w) => ({ ...w, account_number }))} error={e.account_number} />
              </>
            )}
          </ProfileForm>
          <ProfileForm title="Tax ID" what="tax ID" onSaved={setFresh}
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
          </ProfileForm>
          <DocumentsSection documents={profile.documents} email={profile.email}
            onChange={(documents) => setFresh({ ...profile, documents })} />
        </>
      )}
    </section>
  );
}
