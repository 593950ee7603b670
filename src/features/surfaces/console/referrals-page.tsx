import { useEffect, useState, type FormEvent } from 'react';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { Button } from '../../../components/button.tsx';
import { DeleteDialog } from '../../../components/confirm-dialog.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { formatDay } from '../../../lib/format.ts';
import type { FirmReferral } from '../../../../workers/api.ts';
import type { DataClient } from '../../../data-access/types.ts';
import { useConsoleOnline } from './clients-page.tsx';
import { readKept, type KeptRead } from './console-cache.ts';
import { readAtText } from './console-words.ts';
import { isFirmAdmin } from './team-model.ts';

type Answer = KeptRead<FirmReferral[]> | { member: true };

/** The sign-up link of a code: "Apply for Ledgerline" with the code filled in (`?ref=`). */
export const referralLink = (code: string, origin = window.location.origin): string => `${origin}/application/start?ref=${encodeURIComponent(code)}`;

/**
 * `/console/referrals` (admins): the firm's referral codes, each with its sign-up link to copy; a
 * new code by label; delete (asked first). A business that applies with a code is referred by the
 * firm. Offline: as last read on this device, with its time.
 */
export function ReferralsPage() {
  const client = useDataClient();
  const identityId = useAppState((s) => s.surfaceSession?.identity_id ?? '');
  const online = useConsoleOnline();
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [version, setVersion] = useState(0);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<FirmReferral | null>(null);
  const [note, setNote] = useState<{ text: string; failed: boolean } | null>(null);

  useEffect(() => {
    let live = true;
    void readReferrals(client, identityId).then((r) => live && setAnswer(r));
    return () => {
      live = false;
    };
  }, [client, identityId, online, version]);

  const list = answer && 'rows' in answer ? answer : null;
  const canChange = online && list !== null && !list.offline;
  const done = (text: string) => {
    setNote({ text, failed: false });
    setVersion((v) => v + 1);
  };
  async function copy(what: string, text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setNote({ text: `${what} copied.`, failed: false });
    } catch {
      setNote({ text: `This browser did not allow copying. Select it and copy it yourself: ${text}`, failed: true });
    }
  }

  return (
    <section className="console-page" aria-labelledby="referrals-title">
      <div className="page-header">
        <div>
          <h1 id="referrals-title">Referrals</h1>
          <p className="muted console-lead">Share a code or its link: a business that applies for Ledgerline with it is referred by your firm.</p>
        </div>
        {list && (
          <div className="page-actions">
            <Button variant="primary" disabled={!canChange} title={canChange ? undefined : 'A new code needs a connection'} onClick={() => setCreating(true)}>
              New referral code
            </Button>
          </div>
        )}
      </div>
      {list && !canChange && <p className="muted">Creating and deleting codes need a connection.</p>}
      {list?.offline && <p className="notice" role="status">You’re offline: these are your codes as last read on this device ({readAtText(list.at)}).</p>}
      {note && (
        <p className={note.failed ? 'notice notice-error' : 'notice'} role={note.failed ? 'alert' : 'status'}>
          {note.text}
        </p>
      )}
      {answer && 'message' in answer && <FormError message={answer.message} />}
      {answer && 'member' in answer && <p className="notice" role="note">Your firm’s admins create and share referral codes. Ask one of them for a code to share.</p>}
      {!answer && (
        <div aria-busy="true">
          <span className="sr-only">Loading your referral codes…</span>
          <Skeleton height={56} />
        </div>
      )}
      {list && list.rows.length === 0 && (
        <EmptyState title="No referral codes yet" level="text">
          Create a code, for a newsletter or an event for instance, and share its link with businesses you’d like to work with.
        </EmptyState>
      )}
      {list && list.rows.length > 0 && (
        <ul className="console-list" aria-label="Referral codes">
          {list.rows.map((r) => (
            <li key={r.id} className="console-row">
              <div className="console-row-main">
                <h2 className="console-row-title">{r.label}</h2>
                <p className="console-row-detail">
                  Code <code>{r.code}</code>
                </p>
                <p className="muted console-row-detail">Created {formatDay(r.created_at)}</p>
              </div>
              <div className="console-row-actions">
                <Button size="sm" aria-label={`Copy code ${r.code}`} onClick={() => void copy(`The code ${r.code} was`, r.code)}>
                  Copy code
                </Button>
                <Button size="sm" aria-label={`Copy link of ${r.label}`} onClick={() => void copy('The sign-up link was', referralLink(r.code))}>
                  Copy link
                </Button>
                <Button size="sm" variant="ghost" disabled={!canChange} aria-label={`Delete the code ${r.code}`} onClick={() => setDeleting(r)}>
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {creating && <CreateDialog onClose={() => setCreating(false)} onCreated={done} />}
      {deleting && (
        <DeleteDialog
          title={`Delete the code ${deleting.code}?`}
          description="Businesses can no longer apply with it, and its link stops filling it in. Businesses that already applied with it stay referred by your firm."
          confirmLabel="Delete code"
          onClose={() => setDeleting(null)}
          onDelete={async () => {
            const r = await client.consoleDeleteReferral(deleting.id);
            if (!r.ok) return r.error;
            done(`The code ${deleting.code} was deleted.`);
            return null;
          }}
        />
      )}
    </section>
  );
}

/** The codes online (kept on this device), else the last kept with its time; a member is told who makes them. */
async function readReferrals(client: DataClient, identityId: string): Promise<Answer> {
  const firm = await client.consoleFirm();
  if (firm.ok && !isFirmAdmin(firm.firm)) return { member: true };
  return readKept<FirmReferral[]>(identityId, 'referrals', () => client.consoleReferrals(), 'You’re offline and this device has not read your referral codes yet. They appear once you’re back online.');
}

function CreateDialog({ onClose, onCreated }: { onClose(): void; onCreated(note: string): void }) {
  const client = useDataClient();
  const [label, setLabel] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!label.trim()) {
      setError('Name the code, e.g. “Spring newsletter”.');
      return;
    }
    setBusy(true);
    setError(null);
    const r = await client.consoleCreateReferral(label.trim());
    setBusy(false);
    if (!r.ok) {
      setError(errorText(r.error));
      return;
    }
    onCreated(`Code ${r.referral.code} created for “${r.referral.label}”. Copy its link to share it.`);
    onClose();
  }
  return (
    <Modal title="New referral code" description="Ledgerline makes the code; the name is for you, to tell codes apart." onClose={onClose} onSubmit={submit}>
      <FormError message={error} />
      <TextField label="Name" value={label} onChange={setLabel} maxLength={100} autoFocus hint="Where you share it, e.g. “Spring newsletter”." />
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy}>
          Create code
        </Button>
      </div>
    </Modal>
  );
}
