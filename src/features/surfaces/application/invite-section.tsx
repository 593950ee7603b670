import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button.tsx';
import { DeleteDialog } from '../../../components/confirm-dialog.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useDataClient } from '../../../data-access/data-context.tsx';
import { errorText } from '../../../lib/error-text.ts';
import type { FinancingApplication } from '../../../../schema/entities/financing-application.ts';
import { identityPeople } from './step-list-model.ts';
import type { ApplicationModel } from './use-application.ts';

/**
 * Issue 31: "Invite someone to help" on the step list (application.inviteApplicant): an email and,
 * optionally, the person whose identity check they fill. The server mails them a link that signs
 * them in to this application as a co-applicant. Pending invites are listed with their expiry and a
 * confirmed Withdraw (application.invite.delete). Online only: offline the actions say why they wait.
 */
type Invite = FinancingApplication['invites'][number];

const OFFLINE = 'Inviting and withdrawing need a connection.';
const expiry = (iso: string) => new Date(iso).toLocaleDateString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

export function InviteSection({ model }: { model: ApplicationModel }) {
  const app = model.application!;
  const people = identityPeople(app);
  const nameOf = (id: string | null) => (id ? people.find((p) => p.id === id)?.name ?? null : null);
  const [withdrawing, setWithdrawing] = useState<Invite | null>(null);
  return (
    <section className="application-invites" aria-labelledby="application-invites-title">
      <h2 id="application-invites-title">Invite someone to help</h2>
      <p className="muted">
        {`They get an email with a link to this application and sign in with a code.${people.length > 0 ? ' Pick a person if they should fill in that person’s identity check.' : ''}`}
      </p>
      {!model.online && <p className="notice notice-warn" role="status">{`You’re offline. ${OFFLINE}`}</p>}
      <InviteForm model={model} people={people} />
      <h3>Pending invites</h3>
      {app.invites.length === 0 ? (
        <p className="muted">No pending invites. An invite stays open for 7 days, until the person signs in with it.</p>
      ) : (
        <ul className="application-invite-list">
          {app.invites.map((i) => (
            <li key={i.id} className="application-invite">
              <div className="application-invite-text">
                <span className="application-invite-email">{i.email}</span>
                <span className="muted">
                  {`${nameOf(i.kyc_individual_id) ? `Identity check: ${nameOf(i.kyc_individual_id)} · ` : ''}Link expires ${expiry(i.expires_at)}`}
                </span>
              </div>
              <Button variant="ghost" disabled={!model.online} title={model.online ? undefined : OFFLINE} aria-label={`Withdraw the invite to ${i.email}`} onClick={() => setWithdrawing(i)}>
                Withdraw
              </Button>
            </li>
          ))}
        </ul>
      )}
      {withdrawing && <WithdrawDialog model={model} invite={withdrawing} onClose={() => setWithdrawing(null)} />}
    </section>
  );
}

function InviteForm({ model, people }: { model: ApplicationModel; people: { id: string; name: string }[] }) {
  const client = useDataClient();
  const [email, setEmail] = useState('');
  const [person, setPerson] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setFieldError(null);
    setSentTo(null);
    const to = email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(to)) {
      setFieldError('Enter an email address, like name@company.com.');
      return;
    }
    setBusy(true);
    try {
      const r = await client.inviteApplicant(model.appId, to, person || undefined);
      if (r.ok) {
        model.take(r.application);
        setSentTo(to);
        setEmail('');
        setPerson('');
      } else {
        setError(errorText(r.error));
        if (r.error.errors?.email) setFieldError(r.error.errors.email);
      }
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="application-invite-form" onSubmit={(e) => void submit(e)} noValidate>
      <TextField label="Their email" type="email" name="invite_email" autoComplete="off" required value={email} error={fieldError} onChange={setEmail} />
      {people.length > 0 && (
        <SelectField
          label="Identity check they fill (optional)" value={person} onChange={setPerson}
          leading={[{ value: '', label: 'None — they help with the application' }]} options={people.map((p) => ({ value: p.id, label: p.name }))}
        />
      )}
      <FormError message={error} />
      {sentTo && <p className="muted" role="status">{`Invite sent to ${sentTo}. The link works for 7 days.`}</p>}
      <div className="application-actions">
        <Button type="submit" variant="primary" loading={busy} disabled={!model.online}>Send invite</Button>
      </div>
    </form>
  );
}

function WithdrawDialog({ model, invite, onClose }: { model: ApplicationModel; invite: Invite; onClose(): void }) {
  const client = useDataClient();
  async function withdraw() {
    const r = await client.deleteApplicationInvite(model.appId, invite.id);
    if (r.ok) {
      model.take(r.application);
      return null;
    }
    // Already used or withdrawn elsewhere: the list is read again.
    if (r.error.error_code === 'REQUEST_7004') void model.reload();
    return r.error;
  }
  return (
    <DeleteDialog
      title="Withdraw this invite?" confirmLabel="Withdraw invite" onClose={onClose} onDelete={withdraw}
      description={`The link sent to ${invite.email} stops working. You can invite them again later.`}
    />
  );
}
