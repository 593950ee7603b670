import { useState, type FormEvent } from 'react';
import { useDataClient } from '../../../data-access/data-context.tsx';
import { Button } from '../../../components/button.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { errorText } from '../../../lib/error-text.ts';
import type { AdvisorRight, FirmView } from '../../../../workers/api.ts';
import { RIGHT_WORDS, RIGHTS_ORDER, toggleRight } from './console-words.ts';

/** The rights as checkboxes in words; READ is always held (a right to code what one cannot read is none). */
export function RightsField({ rights, onChange, legend }: { rights: AdvisorRight[]; onChange(r: AdvisorRight[]): void; legend: string }) {
  return (
    <fieldset className="field console-rights">
      <legend className="field-label">{legend}</legend>
      {RIGHTS_ORDER.map((r) => (
        <label key={r} className="check">
          <input type="checkbox" checked={rights.includes(r)} disabled={r === 'READ'} onChange={() => onChange(toggleRight(rights, r))} />
          <span>
            <strong>{RIGHT_WORDS[r].name}</strong> — {RIGHT_WORDS[r].does}
            {r === 'READ' && ' (always included)'}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * A new proposal to a client: its admin's email and the business's name, the rights asked and the
 * firm users who will work on it. Saved as a draft: "Send" on the list mails the client.
 */
export function ProposalForm({ firm, onClose, onCreated }: { firm: FirmView | null; onClose(): void; onCreated(): void }) {
  const client = useDataClient();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [rights, setRights] = useState<AdvisorRight[]>(['READ']);
  const [users, setUsers] = useState<string[]>(firm ? [firm.me.id] : []);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const r = await client.consoleCreateProposal({ client_email: email.trim(), client_name: name.trim(), rights, firm_user_ids: users });
    setBusy(false);
    if (r.ok) {
      onCreated();
      onClose();
      return;
    }
    setError(errorText(r.error));
  }

  return (
    <Modal title="New proposal" description="Saved as a draft. Nothing is sent to the client until you send it." onClose={onClose} onSubmit={submit} size="lg">
      <FormError message={error} />
      <TextField label="Client admin’s email" type="email" value={email} onChange={setEmail} required autoFocus />
      <TextField label="Business name" value={name} onChange={setName} required maxLength={200} />
      <RightsField legend="What your firm asks to do" rights={rights} onChange={setRights} />
      {firm && firm.members.length > 0 && (
        <fieldset className="field">
          <legend className="field-label">Who at your firm works on it</legend>
          {firm.members.map((m) => (
            <label key={m.id} className="check">
              <input
                type="checkbox"
                checked={users.includes(m.id)}
                onChange={() => setUsers((u) => (u.includes(m.id) ? u.filter((x) => x !== m.id) : [...u, m.id]))}
              />
              <span>
                {m.first_name} {m.last_name} <span className="muted">{m.email}</span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy}>
          Save draft
        </Button>
      </div>
    </Modal>
  );
}
