import { useEffect, useRef, useState, type FormEvent } from 'react';
import { fullName } from '../../../schema/entities/spend-user.ts';
import { ERROR_CATALOGUE } from '../../../schema/errors.ts';
import type { FeatureFlags } from '../../../schema/feature-flags.ts';
import { roleDisplayName, type Role } from '../../../schema/roles.ts';
import { manageRefusal, ownerRefusal, resendRefusal, USER_STATUS_LABELS } from '../../../schema/team-rules.ts';
import type { BusinessEntity } from '../../../schema/api/calls-admin.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Drawer } from '../../components/drawer.tsx';
import { Facts } from '../../components/facts.tsx';
import { FormError } from '../../components/form-error.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import type { DataClient, TeamFailure, UpdateUserInput } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { directConflictMessage } from '../../lib/conflict-view.ts';
import { formatDay } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { managerOptions, STATUS_TONES, TEAM_ROLES, type Answer, type Person } from './people-view.ts';

/** Said next to every action offline (the Bills bar's way): nothing is sent, nothing is queued. */
export const NEEDS_CONNECTION = 'You’re offline. Managing people needs a connection: nothing is sent until you’re back online.';

export interface PersonDrawerProps {
  /** null: not (or no longer) in the business. */
  person: Person | null;
  people: readonly Person[];
  actor: { id: string; role: string; is_manager: boolean };
  flags: Pick<FeatureFlags, 'disable_invites_by_managers'>;
  reference: ReferenceView;
  entities: readonly BusinessEntity[];
  client: DataClient;
  online: boolean;
  onAnswer(user: Answer): void;
  onClose(): void;
  returnFocus(): HTMLElement | null | undefined;
}

type Form = { role: Role; is_manager: boolean; manager_id: string; department_id: string; location_id: string; entity_id: string };
const NONE = '';
const formOf = (p: Person, entityId: string | null): Form => ({
  role: p.role, is_manager: p.is_manager, manager_id: p.manager_id ?? NONE, department_id: p.department_id ?? NONE,
  location_id: p.location_id ?? NONE, entity_id: entityId ?? NONE,
});

/**
 * One person: who they are, their invite's state in §8's words, and for admins the form to change
 * role, reporting line and placement, resend an invite, suspend or unsuspend, and delete. Every
 * action is a direct call; the server's refusal shows in its own words.
 */
export function PersonDrawer(props: PersonDrawerProps) {
  const { person, actor, client, online, onAnswer } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  const id = person?.id;
  const [entityId, setEntityId] = useState<{ id: string; entity: string | null } | null>(null);
  const [form, setForm] = useState<{ id: string; form: Form } | null>(null);
  // Keyed by person: opening another drops the last one's refusal.
  const [error_, setErrorFor] = useState<{ id: string; message: string } | null>(null);
  const error = error_ && error_.id === id ? error_.message : null;
  const setError = (message: string | null) => setErrorFor(message && id ? { id, message } : null);
  const [busy, setBusy] = useState<'save' | 'resend' | 'suspend' | null>(null);
  // Issue 24: after a 409 CONFLICT on this person, saving again keeps mine on the version it named.
  const [conflictAt, setConflictAt] = useState<{ id: string; version: number } | null>(null);
  const [confirm, setConfirm] = useState<'delete' | 'suspend' | null>(null);
  const admin = manageRefusal(actor) === null;

  useEffect(() => {
    heading.current?.focus();
  }, [id]);
  // The mirrored row has no entity: admins read it from the server when online.
  useEffect(() => {
    if (!id || !admin || !online) return;
    let live = true;
    void client.teamUser(id).then((r) => live && r.ok && setEntityId({ id, entity: r.user.entity_id }));
    return () => {
      live = false;
    };
  }, [client, id, admin, online]);

  if (!person) {
    return (
      <Drawer title="Person not found" titleRef={heading} closeLabel="Close person details" modal={false} onClose={props.onClose} returnFocus={props.returnFocus}>
        <div className="drawer-body"><p className="muted">This person is not in the business any more. They may have been deleted.</p></div>
      </Drawer>
    );
  }
  const knownEntity = entityId?.id === person.id ? entityId.entity : null;
  const current = form?.id === person.id ? form.form : formOf(person, knownEntity);
  const set = (patch: Partial<Form>) => setForm({ id: person.id, form: { ...current, ...patch } });
  const name = fullName(person) || person.email;

  async function act(kind: 'save' | 'resend' | 'suspend', run: () => Promise<{ ok: true; user?: Answer } | TeamFailure>, done: string | (() => string)) {
    setError(null);
    setBusy(kind);
    try {
      const r = await run();
      if (!r.ok) {
        const conflict = directConflictMessage(r.error.conflicts, { names: props.reference.names });
        if (conflict && r.error.current_version !== undefined && id) setConflictAt({ id, version: r.error.current_version });
        return setError(conflict ?? errorText(r.error)), false;
      }
      if (r.user) onAnswer(r.user);
      toastInfo(typeof done === 'string' ? done : done());
      return true;
    } finally {
      setBusy(null);
    }
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!person) return;
    const f = current;
    await act('save', async () => {
      let last: Answer | undefined;
      if (f.role !== person.role || f.is_manager !== person.is_manager) {
        const r = await client.changeUserRole(person.id, f.role, f.is_manager);
        if (!r.ok) return r;
        last = r.user;
      }
      const patch: UpdateUserInput = {};
      const orNull = (v: string) => (v === NONE ? null : v);
      if (f.manager_id !== (person.manager_id ?? NONE)) patch.manager_id = orNull(f.manager_id);
      if (f.department_id !== (person.department_id ?? NONE)) patch.department_id = orNull(f.department_id);
      if (f.location_id !== (person.location_id ?? NONE)) patch.location_id = orNull(f.location_id);
      if (f.entity_id !== (knownEntity ?? NONE)) patch.entity_id = orNull(f.entity_id);
      if (Object.keys(patch).length > 0) {
        // If-Match: the version the drawer showed, or the one a conflict named when saving again.
        const shown = (person as { change_seq?: number }).change_seq;
        const r = await client.updateUser(person.id, patch, conflictAt?.id === person.id ? conflictAt.version : shown);
        if (!r.ok) return r;
        last = r.user;
        setEntityId({ id: person.id, entity: r.user.entity_id });
      }
      setForm(null);
      setConflictAt(null);
      return { ok: true, ...(last ? { user: last } : {}) };
    }, `${name} saved.`);
  }

  const resend = resendRefusal(actor, person, props.flags);
  const invited = person.status === 'INVITED' || person.status === 'INVITE_EXPIRED';
  const suspendBlock = ownerRefusal(actor, person, 'suspend');
  const deleteBlock = ownerRefusal(actor, person, 'delete');
  const roleBlock = (role: string) => ownerRefusal(actor, person, 'role', role);
  const roles = TEAM_ROLES.filter((r) => r === person.role || roleBlock(r) === null);
  const dirty = JSON.stringify(current) !== JSON.stringify(formOf(person, knownEntity));
  const { options } = props.reference;

  return (
    <Drawer title={name} titleRef={heading} closeLabel="Close person details" modal={false} onClose={props.onClose} returnFocus={props.returnFocus}>
      <div className="drawer-body person-detail">
        <div className="person-detail-status">
          <StatusPill tone={STATUS_TONES[person.status]}>{USER_STATUS_LABELS[person.status]}</StatusPill>
          <span>{roleDisplayName(person.role, person.is_manager)}</span>
        </div>
        {!online && <p className="notice notice-warn" role="note">{NEEDS_CONNECTION}</p>}
        {invited && (
          <div className="notice person-invite-note" data-testid="invite-state">
            <p>{person.status === 'INVITED' ? 'Invited: waiting for them to accept.' : 'The invite expired before they accepted it.'}</p>
            <p className="muted">If they try to sign in now they see: “{ERROR_CATALOGUE[person.status === 'INVITED' ? 'AUTH_7026' : 'AUTH_7027'].message}”</p>
            {resend === null && (
              <Button size="sm" loading={busy === 'resend'} disabled={!online}
                onClick={() => {
                  let until = '';
                  void act('resend', async () => {
                    const r = await client.resendInvite(person.id);
                    if (r.ok) until = formatDay(r.expires_at);
                    return r.ok ? { ok: true, user: r.user } : r;
                  }, () => `A new invite is on its way to ${person.email}, valid until ${until}.`);
                }}>
                {person.status === 'INVITED' ? 'Resend invite' : 'Send a new invite'}
              </Button>
            )}
          </div>
        )}
        <FormError message={error} />
        <Facts rows={[
          ['Email', person.email],
          ['Manager', person.manager_id ? props.reference.names.user(person.manager_id) || '—' : '—'],
          ['Department', props.reference.names.department(person.department_id) || '—'],
          ['Location', props.reference.names.location(person.location_id) || '—'],
        ]} />
        {admin && (
          <form className="person-form" onSubmit={(e) => void save(e)} aria-labelledby={`${person.id}-edit`}>
            <h3 id={`${person.id}-edit`} className="claim-section-title">Role and placement</h3>
            <SelectField label="Role" value={current.role} options={roles.map((r) => ({ value: r, label: roleDisplayName(r) }))} onChange={(v) => set({ role: v as Role })} />
            <label className="check">
              <input type="checkbox" checked={current.is_manager} onChange={(e) => set({ is_manager: e.target.checked })} />
              Manager: sees and approves their reports’ spend
            </label>
            <SelectField label="Manager" value={current.manager_id} leading={[{ value: NONE, label: 'No manager' }]}
              options={managerOptions(props.people, person.id)} onChange={(v) => set({ manager_id: v })} />
            <SelectField label="Department" value={current.department_id} leading={[{ value: NONE, label: 'No department' }]}
              options={options.departments} onChange={(v) => set({ department_id: v })} />
            <SelectField label="Location" value={current.location_id} leading={[{ value: NONE, label: 'No location' }]}
              options={options.locations} onChange={(v) => set({ location_id: v })} />
            {props.entities.length > 0 && (
              <SelectField label="Entity" value={current.entity_id} leading={[{ value: NONE, label: 'No entity' }]}
                options={props.entities.map((e) => ({ value: e.id, label: e.name }))} onChange={(v) => set({ entity_id: v })} />
            )}
            <div className="person-form-actions">
              <Button type="submit" variant="primary" loading={busy === 'save'} disabled={!online || !dirty}>Save changes</Button>
              {dirty && <Button variant="ghost" onClick={() => setForm(null)}>Reset</Button>}
            </div>
          </form>
        )}
        {admin && (
          <section className="person-danger" aria-labelledby={`${person.id}-access`}>
            <h3 id={`${person.id}-access`} className="claim-section-title">Access</h3>
            <div className="person-form-actions">
              {person.status === 'SUSPENDED' ? (
                <Button loading={busy === 'suspend'} disabled={!online}
                  onClick={() => void act('suspend', () => client.unsuspendUser(person.id), `${name} can sign in again.`)}>
                  Unsuspend
                </Button>
              ) : person.status === 'ACTIVE' && suspendBlock === null ? (
                <Button disabled={!online} onClick={() => setConfirm('suspend')}>Suspend</Button>
              ) : null}
              {deleteBlock === null && <Button variant="danger" disabled={!online} onClick={() => setConfirm('delete')}>Delete</Button>}
            </div>
            {(suspendBlock ?? deleteBlock) && person.id !== actor.id && <p className="muted">{suspendBlock ?? deleteBlock}</p>}
          </section>
        )}
      </div>
      {confirm === 'suspend' && (
        <ConfirmDialog title={`Suspend ${name}?`} confirmLabel="Suspend" tone="danger" onClose={() => setConfirm(null)}
          description={`${name} is signed out everywhere and can’t sign in until unsuspended. Their cards and history stay.`}
          onConfirm={async () => (await act('suspend', () => client.suspendUser(person.id), `${name} is suspended.`), true)} />
      )}
      {confirm === 'delete' && (
        <ConfirmDialog title={`Delete ${name}?`} confirmLabel="Delete" tone="danger" onClose={() => setConfirm(null)}
          description={invited ? `Their invite is withdrawn and ${person.email} can no longer join.` : `${name} is removed from the business and signed out everywhere. Their past spend stays in reports.`}
          onConfirm={async () => {
            const done = await act('suspend', async () => {
              const r = await client.deleteUser(person.id);
              return r.ok ? { ok: true, user: { ...person, change_seq: Number.MAX_SAFE_INTEGER, deleted: true } } : r;
            }, `${name} was deleted.`);
            if (done) props.onClose();
            // A refusal shows in the drawer, in the server's words.
            return true;
          }} />
      )}
    </Drawer>
  );
}

