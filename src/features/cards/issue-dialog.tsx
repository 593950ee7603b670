import { useId, useMemo, useRef, type FormEvent } from 'react';
import type { CardActor } from '../../../schema/card-rules.ts';
import { fullName } from '../../../schema/entities/spend-user.ts';
import { ModalActions } from '../../components/modal-actions.tsx';
import { Combobox } from '../../components/combobox.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import type { SelectOption } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { emptyIssueValues, issueCommand } from './card-form.ts';
import { CardKindField, LimitFields } from './card-dialogs.tsx';
import { issuableUsers } from './card-view.ts';
import { runCardCommand } from './commands.ts';
import { useCardForm } from './use-card-form.ts';

export interface IssueDialogProps {
  client: DataClient;
  actor: CardActor;
  reference: ReferenceView;
  currency: string;
  onClose(): void;
  /** The new card's id once its command is durable here (the page may open it). */
  onIssued(id: string): void;
  returnFocus?: () => HTMLElement | null | undefined;
}

const NONE: SelectOption = { value: '', label: 'None' };

/**
 * "Issue card" (admins and managers): the cardholder (only people the viewer may issue to,
 * `checkIssue`), the card's name, virtual or physical, its limit, and optional categories,
 * department and location. `card.issue` with a client id: the card shows at once as
 * "Requested · waiting to sync" and gets its number when the server issues it.
 */
export function IssueDialog({ client, actor, reference, currency, onClose, onIssued, returnFocus }: IssueDialogProps) {
  const { values, errors, formError, setFormError, busy, currencies, set, checked, run } = useCardForm(() => emptyIssueValues(currency), currency);
  const id = useRef(crypto.randomUUID());
  const categoriesHint = useId();
  const holders = useMemo(
    () => issuableUsers(actor, reference.data.users).map((u) => ({ value: u.id, label: fullName(u) || u.email })).sort((a, b) => a.label.localeCompare(b.label)),
    [actor, reference.data.users],
  );

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const built = checked(issueCommand(values, id.current, actor));
    if (!built) return;
    await run(async () => {
      if (await runCardCommand(client, 'card.issue', built.input, 'Card saved on this device. It gets its number once the server issues it.')) onIssued(id.current);
    });
  }

  return (
    <Modal title="Issue card" onClose={onClose} onSubmit={submit} returnFocus={returnFocus} size="lg">
      <FormError message={formError} />
      {holders.length === 0 && <p className="notice">There is nobody you can issue a card to yet: managers issue cards to the people on their team.</p>}
      <div className="modal-fields card-fields">
        <div className="field">
          <Combobox label="Cardholder" value={values.user_id} options={holders} onChange={(v) => set('user_id', v)} />
          {errors.user_id && <span className="field-error">{errors.user_id}</span>}
        </div>
        <TextField label="Card name" value={values.display_name} error={errors.display_name} onChange={(v) => set('display_name', v)} />
      </div>
      <CardKindField
        name="issue-kind"
        isPhysical={values.is_physical}
        hints={{ virtual: 'Usable as soon as it is issued', physical: 'Shipped; the cardholder activates it' }}
        onChange={(v) => set('is_physical', v)}
      />
      <LimitFields values={values} currencies={currencies} errors={errors} onChange={set} />
      <div className="modal-fields card-fields">
        <label className="field card-wide">
          <span className="field-label">Merchant categories (optional)</span>
          <input
            type="text"
            autoComplete="off"
            placeholder="Any category"
            value={values.categories}
            aria-invalid={errors.categories ? true : undefined}
            aria-describedby={categoriesHint}
            onChange={(e) => set('categories', e.target.value)}
          />
          <span id={categoriesHint} className={errors.categories ? 'field-error' : 'field-hint muted'}>
            {errors.categories ?? 'Separate with commas, e.g. Airlines, Hotels. Leave empty to allow every category.'}
          </span>
        </label>
        <Combobox label="Department" value={values.department_id} options={reference.options.departments} leading={[NONE]} onChange={(v) => set('department_id', v)} />
        <Combobox label="Location" value={values.location_id} options={reference.options.locations} leading={[NONE]} onChange={(v) => set('location_id', v)} />
      </div>
      <ModalActions onCancel={onClose} submitLabel="Issue card" busy={busy} />
    </Modal>
  );
}
