import { useState } from 'react';
import { SAVED_VIEW_NAME_MAX } from '../../../schema/saved-views.ts';
import { Button } from '../button.tsx';
import { FormError } from '../form-error.tsx';
import { Modal } from '../modal.tsx';
import { TextField } from '../text-field.tsx';

export interface SaveViewDialogProps {
  /** 'create': save the current filters as a new view; 'edit': rename or share an existing one. */
  mode: 'create' | 'edit';
  initialName: string;
  initialShared: boolean;
  /** Who a shared view reaches, in words ("everyone who can see transactions"). */
  audience: string;
  onClose(): void;
  /** The refusal's words (the dialog stays open), or null once saved. */
  onSave(name: string, shared: boolean): Promise<string | null>;
}

/** Name and sharing of a saved view. */
export function SaveViewDialog({ mode, initialName, initialShared, audience, onClose, onSave }: SaveViewDialogProps) {
  const [name, setName] = useState(initialName);
  const [shared, setShared] = useState(initialShared);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  return (
    <Modal
      title={mode === 'create' ? 'Save view' : 'Rename or share view'}
      description={mode === 'create' ? 'Keeps the current filters and sort under a name, to apply again from the Views menu.' : undefined}
      onClose={onClose}
      onSubmit={async (e) => {
        e.preventDefault();
        if (!name.trim()) return setNameError('Give the view a name.');
        setNameError(null);
        setBusy(true);
        try {
          const failure = await onSave(name.trim(), shared);
          if (failure) setError(failure);
          else onClose();
        } finally {
          setBusy(false);
        }
      }}
    >
      <div className="stack">
        <TextField label="Name" value={name} onChange={setName} maxLength={SAVED_VIEW_NAME_MAX} autoFocus required error={nameError} />
        <label className="check">
          <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} />
          Share with {audience}
        </label>
        <FormError message={error} />
      </div>
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy}>
          {mode === 'create' ? 'Save view' : 'Save changes'}
        </Button>
      </div>
    </Modal>
  );
}
