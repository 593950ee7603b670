import { useEffect, useRef, useState, type FormEvent } from 'react';
import { fullName } from '../../../schema/entities/spend-user.ts';
import type { Role } from '../../../schema/roles.ts';
import type { TeamFlags } from '../../../schema/team-rules.ts';
import type { BusinessEntity } from '../../../schema/api/calls-admin.ts';
import { manageRefusal } from '../../../schema/team-rules.ts';
import type { DataClient, TeamFailure, UpdateUserInput } from '../../data-access/types.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { errorText } from '../../lib/error-text.ts';
import { directConflictMessage } from '../../lib/conflict-view.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import type { Answer, Person } from './people-view.ts';

/** The drawer's props (its state hook reads them all). */
export interface PersonDrawerProps {
  /** null: not (or no longer) in the business. */
  person: Person | null;
  people: readonly Person[];
  actor: { id: string; role: string; is_manager: boolean };
  flags: TeamFlags;
  reference: ReferenceView;
  entities: readonly BusinessEntity[];
  client: DataClient;
  online: boolean;
  onAnswer(user: Answer): void;
  onClose(): void;
  returnFocus(): HTMLElement | null | undefined;
}

export type PersonForm = { role: Role; is_manager: boolean; manager_id: string; department_id: string; location_id: string; entity_id: string };
export type PersonBusy = 'save' | 'resend' | 'suspend' | 'access';
export const NONE = '';
const formOf = (p: Person, entityId: string | null): PersonForm => ({
  role: p.role, is_manager: p.is_manager, manager_id: p.manager_id ?? NONE, department_id: p.department_id ?? NONE,
  location_id: p.location_id ?? NONE, entity_id: entityId ?? NONE,
});

export type PersonDrawerState = ReturnType<typeof usePersonDrawerState>;

/** The drawer's state, each part keyed by the person it belongs to; the entity read from the server for admins. */
export function usePersonDrawerState(props: PersonDrawerProps) {
  const { person, actor, client, online } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  const id = person?.id;
  const [entityId, setEntityId] = useState<{ id: string; entity: string | null } | null>(null);
  // Issue 29: the permissions the person holds (not mirrored), read with the entity.
  const [access, setAccess] = useState<{ id: string; permissions: readonly string[] } | null>(null);
  const permissions = access && access.id === id ? access.permissions : null;
  const [form, setForm] = useState<{ id: string; form: PersonForm } | null>(null);
  // Keyed by person: opening another drops the last one's refusal.
  const [error_, setErrorFor] = useState<{ id: string; message: string } | null>(null);
  const error = error_ && error_.id === id ? error_.message : null;
  const setError = (message: string | null) => setErrorFor(message && id ? { id, message } : null);
  const [busy, setBusy] = useState<PersonBusy | null>(null);
  // Issue 24: after a 409 CONFLICT on this person, saving again keeps mine on the version it named.
  const [conflictAt, setConflictAt] = useState<{ id: string; version: number } | null>(null);
  const [confirm, setConfirm] = useState<'delete' | 'suspend' | 'ap-clerk' | null>(null);
  const admin = manageRefusal(actor) === null;

  useEffect(() => {
    heading.current?.focus();
  }, [id]);
  // The mirrored row has no entity: admins read it from the server when online.
  useEffect(() => {
    if (!id || !admin || !online) return;
    let live = true;
    void client.teamUser(id).then((r) => {
      if (!live || !r.ok) return;
      setEntityId({ id, entity: r.user.entity_id });
      setAccess({ id, permissions: r.user.user_permissions });
    });
    return () => {
      live = false;
    };
  }, [client, id, admin, online]);

  return {
    heading, id, entityId, setEntityId, permissions, setAccess, form, setForm, error, setError, busy, setBusy, conflictAt, setConflictAt, confirm, setConfirm, admin,
  };
}

export type PersonEditor = ReturnType<typeof personEditor>;

/** The form as edited over the person as shown, and the actions (each a direct call; a refusal shown in the server's words). */
export function personEditor(props: PersonDrawerProps, person: Person, s: PersonDrawerState) {
  const { client, onAnswer } = props;
  const { id, form, setForm, setEntityId, setError, setBusy, conflictAt, setConflictAt } = s;
  const knownEntity = s.entityId?.id === person.id ? s.entityId.entity : null;
  const current = form?.id === person.id ? form.form : formOf(person, knownEntity);
  const set = (patch: Partial<PersonForm>) => setForm({ id: person.id, form: { ...current, ...patch } });
  const name = fullName(person) || person.email;
  const dirty = JSON.stringify(current) !== JSON.stringify(formOf(person, knownEntity));

  async function act(kind: PersonBusy, run: () => Promise<{ ok: true; user?: Answer } | TeamFailure>, done: string | (() => string)) {
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

  return { current, set, name, dirty, act, save, reset: () => setForm(null) };
}
