import { ERROR_CATALOGUE } from '../../../schema/errors.ts';
import { roleDisplayName, type Role } from '../../../schema/roles.ts';
import { apClerkRemovalRefusal, assignableRoles, ownerRefusal, resendRefusal, USER_STATUS_LABELS } from '../../../schema/team-rules.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Drawer } from '../../components/drawer.tsx';
import { Facts } from '../../components/facts.tsx';
import { FormError } from '../../components/form-error.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { formatDay } from '../../lib/format.ts';
import { managerOptions, STATUS_TONES, TEAM_ROLES, type Person } from './people-view.ts';
import { NONE, personEditor, usePersonDrawerState, type PersonDrawerProps, type PersonDrawerState, type PersonEditor } from './person-drawer-state.ts';
import { LazyEventHistory } from '../../components/event-history/lazy-event-history.tsx';

/** Said next to every action offline (the Bills bar's way): nothing is sent, nothing is queued. */
export const NEEDS_CONNECTION = 'You’re offline. Managing people needs a connection: nothing is sent until you’re back online.';

/**
 * One person: who they are, their invite's state in §8's words, and for admins the form to change
 * role, reporting line and placement, resend an invite, suspend or unsuspend, and delete. Every
 * action is a direct call; the server's refusal shows in its own words.
 */
export function PersonDrawer(props: PersonDrawerProps) {
  const { person, actor, online } = props;
  const s = usePersonDrawerState(props);
  const { heading, admin } = s;

  if (!person) {
    return (
      <Drawer title="Person not found" titleRef={heading} closeLabel="Close person details" modal={false} onClose={props.onClose} returnFocus={props.returnFocus}>
        <div className="drawer-body"><p className="muted">This person is not in the business any more. They may have been deleted.</p></div>
      </Drawer>
    );
  }
  const ed = personEditor(props, person, s);
  const invited = person.status === 'INVITED' || person.status === 'INVITE_EXPIRED';
  const suspendBlock = ownerRefusal(actor, person, 'suspend');
  const deleteBlock = ownerRefusal(actor, person, 'delete');
  const view: PersonView = { props, person, s, ed };

  return (
    <Drawer title={ed.name} titleRef={heading} closeLabel="Close person details" modal={false} onClose={props.onClose} returnFocus={props.returnFocus}>
      <div className="drawer-body person-detail">
        <div className="person-detail-status">
          <StatusPill tone={STATUS_TONES[person.status]}>{USER_STATUS_LABELS[person.status]}</StatusPill>
          <span>{roleDisplayName(person.role, person.is_manager)}</span>
        </div>
        {!online && <p className="notice notice-warn" role="note">{NEEDS_CONNECTION}</p>}
        {invited && <InviteNote {...view} />}
        <FormError message={s.error} />
        <Facts rows={[
          ['Email', person.email],
          ['Manager', person.manager_id ? props.reference.names.user(person.manager_id) || '—' : '—'],
          ['Department', props.reference.names.department(person.department_id) || '—'],
          ['Location', props.reference.names.location(person.location_id) || '—'],
        ]} />
        {admin && <PersonFormSection {...view} />}
        {admin && (
          <section className="person-danger" aria-labelledby={`${person.id}-access`}>
            <h3 id={`${person.id}-access`} className="claim-section-title">Access</h3>
            <div className="person-form-actions">
              {person.status === 'SUSPENDED' ? (
                <Button loading={s.busy === 'suspend'} disabled={!online}
                  onClick={() => void ed.act('suspend', () => props.client.unsuspendUser(person.id), `${ed.name} can sign in again.`)}>
                  Unsuspend
                </Button>
              ) : person.status === 'ACTIVE' && suspendBlock === null ? (
                <Button disabled={!online} onClick={() => s.setConfirm('suspend')}>Suspend</Button>
              ) : null}
              {deleteBlock === null && <Button variant="danger" disabled={!online} onClick={() => s.setConfirm('delete')}>Delete</Button>}
            </div>
            {(suspendBlock ?? deleteBlock) && person.id !== actor.id && <p className="muted">{suspendBlock ?? deleteBlock}</p>}
          </section>
        )}
        {admin && <ApClerkAccess {...view} />}
        <LazyEventHistory entityType="user" entityId={person.id} />
      </div>
      <PersonConfirm {...view} invited={invited} />
    </Drawer>
  );
}

/** What each part of the drawer works from. */
interface PersonView { props: PersonDrawerProps; person: Person; s: PersonDrawerState; ed: PersonEditor }

/** An invite not accepted yet: what the person sees if they sign in now, and resending it. */
function InviteNote({ props, person, s, ed }: PersonView) {
  const { client, online } = props;
  const resend = resendRefusal(props.actor, person, props.flags);
  return (
    <div className="notice person-invite-note" data-testid="invite-state">
      <p>{person.status === 'INVITED' ? 'Invited: waiting for them to accept.' : 'The invite expired before they accepted it.'}</p>
      <p className="muted">If they try to sign in now they see: “{ERROR_CATALOGUE[person.status === 'INVITED' ? 'AUTH_7026' : 'AUTH_7027'].message}”</p>
      {resend === null && (
        <Button size="sm" loading={s.busy === 'resend'} disabled={!online}
          onClick={() => {
            let until = '';
            void ed.act('resend', async () => {
              const r = await client.resendInvite(person.id);
              if (r.ok) until = formatDay(r.expires_at);
              return r.ok ? { ok: true, user: r.user } : r;
            }, () => `A new invite is on its way to ${person.email}, valid until ${until}.`);
          }}>
          {person.status === 'INVITED' ? 'Resend invite' : 'Send a new invite'}
        </Button>
      )}
    </div>
  );
}

/** Admins: role, manager flag, reporting line, department, location and entity. */
function PersonFormSection({ props, person, s, ed }: PersonView) {
  const { actor, online } = props;
  const { current, set, dirty } = ed;
  // The server's changeRole runs the same rules (ownerRefusal, auditor_role's roleFlagRefusal).
  const roles = assignableRoles(actor, person, TEAM_ROLES, props.flags);
  const { options } = props.reference;
  return (
    <form className="person-form" onSubmit={(e) => void ed.save(e)} aria-labelledby={`${person.id}-edit`}>
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
        <Button type="submit" variant="primary" loading={s.busy === 'save'} disabled={!online || !dirty}>Save changes</Button>
        {dirty && <Button variant="ghost" onClick={ed.reset}>Reset</Button>}
      </div>
    </form>
  );
}

/**
 * Issue 29: a person holding AP clerk access (AP_ACCESS: manages and pays bills) and the way to
 * take it away, which asks first. Shown once the server's read of the person says they hold it.
 */
function ApClerkAccess({ props, person, s }: PersonView) {
  if (!s.permissions?.includes('AP_ACCESS')) return null;
  const block = apClerkRemovalRefusal(props.actor, { role: person.role, user_permissions: s.permissions });
  return (
    <section className="person-danger" aria-labelledby={`${person.id}-ap`} data-testid="ap-clerk-access">
      <h3 id={`${person.id}-ap`} className="claim-section-title">Bill pay</h3>
      <p>AP clerk: manages and pays the business’s bills.</p>
      {block === null ? (
        <div className="person-form-actions">
          <Button loading={s.busy === 'access'} disabled={!props.online} onClick={() => s.setConfirm('ap-clerk')}>Remove AP clerk access</Button>
        </div>
      ) : <p className="muted">{block.message}</p>}
    </section>
  );
}

/** Suspend and delete ask first; a deleted person closes the drawer. */
function PersonConfirm({ props, person, s, ed, invited }: PersonView & { invited: boolean }) {
  const { client } = props;
  const { name } = ed;
  const setConfirm = s.setConfirm;
  return (
    <>
      {s.confirm === 'suspend' && (
        <ConfirmDialog title={`Suspend ${name}?`} confirmLabel="Suspend" tone="danger" onClose={() => setConfirm(null)}
          description={`${name} is signed out everywhere and can’t sign in until unsuspended. Their cards and history stay.`}
          onConfirm={async () => (await ed.act('suspend', () => client.suspendUser(person.id), `${name} is suspended.`), true)} />
      )}
      {s.confirm === 'ap-clerk' && (
        <ConfirmDialog title={`Remove ${name}’s AP clerk access?`} confirmLabel="Remove access" tone="danger" onClose={() => setConfirm(null)}
          description={`${name} can no longer see, manage or pay the business’s bills, except the ones they created or are asked to approve. Their other access stays.`}
          onConfirm={async () => (await ed.act('access', async () => {
            const r = await client.removeApClerk(person.id);
            if (r.ok) s.setAccess({ id: person.id, permissions: r.user.user_permissions });
            return r;
          }, `${name} is no longer an AP clerk.`), true)} />
      )}
      {s.confirm === 'delete' && (
        <ConfirmDialog title={`Delete ${name}?`} confirmLabel="Delete" tone="danger" onClose={() => setConfirm(null)}
          description={invited ? `Their invite is withdrawn and ${person.email} can no longer join.` : `${name} is removed from the business and signed out everywhere. Their past spend stays in reports.`}
          onConfirm={async () => {
            const done = await ed.act('suspend', async () => {
              const r = await client.deleteUser(person.id);
              return r.ok ? { ok: true, user: { ...person, change_seq: Number.MAX_SAFE_INTEGER, deleted: true } } : r;
            }, `${name} was deleted.`);
            if (done) props.onClose();
            // A refusal shows in the drawer, in the server's words.
            return true;
          }} />
      )}
    </>
  );
}
