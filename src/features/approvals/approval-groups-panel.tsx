import { useState } from 'react';
import type { ApprovalGroup } from '../../../schema/api/calls-approval-policies.ts';
import { MAX_GROUP_SIZE } from '../../../schema/approval-policy.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { Modal } from '../../components/modal.tsx';
import { SelectField, type SelectOption } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import { joinList } from '../../lib/format.ts';
import type { GroupBody, useApprovalGroups } from './use-approval-groups.ts';

type Groups = ReturnType<typeof useApprovalGroups>;

/**
 * Issue 29: named approval groups on the policy page. A step names a group ("the group Finance
 * leads"); its members and mode (any one of them, or all) are read when an item is submitted.
 * Deleting asks first, and the server refuses while a policy uses the group (its words shown).
 */
export function ApprovalGroupsPanel({ g, userOptions, userName }: { g: Groups; userOptions: readonly SelectOption[]; userName(id: string): string }) {
  const [editing, setEditing] = useState<ApprovalGroup | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ApprovalGroup | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  return (
    <section className="policy-groups" aria-labelledby="policy-groups-title">
      <div className="policy-groups-head">
        <h2 id="policy-groups-title">Approval groups</h2>
        <span className="spacer" />
        <Button variant="ghost" size="sm" disabled={!g.online} onClick={() => setEditing('new')}>New group</Button>
      </div>
      <p className="muted">Name a group once and use it in any policy&rsquo;s steps. Changes reach items submitted afterwards.</p>
      {!g.online && g.groups === null && <p className="muted" role="status">You&rsquo;re offline. Groups are read from the server: connect to see them.</p>}
      {g.online && g.groups === null && !g.failure && <p className="muted" role="status">Loading groups…</p>}
      {g.failure && <p className="field-error" role="alert">{g.failure}</p>}
      {g.groups?.length === 0 && <p className="muted policy-empty">No groups yet.</p>}
      {g.groups && g.groups.length > 0 && (
        <ul className="policy-group-list">
          {g.groups.map((group) => (
            <li key={group.id} className="policy-group">
              <div className="policy-group-text">
                <strong>{group.name}</strong>
                <span className="muted">
                  {group.mode === 'all' ? 'All of' : 'Any one of'} {joinList(group.user_ids.map((id) => userName(id) || 'someone'))}
                </span>
              </div>
              <Button variant="ghost" size="sm" disabled={!g.online} aria-label={`Edit ${group.name}`} onClick={() => setEditing(group)}>Edit</Button>
              <Button variant="ghost" size="sm" disabled={!g.online} aria-label={`Delete ${group.name}`}
                onClick={() => { setDeleteError(null); setDeleting(group); }}>Delete</Button>
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <GroupDialog group={editing === 'new' ? null : editing} userOptions={userOptions} userName={userName} onClose={() => setEditing(null)}
          onSave={(body) => g.save(editing === 'new' ? null : editing.id, body)} />
      )}
      {deleting && (
        <ConfirmDialog title={`Delete the group ${deleting.name}?`} confirmLabel="Delete group" tone="danger" onClose={() => setDeleting(null)}
          description="Policies that name it must drop it first; approvals already waiting keep the people they had."
          onConfirm={async () => {
            const r = await g.remove(deleting.id);
            if (!r.ok) setDeleteError(r.message);
            return r.ok;
          }}>
          <FormError message={deleteError} />
        </ConfirmDialog>
      )}
    </section>
  );
}

function GroupDialog(props: {
  group: ApprovalGroup | null; userOptions: readonly SelectOption[]; userName(id: string): string; onClose(): void;
  onSave(body: GroupBody): Promise<{ ok: true } | { ok: false; message: string; errors: Record<string, string> }>;
}) {
  const { group, userOptions, userName, onClose, onSave } = props;
  const [name, setName] = useState(group?.name ?? '');
  const [mode, setMode] = useState<'any' | 'all'>(group?.mode ?? 'any');
  const [members, setMembers] = useState<string[]>(group?.user_ids ?? []);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const left = userOptions.filter((o) => !members.includes(o.value));
  const submit = async () => {
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = 'Give the group a name.';
    if (members.length === 0) local.user_ids = 'Add at least one person.';
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      const r = await onSave({ name: name.trim(), mode, user_ids: members });
      if (r.ok) onClose();
      else {
        setErrors(Object.fromEntries(Object.entries(r.errors).map(([k, v]) => [k.replace(/^body\./, ''), v])));
        setFormError(r.message);
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={group ? `Edit ${group.name}` : 'New approval group'} description="A step that names this group waits for any one of its people, or all of them."
      onClose={onClose} onSubmit={(e) => { e.preventDefault(); void submit(); }}>
      <TextField label="Name" value={name} maxLength={120} onChange={setName} error={errors.name} />
      <SelectField label="Who must approve" value={mode} options={[{ value: 'any', label: 'Any one of them' }, { value: 'all', label: 'All of them' }]}
        onChange={(m) => setMode(m === 'all' ? 'all' : 'any')} />
      <div className="field policy-ids">
        <span className="field-label">People</span>
        {members.length > 0 && (
          <ul className="policy-chips" aria-label="People in the group">
            {members.map((id) => (
              <li key={id} className="policy-chip">
                <span>{userName(id) || 'Unknown person'}</span>
                <button type="button" className="btn-link" aria-label={`Remove ${userName(id) || 'person'}`} onClick={() => setMembers(members.filter((m) => m !== id))}>×</button>
              </li>
            ))}
          </ul>
        )}
        {members.length < MAX_GROUP_SIZE && left.length > 0 && (
          <select aria-label="Add a person to the group" value="" onChange={(e) => e.target.value && setMembers([...members, e.target.value])}>
            <option value="">{members.length === 0 ? 'Choose a person…' : 'Add another person…'}</option>
            {left.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
          </select>
        )}
        {errors.user_ids && <span className="field-error">{errors.user_ids}</span>}
      </div>
      <FormError message={formError} />
      <ModalActions onCancel={onClose} submitLabel={group ? 'Save group' : 'Create group'} busy={busy} />
    </Modal>
  );
}
