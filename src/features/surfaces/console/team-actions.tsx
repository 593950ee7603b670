import { useState, type FormEvent } from 'react';
import { useDataClient } from '../../../data-access/data-context.tsx';
import { Button } from '../../../components/button.tsx';
import { DeleteDialog } from '../../../components/confirm-dialog.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { errorText } from '../../../lib/error-text.ts';
import type { FirmClient, FirmUserRole, FirmView } from '../../../../workers/api.ts';
import { fullName, ROLE_WORDS } from './team-model.ts';

type Member = FirmView['members'][number];
type Invite = FirmView['invites'][number];

/** A Team change that is asked first: remove a member, take one off a client, withdraw an invite. */
export type TeamAsk =
  | { kind: 'remove'; member: Member; work: readonly FirmClient[] }
  | { kind: 'unassign'; member: Member; client: FirmClient }
  | { kind: 'withdraw'; invite: Invite };

const ROLE_OPTIONS = (['EXTERNAL_FIRM_USER', 'EXTERNAL_FIRM_ADMIN'] as const).map((value) => ({ value, label: ROLE_WORDS[value].name }));

/** The confirmation of a Team change, in the server's words when it refuses (e.g. the last admin stays). */
export function TeamAskDialog({ ask, firmName, onClose, onDone }: { ask: TeamAsk; firmName: string; onClose(): void; onDone(note: string): void }) {
  const client = useDataClient();
  const words = askWords(ask, firmName);
  return (
    <DeleteDialog
      title={words.title}
      description={words.description}
      confirmLabel={words.confirm}
      onClose={onClose}
      onDelete={async () => {
        const r =
          ask.kind === 'remove'
            ? await client.consoleRemoveMember(ask.member.id)
            : ask.kind === 'unassign'
              ? await client.consoleUnassign(ask.client.authorization_id, ask.member.id)
              : await client.consoleWithdrawInvite(ask.invite.id);
        if (!r.ok) return r.error;
        onDone(words.done);
        return null;
      }}
    />
  );
}

/** The clients a member is the only one working on: taking them off ends the firm's access there (design §2.6). */
const soleWork = (work: readonly FirmClient[]) => work.filter((c) => c.assigned_firm_user_ids.length === 1).map((c) => c.business_name);
const endsText = (names: string[]) =>
  names.length === 0 ? '' : ` They are the only one working on ${names.join(', ')}: your firm’s access to ${names.length === 1 ? 'that client' : 'those clients'} ends too.`;

function askWords(ask: TeamAsk, firmName: string) {
  if (ask.kind === 'remove') {
    const name = fullName(ask.member);
    return {
      title: `Remove ${name} from ${firmName}?`,
      description: `${name} loses access to the console and to every client of the firm at once.${endsText(soleWork(ask.work))} To work together again, invite them again.`,
      confirm: 'Remove from firm',
      done: `${name} was removed from ${firmName}.`,
    };
  }
  if (ask.kind === 'unassign') {
    const name = fullName(ask.member);
    return {
      title: `Unassign ${name} from ${ask.client.business_name}?`,
      description: `${name} loses access to ${ask.client.business_name} at once. They stay in the firm and keep their other clients.${endsText(soleWork([ask.client]))}`,
      confirm: 'Unassign',
      done: `${name} no longer works on ${ask.client.business_name}.`,
    };
  }
  return {
    title: `Withdraw the invite to ${ask.invite.email}?`,
    description: 'The link in the invitation email stops working at once. You can invite this address again later.',
    confirm: 'Withdraw invite',
    done: `The invite to ${ask.invite.email} was withdrawn.`,
  };
}

/** Invite someone by email with a role; the server mails them a link valid for 7 days. */
export function InviteDialog({ firmName, onClose, onInvited }: { firmName: string; onClose(): void; onInvited(note: string): void }) {
  const client = useDataClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<FirmUserRole>('EXTERNAL_FIRM_USER');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const address = email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
      setError('Enter an email address like name@example.com.');
      return;
    }
    setBusy(true);
    setError(null);
    const r = await client.consoleInvite(address, role);
    setBusy(false);
    if (!r.ok) {
      setError(errorText(r.error));
      return;
    }
    onInvited(`Invite sent to ${r.invite.email}. The link in it is valid for 7 days.`);
    onClose();
  }

  return (
    <Modal title={`Invite someone to ${firmName}`} description="They get an email with a link to set a password and join the console." onClose={onClose} onSubmit={submit}>
      <FormError message={error} />
      <TextField label="Email" type="email" autoComplete="off" value={email} onChange={setEmail} required autoFocus maxLength={320} />
      <SelectField label="Role" value={role} options={ROLE_OPTIONS} onChange={(v) => setRole(v as FirmUserRole)} />
      <p className="muted console-row-detail">{ROLE_WORDS[role].does}.</p>
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy}>
          Send invite
        </Button>
      </div>
    </Modal>
  );
}
