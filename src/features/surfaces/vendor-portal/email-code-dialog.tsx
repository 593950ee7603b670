import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../../components/button.tsx';
import { CodeField, isCompleteCode } from '../../../components/code-field.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useDataClient } from '../../../data-access/data-context.tsx';
import { errorText } from '../../../lib/error-text.ts';

type Sending = { kind: 'sending' } | { kind: 'sent' } | { kind: 'failed'; message: string };

/**
 * The documents' step-up (§6 "vendor network documents": `email-otp`): a code is mailed to the
 * portal's sign-in address when the dialog opens; typing it earns a 10-minute step-up, then the
 * parked action runs again.
 */
export function EmailCodeDialog({ email, onDone, onCancel }: { email: string; onDone: () => Promise<void>; onCancel: () => void }) {
  const client = useDataClient();
  const [sending, setSending] = useState<Sending>({ kind: 'sending' });
  const [round, setRound] = useState(0);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void client.sendEmailCode().then((r) => live && setSending(r.ok ? { kind: 'sent' } : { kind: 'failed', message: errorText(r.error) }));
    return () => {
      live = false;
    };
  }, [client, round]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!isCompleteCode(code)) return setError('Enter the 6-digit code from the email.');
    setBusy(true);
    setError(null);
    const r = await client.verifyPortalEmailCode(code);
    if (!r.ok) {
      setBusy(false);
      return setError(errorText(r.error));
    }
    await onDone();
  }

  return (
    <Modal title="Confirm it's you" onClose={onCancel} onSubmit={(e) => void submit(e)}
      description="Tax forms name your tax ID, so documents need a code from your email each time you work on them (it lasts 10 minutes).">
      <p className="muted" role="status">
        {sending.kind === 'sending' ? `Sending a code to ${email}…` : sending.kind === 'sent' ? `We emailed a 6-digit code to ${email}.` : ''}
      </p>
      {sending.kind === 'failed' && <FormError message={sending.message} />}
      <CodeField label="Code from the email" autoComplete="off" value={code} onChange={setCode} autoFocus />
      <FormError message={error} />
      <Button variant="ghost" size="sm" disabled={sending.kind === 'sending'} onClick={() => {
        setSending({ kind: 'sending' });
        setCode('');
        setRound((n) => n + 1);
      }}>Send a new code</Button>
      <div className="modal-actions">
        <Button variant="ghost" onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" loading={busy}>Confirm</Button>
      </div>
    </Modal>
  );
}
