import { useId, type FormEvent } from 'react';
import type { LIMIT_INTERVALS } from '../../../schema/entities/card.ts';
import type { SpendRequest, SpendRequestType } from '../../../schema/entities/spend-request.ts';
import { fullName, type SpendUser } from '../../../schema/entities/spend-user.ts';
import type { ReferenceData } from '../../../workers/api.ts';
import { Button } from '../../components/button.tsx';
import { Combobox } from '../../components/combobox.tsx';
import { DateField } from '../../components/date-field.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { MoneyField } from '../../components/money-field.tsx';
import { SelectField } from '../../components/select-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { LineItemsEditor } from './line-items-editor.tsx';
import { RequestTypeIcon } from './request-type-icon.tsx';
import type { RequestValues } from './request-form.ts';
import { useRequestForm } from './use-request-form.ts';

const TYPE_CHOICES: { type: SpendRequestType; label: string; hint: string }[] = [
  { type: 'GENERAL_EXPENSE', label: 'General expense', hint: 'A budget on a virtual card, or more room in a budget' },
  { type: 'PRODUCT_OR_SERVICE', label: 'Product or service', hint: 'Buy from a vendor: becomes a purchase order' },
  { type: 'PHYSICAL_CARD', label: 'Physical card', hint: 'A card shipped to you with its own limit' },
];

const INTERVAL_CHOICES: Record<(typeof LIMIT_INTERVALS)[number], string> = {
  TOTAL: 'One time (total)', DAILY: 'Every day', WEEKLY: 'Every week', MONTHLY: 'Every month', YEARLY: 'Every year',
};
const INTERVAL_OPTIONS = (['TOTAL', 'MONTHLY', 'WEEKLY', 'YEARLY', 'DAILY'] as const).map((i) => ({ value: i, label: INTERVAL_CHOICES[i] }));

export interface NewRequestDialogProps {
  client: DataClient;
  viewer: SpendUser;
  /** The business's currency: the request's default. */
  currency: string;
  reference: ReferenceData;
  /** "Request more" from a budget: GENERAL_EXPENSE naming it. */
  initialBudget?: string | undefined;
  /** A draft to edit ("Edit draft"): the same form, prefilled; saved with `spendRequest.update`. */
  editing?: SpendRequest | undefined;
  onClose(): void;
  /** Saved (made, or the draft edited): the request's id. */
  onCreated(id: string): void;
  returnFocus?: () => HTMLElement | null | undefined;
}

/**
 * "New request": the three types as big choices, then the fields each needs (a budget's amount
 * and interval or an existing budget to grow; a purchase's vendor and line items with their live
 * total; a physical card's limit), what it is for, when it is needed, and whom it is for
 * (managers for their team, bookkeepers for anyone). The procurement rules' words show under the
 * fields before anything is sent. "Submit for approval" or "Save as draft": the
 * `spendRequest.create` command with a client id (one per dialog), offline too — the row shows
 * at once, waiting to sync. With `editing` it is "Edit draft": the draft's values, its type and
 * whom it is for fixed (the server keeps them), "Save draft" or "Submit for approval" as one
 * `spendRequest.update`, offline too.
 */
export function NewRequestDialog({ client, viewer, currency, reference, initialBudget, editing, onClose, onCreated, returnFocus }: NewRequestDialogProps) {
  const form = useRequestForm({ client, viewer, currency, reference, initialBudget, editing, onCreated });
  const { online, values, errors, formError, busy, today, forOptions, budgets, vendorOptions, currencies, budget, set, setValues, chooseType, chooseBudget, save } = form;
  const base = useId();

  const purchase = values.type === 'PRODUCT_OR_SERVICE';
  const cardLike = values.type === 'PHYSICAL_CARD' || (values.type === 'GENERAL_EXPENSE' && !values.spend_allocation_id);
  return (
    <Modal
      title={editing ? 'Edit draft' : 'New request'}
      description={editing
        ? 'Change what you need, then keep it as a draft or submit it for approval. Nothing is sent for approval until you submit.'
        : 'Ask before you spend. Your manager or an approver reviews it; once approved, the card, the budget or the purchase order is issued.'}
      size="lg"
      onClose={onClose}
      returnFocus={returnFocus}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        void save(true);
      }}
    >
      <FormError message={formError} />
      {editing
        ? <FixedType type={values.type} forName={editing.user_id === viewer.id ? null : forName(reference, editing.user_id)} />
        : <TypeChoices idBase={base} type={values.type} autoFocus={!form.initialBudget} onChoose={chooseType} />}

      <div className="modal-fields request-fields">
        {!editing && forOptions.length > 0 && (
          <SelectField label="Request for" value={values.for_user_id} leading={[{ value: '', label: 'Myself' }]} options={forOptions}
            onChange={(v) => {
              set('for_user_id', v);
              setValues((cur) => ({ ...cur, spend_allocation_id: '' }));
            }} />
        )}
        {values.type === 'GENERAL_EXPENSE' && (
          <label className="field">
            <span className="field-label">Budget</span>
            <select value={values.spend_allocation_id} onChange={(e) => chooseBudget(e.target.value)}
              aria-invalid={errors.spend_allocation_id ? true : undefined} aria-describedby={`${base}-budget-note`}>
              <option value="">A new virtual card</option>
              {budgets.map((b) => <option key={b.id} value={b.id}>More room in {b.name}</option>)}
            </select>
            <span id={`${base}-budget-note`} className={errors.spend_allocation_id ? 'field-error' : 'field-hint muted'}>
              {errors.spend_allocation_id ?? (budget ? `Adds to ${budget.name}’s limit (${budget.limit.currency}).` : budgets.length > 0 ? 'Or add room to a budget you belong to.' : 'Approved, it becomes a virtual card with this limit.')}
            </span>
          </label>
        )}
        {purchase ? (
          <>
            <Combobox label="Vendor" value={values.vendor_id} options={vendorOptions} leading={[{ value: '', label: 'Choose a vendor' }]}
              error={errors.vendor_id} onChange={(v) => set('vendor_id', v)} />
            <SelectField label="Currency" value={values.currency} options={currencies.map((c) => ({ value: c, label: c }))} onChange={(v) => set('currency', v)} />
          </>
        ) : (
          <MoneyField amountLabel={values.type === 'GENERAL_EXPENSE' && !values.spend_allocation_id ? 'Amount (card limit)' : values.type === 'PHYSICAL_CARD' ? 'Card limit' : 'Amount'}
            amount={values.amount} currency={values.currency} currencies={budget ? [budget.limit.currency] : currencies}
            error={errors.amount ?? errors.currency} onAmount={(v) => set('amount', v)} onCurrency={(v) => set('currency', v)} />
        )}
        {cardLike && (
          <SelectField label="Interval" value={values.interval} options={INTERVAL_OPTIONS} onChange={(v) => set('interval', v as RequestValues['interval'])} />
        )}
        {purchase && (
          <div className="request-wide">
            <LineItemsEditor lines={values.lines} currency={values.currency} errors={errors} onChange={(lines) => set('lines', lines)} />
          </div>
        )}
        <label className="field request-wide">
          <span className="field-label">Description</span>
          <textarea rows={3} maxLength={2000} placeholder="What is it for, and why now?" value={values.description}
            aria-invalid={errors.description ? true : undefined} aria-describedby={errors.description ? `${base}-description-error` : undefined}
            onChange={(e) => set('description', e.target.value)} />
          {errors.description && <span id={`${base}-description-error`} className="field-error">{errors.description}</span>}
        </label>
        <DateField label="Needed by (optional)" value={values.needed_by} min={today} error={errors.needed_by} onChange={(v) => set('needed_by', v)} />
      </div>
      {!online && (
        <p className="notice notice-warn" role="note">
          You’re offline. The request is saved on this device and sent for approval when you’re back online.
        </p>
      )}
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>Cancel</Button>
        <Button variant="secondary" loading={busy === 'draft'} disabled={busy !== null} onClick={() => void save(false)}>{editing ? 'Save draft' : 'Save as draft'}</Button>
        <Button type="submit" variant="primary" loading={busy === 'submit'} disabled={busy !== null}>Submit for approval</Button>
      </div>
    </Modal>
  );
}

const forName = (reference: ReferenceData, id: string) => {
  const u = reference.users.find((x) => x.id === id);
  return u ? fullName(u) : 'someone not on this device';
};

/** Editing a draft: its type (and whom it is for) as they stay — a draft keeps them; another type is a new request. */
function FixedType({ type, forName: who }: { type: SpendRequestType; forName: string | null }) {
  const choice = TYPE_CHOICES.find((c) => c.type === type)!;
  return (
    <div className="request-type-fixed">
      <RequestTypeIcon type={type} size={20} />
      <span className="request-type-words">
        <strong>{choice.label}{who ? ` · for ${who}` : ''}</strong>
        <span className="muted">A draft keeps its type{who ? ' and whom it is for' : ''}: for another, make a new request.</span>
      </span>
    </div>
  );
}

/** The three request types as big choices (radio buttons with a glyph and a hint). */
function TypeChoices({ idBase, type, autoFocus, onChoose }: { idBase: string; type: SpendRequestType; autoFocus: boolean; onChoose(t: SpendRequestType): void }) {
  return (
    <fieldset className="request-types">
      <legend className="field-label">What do you need?</legend>
      {TYPE_CHOICES.map((c, i) => (
        <label key={c.type} className="request-type-option">
          <input type="radio" name={`${idBase}-type`} checked={type === c.type} autoFocus={i === 0 && autoFocus}
            aria-describedby={`${idBase}-${c.type}-hint`} onChange={() => onChoose(c.type)} />
          <RequestTypeIcon type={c.type} size={20} />
          <span className="request-type-words">
            <strong>{c.label}</strong>
            <span id={`${idBase}-${c.type}-hint`} className="muted">{c.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
