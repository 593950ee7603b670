import { useState, type FormEvent, type ReactNode } from 'react';
import type { UserRow } from '../../../../schema/entities/spend-user.ts';
import { ModalActions } from '../../../components/modal-actions.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { TextField } from '../../../components/text-field.tsx';
import type { OrgFailure } from '../../../data-access/types.ts';
import { errorText } from '../../../lib/error-text.ts';
import { OwnersField } from './owners-field.tsx';

/** What a save says back: nothing (done, the dialog closes) or the refusal. */
export type SaveOutcome = OrgFailure | null;

/** A refusal's words for the form and, when the server named them, per field. */
export function refusalText(f: OrgFailure): { form: string | null; fields: Record<string, string> } {
  const fields = f.error.errors ?? {};
  const named = Object.keys(fields).length > 0;
  return { form: named ? null : errorText(f.error), fields };
}

export interface NameDialogProps {
  title: string;
  label: string;
  initial: string;
  confirmLabel: string;
  /** A local check before the call (empty, too long), or null. */
  check(name: string): string | null;
  onSave(name: string): Promise<SaveOutcome>;
  onClose(): void;
  /** More fields under the name (a new department's owners). */
  children?: ReactNode;
}

/** Create or rename: one name field; the server's refusal (a duplicate name) lands under it. */
export function NameDialog({ title, label, initial, confirmLabel, check, onSave, onClose, children }: NameDialogProps) {
  const [name, setName] = useState(initial);
  const [nameErr, setNameErr] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const local = check(name);
    setNameErr(local);
    if (local) return;
    setBusy(true);
    try {
      const failure = await onSave(name.trim());
      if (!failure) return onClose();
      const { form, fields } = refusalText(failure);
      setNameErr(fields.name ?? null);
      setError(form ?? (fields.name ? null : Object.values(fields)[0] ?? null));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal title={title} onClose={onClose} onSubmit={submit}>
      <TextField label={label} value={name} onChange={setName} autoFocus required maxLength={200} error={nameErr} field="name" />
      {children}
      <FormError message={error} />
      <ModalActions onCancel={onClose} submitLabel={confirmLabel} busy={busy} />
    </Modal>
  );
}

export interface OwnersDialogProps {
  title: string;
  description: string;
  initial: readonly string[];
  users: readonly UserRow[];
  names: ReadonlyMap<string, string>;
  onSave(ids: string[]): Promise<SaveOutcome>;
  onClose(): void;
}

/** Set owners: the whole list is saved at once (the server replaces it). */
export function OwnersDialog({ title, description, initial, users, names, onSave, onClose }: OwnersDialogProps) {
  const [ids, setIds] = useState<string[]>([...initial]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const failure = await onSave(ids);
      if (!failure) return onClose();
      const { form, fields } = refusalText(failure);
      setError(form ?? Object.values(fields)[0] ?? null);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal title={title} description={description} onClose={onClose} onSubmit={submit}>
      <OwnersField value={ids} onChange={setIds} users={users} names={names} />
      <FormError message={error} />
      <ModalActions onCancel={onClose} submitLabel="Save owners" busy={busy} />
    </Modal>
  );
}

/** The offline note every organisation page shows above its list (the app's banner says "offline" already). */
export function OfflineNote({ what }: { what: string }) {
  return (
    <p className="org-offline">
      This is the copy of the {what} on this device. Adding, renaming, deleting and changing owners need a connection.
    </p>
  );
}

/** While the mirror's reference data is read (a moment at most: it is in memory in the worker). */
export function ListLoading({ what }: { what: string }) {
  return (
    <div className="org-loading" role="status">
      <span className="sr-only">Loading {what}…</span>
      {[0, 1, 2, 3].map((i) => <Skeleton key={i} height={36} />)}
    </div>
  );
}
