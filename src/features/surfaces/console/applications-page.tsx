import { useEffect, useState, type FormEvent } from 'react';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { Button } from '../../../components/button.tsx';
import { DeleteDialog } from '../../../components/confirm-dialog.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { StatusPill } from '../../../components/status-pill.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { formatDay } from '../../../lib/format.ts';
import type { FirmClientApplication } from '../../../../workers/api.ts';
import type { DataClient } from '../../../data-access/types.ts';
import { useConsoleOnline } from './clients-page.tsx';
import { readKept, type KeptRead } from './console-cache.ts';
import { APPLICATION_WORDS, readAtText } from './console-words.ts';
import { isFirmAdmin } from './team-model.ts';

type Answer = KeptRead<FirmClientApplication[]> | { member: true };

/**
 * `/console/applications` (admins): the financing applications the firm started for clients, with
 * their status and dates; "Start an application" names the client and its applicant, who is
 * mailed a link to finish it; a draft can be withdrawn (asked first). Offline: as last read.
 */
export function ApplicationsPage() {
  const client = useDataClient();
  const identityId = useAppState((s) => s.surfaceSession?.identity_id ?? '');
  const online = useConsoleOnline();
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [version, setVersion] = useState(0);
  const [starting, setStarting] = useState(false);
  const [withdrawing, setWithdrawing] = useState<FirmClientApplication | null>(null);
  const [note, setNote] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void readApplications(client, identityId).then((r) => live && setAnswer(r));
    return () => {
      live = false;
    };
  }, [client, identityId, online, version]);

  const list = answer && 'rows' in answer ? answer : null;
  const canChange = online && list !== null && !list.offline;
  const done = (text: string) => {
    setNote(text);
    setVersion((v) => v + 1);
  };

  return (
    <section className="console-page" aria-labelledby="applications-title">
      <div className="page-header">
        <div>
          <h1 id="applications-title">Applications</h1>
          <p className="muted console-lead">Financing applications your firm starts for clients. Once approved, the business becomes your client.</p>
        </div>
        {list && (
          <div className="page-actions">
            <Button variant="primary" disabled={!canChange} title={canChange ? undefined : 'Starting an application needs a connection'} onClick={() => setStarting(true)}>
              Start an application
            </Button>
          </div>
        )}
      </div>
      {list && !canChange && <p className="muted">Starting and withdrawing applications need a connection.</p>}
      {list?.offline && <p className="notice" role="status">You’re offline: these are the applications as last read on this device ({readAtText(list.at)}).</p>}
      {note && <p className="notice" role="status">{note}</p>}
      {answer && 'message' in answer && <FormError message={answer.message} />}
      {answer && 'member' in answer && (
        <p className="notice" role="note">Your firm’s admins start financing applications for clients. Ask one of them if a client should apply.</p>
      )}
      {!answer && (
        <div aria-busy="true">
          <span className="sr-only">Loading your firm’s applications…</span>
          <Skeleton height={56} />
          <Skeleton height={56} />
        </div>
      )}
      {list && list.rows.length === 0 && (
        <EmptyState title="No applications yet" level="text">
          Start one for a client: name the business and who applies for it. They get an email to finish the application.
        </EmptyState>
      )}
      {list && list.rows.length > 0 && (
        <ul className="console-list" aria-label="Applications">
          {list.rows.map((a) => (
            <li key={a.id} className="console-row">
              <div className="console-row-main">
                <h2 className="console-row-title">{a.label}</h2>
                <p className="console-row-detail">
                  {a.client_name} · applicant {a.applicant_email}
                </p>
                <p className="muted console-row-detail">
                  Started {formatDay(a.created_at)}
                  {a.submitted_at && ` · submitted ${formatDay(a.submitted_at)}`} · {APPLICATION_WORDS[a.status].next}
                </p>
              </div>
              <StatusPill tone={APPLICATION_WORDS[a.status].tone}>{APPLICATION_WORDS[a.status].text}</StatusPill>
              {a.status === 'DRAFT' && (
                <Button size="sm" variant="ghost" disabled={!canChange} aria-label={`Withdraw the application for ${a.client_name}`} onClick={() => setWithdrawing(a)}>
                  Withdraw
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {starting && <StartDialog onClose={() => setStarting(false)} onStarted={done} />}
      {withdrawing && (
        <DeleteDialog
          title={`Withdraw the application for ${withdrawing.client_name}?`}
          description={`${withdrawing.applicant_email} can no longer finish it. To apply later, start a new application.`}
          confirmLabel="Withdraw application"
          onClose={() => setWithdrawing(null)}
          onDelete={async () => {
            const r = await client.consoleWithdrawApplication(withdrawing.id);
            if (!r.ok) return r.error;
            done(`The application for ${withdrawing.client_name} was withdrawn.`);
            return null;
          }}
        />
      )}
    </section>
  );
}

/** The firm's applications online (kept on this device), else the last kept with its time; a member is told who starts them. */
async function readApplications(client: DataClient, identityId: string): Promise<Answer> {
  const firm = await client.consoleFirm();
  if (firm.ok && !isFirmAdmin(firm.firm)) return { member: true };
  return readKept<FirmClientApplication[]>(identityId, 'applications', () => client.consoleApplications(), 'You’re offline and this device has not read your firm’s applications yet. They appear once you’re back online.');
}

type StartForm = { client_name: string; applicant_first_name: string; applicant_last_name: string; applicant_email: string };
const EMPTY: StartForm = { client_name: '', applicant_first_name: '', applicant_last_name: '', applicant_email: '' };

/** What the form lacks before anything is sent. */
function startFormErrors(form: StartForm): Partial<Record<keyof StartForm, string>> {
  const errors: Partial<Record<keyof StartForm, string>> = {};
  if (!form.client_name.trim()) errors.client_name = 'Enter the business’s name.';
  if (!form.applicant_first_name.trim()) errors.applicant_first_name = 'Enter the applicant’s first name.';
  if (!form.applicant_last_name.trim()) errors.applicant_last_name = 'Enter the applicant’s last name.';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.applicant_email.trim())) errors.applicant_email = 'Enter an email address like name@example.com.';
  return errors;
}

/** A new application for a client; its id is made once, so sending it again is the same application. */
function StartDialog({ onClose, onStarted }: { onClose(): void; onStarted(note: string): void }) {
  const client = useDataClient();
  const [id] = useState(() => crypto.randomUUID());
  const [form, setForm] = useState<StartForm>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof StartForm, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = (key: keyof StartForm) => ({ value: form[key], error: errors[key], onChange: (v: string) => setForm((f) => ({ ...f, [key]: v })) });

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = startFormErrors(form);
    setErrors(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const r = await client.consoleStartApplication({
      id, client_name: form.client_name.trim(), applicant_email: form.applicant_email.trim(),
      applicant_first_name: form.applicant_first_name.trim(), applicant_last_name: form.applicant_last_name.trim(),
    });
    setBusy(false);
    if (!r.ok) {
      setError(errorText(r.error));
      return;
    }
    onStarted(`Application started for ${r.application.client_name}. ${r.application.applicant_email} got an email to finish it.`);
    onClose();
  }

  return (
    <Modal title="Start an application for a client" description="The applicant gets an email with a link to finish the application; nothing is submitted until they do." onClose={onClose} onSubmit={submit}>
      <FormError message={error} />
      <TextField label="Business name" {...field('client_name')} maxLength={200} autoFocus />
      <TextField label="Applicant’s first name" autoComplete="off" {...field('applicant_first_name')} maxLength={100} />
      <TextField label="Applicant’s last name" autoComplete="off" {...field('applicant_last_name')} maxLength={100} />
      <TextField label="Applicant’s email" type="email" autoComplete="off" {...field('applicant_email')} maxLength={320} />
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy}>
          Start and email the applicant
        </Button>
      </div>
    </Modal>
  );
}
