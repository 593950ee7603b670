import { useEffect, useState, type FormEvent } from 'react';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section } from '../../components/section.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { TextField } from '../../components/text-field.tsx';
import { errorText } from '../../lib/error-text.ts';
import type { AdvisorRight, FirmAuthorization, FirmProposal } from '../../../workers/api.ts';
import { ActivitySection } from './activity-section.tsx';
import { ReferralsSection } from './referrals-section.tsx';
import { grantSentence, narrow, RIGHT_NAMES, RIGHTS, rightsNames } from './firm-rights.ts';
import './accounting-firms.css';

const ADMIN_ROLES = new Set(['BUSINESS_OWNER', 'BUSINESS_ADMIN']);
type Lists = { proposals: FirmProposal[]; firms: FirmAuthorization[] };

/**
 * `/settings/accounting-firms` (issue 31, admins; the firm's proposal mail links here): proposals
 * waiting for an answer (Accept asks first, saying what the firm will be able to do, and may
 * narrow the rights; Decline), the firms with access, who and with which rights ("End access" asks
 * first), the firm that referred the business (if any), a proposal to a firm by its admin's email,
 * then Activity (the audit log). Online only.
 */
export function AccountingFirmsPage() {
  const client = useDataClient();
  const session = useAppState((s) => s.session);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const [lists, setLists] = useState<Lists | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [accepting, setAccepting] = useState<FirmProposal | null>(null);
  const [ending, setEnding] = useState<FirmAuthorization | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const reload = () => setVersion((v) => v + 1);

  useEffect(() => {
    let live = true;
    void Promise.all([client.firmProposalsForBusiness(), client.businessFirms()]).then(([p, f]) => {
      if (!live) return;
      if (p.ok && f.ok) {
        setLists({ proposals: p.rows, firms: f.rows });
        setError(null);
      } else setError(!p.ok ? errorText(p.error) : !f.ok ? errorText(f.error) : null);
    });
    return () => {
      live = false;
    };
  }, [client, version, online]);

  if (!session || !ADMIN_ROLES.has(session.user.role)) {
    return <p className="notice">Only your business’s admins manage accounting firms.</p>;
  }
  const pending = lists?.proposals.filter((p) => p.status === 'PENDING' && p.direction === 'FIRM_TO_BUSINESS') ?? [];
  const active = lists?.firms.filter((f) => f.status === 'ACTIVE') ?? [];

  async function reject(p: FirmProposal) {
    const r = await client.rejectFirmProposal(p.id);
    setNote(r.ok ? null : errorText(r.error));
    reload();
  }

  return (
    <div className="settings">
      <h1>Accounting firms</h1>
      {!online && <p className="notice" role="status">You’re offline. Accounting firms are read and changed on the server: this needs a connection.</p>}
      <FormError message={error ?? note} />
      <Section title="Proposals waiting for you" description="Firms asking to work in your business. Nothing changes until you accept.">
        {!lists && !error && <Skeleton height={48} />}
        {lists && pending.length === 0 && <p className="muted">No proposals are waiting.</p>}
        <ul className="firm-list" aria-label="Proposals waiting">
          {pending.map((p) => (
            <li key={p.id} className="firm-row">
              <div>
                <strong>{p.firm_name}</strong>
                <p className="muted">Asks to: {rightsNames(p.rights)}</p>
              </div>
              <div className="firm-actions">
                <Button size="sm" disabled={!online} onClick={() => void reject(p)}>
                  Decline
                </Button>
                <Button size="sm" variant="primary" disabled={!online} onClick={() => setAccepting(p)}>
                  Accept…
                </Button>
              </div>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Firms with access" description="Who works in your business for an accounting firm, and what they can do.">
        {lists && active.length === 0 && <EmptyState title="No firm has access">Accept a firm’s proposal or propose to your firm below.</EmptyState>}
        <ul className="firm-list" aria-label="Firms with access">
          {active.map((f) => (
            <li key={f.id} className="firm-row">
              <div>
                <strong>{f.firm_name}</strong>
                <p className="muted">Can: {rightsNames(f.rights)}</p>
                <p className="muted">{f.users.length ? f.users.map((u) => `${u.first_name} ${u.last_name}`).join(', ') : 'No one assigned yet'}</p>
              </div>
              <Button size="sm" variant="danger" disabled={!online} onClick={() => setEnding(f)}>
                End access…
              </Button>
            </li>
          ))}
        </ul>
      </Section>
      <ReferralsSection online={online} />
      <ProposeToFirm online={online} onDone={reload} />
      <ActivitySection online={online} />
      {accepting && <AcceptDialog proposal={accepting} onClose={() => setAccepting(null)} onDone={reload} />}
      {ending && (
        <ConfirmDialog
          title={`End ${ending.firm_name}’s access?`}
          description={`${ending.firm_name} and its people will no longer see or change anything in your business. To work with them again, a new proposal is needed.`}
          confirmLabel="End access"
          tone="danger"
          onClose={() => setEnding(null)}
          onConfirm={async () => {
            const r = await client.endFirmAccess(ending.id);
            setNote(r.ok ? null : errorText(r.error));
            reload();
            return true;
          }}
        />
      )}
    </div>
  );
}

/** Accept, asked first: what the firm will be able to do, with the asked rights narrowable. */
function AcceptDialog({ proposal, onClose, onDone }: { proposal: FirmProposal; onClose(): void; onDone(): void }) {
  const client = useDataClient();
  const [rights, setRights] = useState<AdvisorRight[]>(proposal.rights);
  const [error, setError] = useState<string | null>(null);
  return (
    <ConfirmDialog
      title={`Accept ${proposal.firm_name}?`}
      description={grantSentence(proposal.firm_name, rights)}
      confirmLabel="Accept"
      onClose={onClose}
      onConfirm={async () => {
        const r = await client.acceptFirmProposal(proposal.id, rights);
        if (!r.ok) {
          setError(errorText(r.error));
          return false;
        }
        onDone();
        return true;
      }}
    >
      <FormError message={error} />
      <fieldset className="field">
        <legend className="field-label">Rights to give</legend>
        {RIGHTS.filter((r) => proposal.rights.includes(r)).map((r) => (
          <label key={r} className="check">
            <input type="checkbox" checked={rights.includes(r)} disabled={r === 'READ'} onChange={() => setRights(narrow(proposal.rights, rights, r))} />
            {RIGHT_NAMES[r]}
            {r === 'READ' && ' (always)'}
          </label>
        ))}
      </fieldset>
    </ConfirmDialog>
  );
}

/** A proposal from this business to a firm, by the firm admin's email (read-only unless more is ticked). */
function ProposeToFirm({ online, onDone }: { online: boolean; onDone(): void }) {
  const client = useDataClient();
  const [email, setEmail] = useState('');
  const [rights, setRights] = useState<AdvisorRight[]>(['READ']);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const r = await client.proposeToFirm(email.trim(), rights);
    setBusy(false);
    setMessage(r.ok ? { ok: true, text: `Sent to ${r.proposal.firm_name}. They’ll see it in their console.` } : { ok: false, text: errorText(r.error) });
    if (r.ok) {
      setEmail('');
      onDone();
    }
  }
  return (
    <Section title="Invite your accounting firm" description="Already work with a firm on Ledgerline? Propose by its admin’s email.">
      <form onSubmit={(e) => void submit(e)} className="firm-propose">
        <TextField label="Firm admin’s email" type="email" value={email} onChange={setEmail} required />
        <fieldset className="field">
          <legend className="field-label">Rights to give</legend>
          {RIGHTS.map((r) => (
            <label key={r} className="check">
              <input type="checkbox" checked={rights.includes(r)} disabled={r === 'READ'} onChange={() => setRights(narrow(RIGHTS, rights, r))} />
              {RIGHT_NAMES[r]}
            </label>
          ))}
        </fieldset>
        {message && <p role={message.ok ? 'status' : 'alert'} className={message.ok ? 'muted' : 'notice notice-error'}>{message.text}</p>}
        <Button type="submit" loading={busy} disabled={!online}>
          {online ? 'Send proposal' : 'Send proposal (needs a connection)'}
        </Button>
      </form>
    </Section>
  );
}
