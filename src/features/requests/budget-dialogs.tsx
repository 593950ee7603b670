import { useId, useMemo, useState, type FormEvent } from 'react';
import type { SpendAllocation } from '../../../schema/entities/spend-allocation.ts';
import type { UserRow } from '../../../schema/entities/spend-user.ts';
import { DateField } from '../../components/date-field.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { MoneyField } from '../../components/money-field.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { localDay } from '../../lib/bill-labels.ts';
import { currencyChoices } from '../../lib/currency-choices.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatCount } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { addablePeople, budgetBody, emptyBudgetValues, type BudgetErrors, type BudgetValues } from './budget-form.ts';

const INTERVAL_OPTIONS = [
  { value: 'MONTHLY', label: 'Every month' }, { value: 'WEEKLY', label: 'Every week' }, { value: 'YEARLY', label: 'Every year' },
  { value: 'DAILY', label: 'Every day' }, { value: 'TOTAL', label: 'One time (total)' },
];

const OFFLINE_NOTE = 'You’re offline. Budgets are created and changed with a connection: nothing is sent until you’re back online.';

/** The id a create call answered (the allocation itself, or wrapped), if it says one. */
function answeredId(answer: unknown): string | null {
  const a = answer as { id?: unknown; allocation?: { id?: unknown }; spend_allocation?: { id?: unknown } };
  const id = a.id ?? a.allocation?.id ?? a.spend_allocation?.id;
  return typeof id === 'string' ? id : null;
}

/**
 * "New budget" (admins and managers): name, limit and interval, optional end date and
 * description, the first members. A direct call (`createSpendAllocation`): offline the dialog
 * says so and keeps what was typed.
 */
export function NewBudgetDialog({ client, currency, online, users, onClose, onCreated, returnFocus }: {
  client: DataClient; currency: string; online: boolean; users: readonly UserRow[];
  onClose(): void; onCreated(id: string | null): void; returnFocus?: () => HTMLElement | null | undefined;
}) {
  const [values, setValues] = useState<BudgetValues>(() => emptyBudgetValues(currency));
  const [errors, setErrors] = useState<BudgetErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const today = localDay();
  const base = useId();
  const currencies = useMemo(() => currencyChoices(currency, values.currency), [currency, values.currency]);
  const people = useMemo(() => addablePeople(null, users), [users]);
  const set = <K extends keyof BudgetValues>(key: K, value: BudgetValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const built = budgetBody(values, today);
    if (!built.ok) {
      setErrors(built.errors);
      setFormError('Check the fields marked below.');
      return;
    }
    setBusy(true);
    try {
      const result = await client.createSpendAllocation(built.body);
      if (!result.ok) {
        setFormError(errorText(result.error));
        return;
      }
      toastInfo(`Budget “${built.body.name}” created.`);
      onCreated(answeredId(result));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title="New budget" description="A limit that cards spend from. Members can ask for more; what is left shows on the budget and its cards." size="lg"
      onClose={onClose} onSubmit={submit} returnFocus={returnFocus}>
      <FormError message={formError} />
      <div className="modal-fields budget-fields">
        <TextField label="Name" value={values.name} maxLength={120} autoFocus error={errors.name} onChange={(v) => set('name', v)} />
        <DateField label="End date (optional)" value={values.end_date} min={today} error={errors.end_date} onChange={(v) => set('end_date', v)} />
        <MoneyField amountLabel="Limit" amount={values.amount} currency={values.currency} currencies={currencies} error={errors.amount ?? errors.currency}
          onAmount={(v) => set('amount', v)} onCurrency={(v) => set('currency', v)} />
        <SelectField label="Interval" value={values.interval} options={INTERVAL_OPTIONS} onChange={(v) => set('interval', v as BudgetValues['interval'])} />
        <label className="field request-wide">
          <span className="field-label">Description (optional)</span>
          <textarea rows={2} maxLength={2000} value={values.description} onChange={(e) => set('description', e.target.value)} />
        </label>
        <div className="request-wide">
          <PeoplePicker legend="Members (optional)" idBase={base} people={people} chosen={values.member_ids} onChange={(ids) => set('member_ids', ids)} />
          {errors.member_ids && <span className="field-error">{errors.member_ids}</span>}
        </div>
      </div>
      {!online && <p className="notice notice-warn" role="note">{OFFLINE_NOTE}</p>}
      <ModalActions onCancel={onClose} submitLabel="Create budget" busy={busy} submitDisabled={!online} />
    </Modal>
  );
}

/** "Add people" to a budget (its owner, admins, managers): a direct call (`addSpendAllocationUsers`), online only. */
export function AddPeopleDialog({ client, online, budget, users, onClose, returnFocus }: {
  client: DataClient; online: boolean; budget: SpendAllocation; users: readonly UserRow[]; onClose(): void; returnFocus?: () => HTMLElement | null | undefined;
}) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const base = useId();
  const people = useMemo(() => addablePeople(budget, users), [budget, users]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    if (chosen.length === 0) {
      setFormError('Choose at least one person to add.');
      return;
    }
    setBusy(true);
    try {
      const result = await client.addSpendAllocationUsers(budget.id, chosen);
      if (!result.ok) {
        setFormError(errorText(result.error));
        return;
      }
      toastInfo(`${formatCount(chosen.length)} ${chosen.length === 1 ? 'person' : 'people'} added to ${budget.name}.`);
      onClose();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title={`Add people to ${budget.name}`} description="Members can see the budget, spend from its cards and ask for more." onClose={onClose} onSubmit={submit} returnFocus={returnFocus}>
      <FormError message={formError} />
      {people.length === 0 ? (
        <p className="muted">Everyone active is already in this budget.</p>
      ) : (
        <PeoplePicker legend="People" idBase={base} people={people} chosen={chosen} autoFocus onChange={setChosen} />
      )}
      {!online && <p className="notice notice-warn" role="note">{OFFLINE_NOTE}</p>}
      <ModalActions onCancel={onClose} submitLabel={chosen.length > 1 ? `Add ${formatCount(chosen.length)} people` : 'Add'} busy={busy} submitDisabled={!online || people.length === 0} />
    </Modal>
  );
}

/** A searchable checkbox list of people (a fieldset; the search box filters, the choices stay). */
function PeoplePicker({ legend, idBase, people, chosen, autoFocus, onChange }: {
  legend: string; idBase: string; people: readonly { id: string; name: string }[]; chosen: readonly string[]; autoFocus?: boolean; onChange(ids: string[]): void;
}) {
  const [q, setQ] = useState('');
  const shown = useMemo(() => {
    const t = q.trim().toLowerCase();
    return t ? people.filter((p) => p.name.toLowerCase().includes(t)) : people;
  }, [people, q]);
  const picked = new Set(chosen);
  return (
    <fieldset className="people-picker">
      <legend className="field-label">{legend}{chosen.length > 0 ? ` · ${formatCount(chosen.length)} chosen` : ''}</legend>
      <label className="field">
        <span className="sr-only">Search people</span>
        <input type="search" placeholder="Search people" value={q} autoFocus={autoFocus} onChange={(e) => setQ(e.target.value)} />
      </label>
      <ul className="people-picker-list">
        {shown.map((p) => (
          <li key={p.id}>
            <label className="check" htmlFor={`${idBase}-${p.id}`}>
              <input id={`${idBase}-${p.id}`} type="checkbox" checked={picked.has(p.id)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, p.id] : chosen.filter((id) => id !== p.id))} />
              {p.name}
            </label>
          </li>
        ))}
        {shown.length === 0 && <li className="muted">No one matches.</li>}
      </ul>
    </fieldset>
  );
}
