import { useId, useMemo, useState, type ReactNode } from 'react';
import type { RecurringBillTemplate } from '../../../../schema/entities/recurring-bill.ts';
import { MAX_DAYS_UNTIL_DUE, MAX_INVOICE_PATTERN_LENGTH } from '../../../../schema/entities/recurring-bill.ts';
import { Button } from '../../../components/button.tsx';
import { DeleteDialog } from '../../../components/confirm-dialog.tsx';
import { DateField } from '../../../components/date-field.tsx';
import { FieldNote } from '../../../components/field-note.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { ModalActions } from '../../../components/modal-actions.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { callThen } from '../../../lib/forms/call-then.ts';
import { useCheckedSubmit, withoutErrors } from '../../../lib/forms/use-checked-submit.ts';
import { formatDay } from '../../../lib/format.ts';
import { toastError, toastInfo } from '../../../lib/toast-store.ts';
import { billFormErrors, localToday, withVendorDefaults } from '../bill-form.ts';
import { BillMemoField, CurrencyField, VendorField } from '../bill-form-fields.tsx';
import { linesSummary } from './extras-forms.ts';
import { ExtrasLines, useExtrasList, type ExtrasPageData } from './extras-parts.tsx';
import { ExtrasPage, recurringColumns } from './extras-list.tsx';
import {
  emptyRecurringValues, firstBillPreview, frequencyText, INTERVAL_OPTIONS, ordinal, recurringInput, recurringPatch, recurringValues, WEEKDAYS,
  type RecurringFormValues,
} from './recurring.ts';
import { currencyChoices } from '../../../lib/currency-choices.ts';


/**
 * Issue 11 §7: /bills/recurring. A recurring bill is a vendor's bill that repeats (rent, a
 * subscription): the server makes one bill per period on its schedule, as a draft or sent for
 * approval. The table says what each is, how often, when the next bill is made and whether it
 * runs; Pause stops it (periods missed while paused are not billed on resume), Delete ends it
 * (its bills stay). Recurring bills live on the server only: offline the page says so, shows none.
 */
export function RecurringBillsPage() {
  const { page, list, reload, pageProps, dialog, setDialog, close, said, saved } = useExtrasList<RecurringBillTemplate>('recurring',
    (c) => c.recurringBills().then((r) => (r.ok ? { ok: true as const, rows: r.recurring } : r)), recurringColumns);
  const { client } = page;
  const [switching, setSwitching] = useState<string | null>(null);
  const rows = list.state === 'ready' ? list.rows : [];

  async function setStatus(t: RecurringBillTemplate, status: RecurringBillTemplate['status']) {
    setSwitching(t.id);
    try {
      const r = await client.updateRecurringBill(t.id, { status });
      if (!r.ok) return toastError(`${linesSummary(t)} was not ${status === 'PAUSED' ? 'paused' : 'resumed'}: ${errorText(r.error)}`);
      const next = r.recurring.next_period_start;
      toastInfo(status === 'PAUSED'
        ? `${linesSummary(t)} is paused: no bills are made until you resume it.`
        : `${linesSummary(t)} resumed${next ? `: the next bill is made ${formatDay(next)}` : ''}. Periods missed while paused are not billed.`);
      reload();
    } finally {
      setSwitching(null);
    }
  }

  return (
    <ExtrasPage<RecurringBillTemplate>
      {...pageProps}
      title="Recurring bills"
      current="/bills/recurring"
      newLabel="New recurring bill"
      offlineBody="Recurring bills are kept and run on the server, not on this device, so they cannot be shown or changed while you’re offline. They keep making their bills meanwhile."
      blankTitle="No recurring bills yet"
      blankBody="For a bill that repeats — rent, a subscription, a retainer — set it up once: a bill is made for every period on its schedule, as a draft or sent for approval, due when you say."
      rowClassName="recurring-row"
      queryKey="recurring"
      items={rows}
      onOpen={(row) => setDialog({ kind: 'edit', row })}
      rowActions={(t) => {
        const name = <span className="sr-only">{linesSummary(t)}</span>;
        return (
          <>
            <Button size="sm" loading={switching === t.id} disabled={switching !== null} onClick={() => void setStatus(t, t.status === 'ACTIVE' ? 'PAUSED' : 'ACTIVE')}>
              {t.status === 'ACTIVE' ? 'Pause' : 'Resume'} {name}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setDialog({ kind: 'edit', row: t })}>Edit {name}</Button>
            <Button size="sm" variant="ghost" onClick={() => setDialog({ kind: 'delete', row: t })}>Delete {name}</Button>
          </>
        );
      }}
    >
      {(dialog?.kind === 'new' || dialog?.kind === 'edit') && (
        <RecurringFormDialog page={page} editing={dialog.kind === 'edit' ? dialog.row : undefined} onClose={close}
          onSaved={(t) => saved(dialog.kind === 'new' ? setUpText(t) : `${linesSummary(t)} saved${t.next_period_start ? `: the next bill is made ${formatDay(t.next_period_start)}` : ''}.`)} />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog title={`Delete the recurring bill “${linesSummary(dialog.row)}”?`} description={deleteText(dialog.row)} confirmLabel="Delete recurring bill" onClose={close}
          onDelete={callThen(() => client.deleteRecurringBill(dialog.row.id), () => said('Recurring bill deleted.'))} />
      )}
    </ExtrasPage>
  );
}

const setUpText = (t: RecurringBillTemplate) =>
  `Recurring bill set up: ${frequencyText(t).toLowerCase()}${t.next_period_start ? `, the next bill made ${formatDay(t.next_period_start)}` : ''}.`;

function deleteText({ generated_count: n }: RecurringBillTemplate) {
  return `No more bills are made from it. ${n > 0 ? `The ${n === 1 ? 'bill' : `${n} bills`} it already made stay${n === 1 ? 's' : ''} as ${n === 1 ? 'it is' : 'they are'}.` : 'It has not made any bill yet.'}`;
}

interface RecurringFormDialogProps {
  page: ExtrasPageData;
  /** Editing this recurring bill; setting up a new one without it. */
  editing?: RecurringBillTemplate | undefined;
  onClose(): void;
  onSaved(t: RecurringBillTemplate): void;
}

/**
 * "New recurring bill": the bill (vendor, currency, lines, memo) and its schedule (frequency, the
 * day, start, an optional end or number of bills), each bill's invoice number pattern and terms,
 * and whether its bills go for approval at once. Checked as the server does before it is sent.
 * Editing changes the bills made from now on; those already made stay as they are (a new schedule
 * starts from today: periods before it are not billed).
 */
function RecurringFormDialog({ page, editing, onClose, onSaved }: RecurringFormDialogProps) {
  const { client, reference, vendorOptions } = page;
  const today = useMemo(() => localToday(), []);
  const [values, setValues] = useState<RecurringFormValues>(() => (editing ? recurringValues(editing) : emptyRecurringValues(page.currency, today)));
  const vendors = reference.data.vendors;
  const currencies = currencyChoices(page.currency, values.currency);
  const preview = firstBillPreview(values);
  const weekly = values.interval === 'WEEKLY';

  const clear = (...keys: string[]) => setErrors((e) => withoutErrors(e, keys));
  function set<K extends Exclude<keyof RecurringFormValues, 'lines'>>(key: K, value: RecurringFormValues[K]) {
    setValues((v) => {
      const next = { ...v, [key]: value };
      if (key === 'vendor_id') next.lines = withVendorDefaults(v.lines, vendors.find((x) => x.id === value) ?? null);
      return next;
    });
    clear(key, ...(key === 'interval' || key === 'start_date' ? ['day_of_month', 'day_of_week', 'end_date', 'invoice_number_pattern'] : []));
  }

  const { errors, setErrors, formError, busy, submit } = useCheckedSubmit(() => recurringInput(values), async (body) => {
    const r = editing ? await client.updateRecurringBill(editing.id, recurringPatch(body)) : await client.createRecurringBill(body);
    if (!r.ok) return r.error;
    onSaved(r.recurring);
    return null;
  }, billFormErrors);

  const dayOptions = weekly
    ? WEEKDAYS.map((d, i) => ({ value: String(i + 1), label: d }))
    : Array.from({ length: 31 }, (_, i) => ({ value: String(i + 1), label: `The ${ordinal(i + 1)}${i + 1 > 28 ? ' (or the month’s last day)' : ''}` }));

  return (
    <Modal
      title={editing ? 'Edit recurring bill' : 'New recurring bill'}
      description={editing
        ? 'Changes apply to the bills made from now on; the bills already made stay as they are.'
        : 'A vendor’s bill that repeats. A bill is made for each period on the schedule.'}
      onClose={onClose}
      onSubmit={submit}
      size="lg"
    >
      <FormError message={formError} />
      <div className="modal-fields bill-fields">
        <VendorField field="vendor_id" label="Vendor" value={values.vendor_id} options={vendorOptions} error={errors.vendor_id}
          hint={vendorOptions.length === 0 ? 'No vendors yet: add one on the Vendors page first.' : undefined} onChange={(v) => set('vendor_id', v)} />
        <CurrencyField field="currency" label="Currency" value={values.currency} currencies={currencies} error={errors.currency} onChange={(v) => set('currency', v)} />
        <ExtrasLines values={values} setValues={setValues} clear={clear} reference={reference} errors={errors} keyPrefix="recurring-line" firstSeq={editing?.line_items.length ?? 0} />
        <BillMemoField field="memo" label="Memo" value={values.memo} error={errors.memo} onChange={(v) => set('memo', v)} />
        <fieldset className="bill-wide recurring-schedule">
          <legend className="field-label">Schedule</legend>
          <div className="recurring-schedule-fields">
            <Select field="interval" label="Frequency" value={values.interval} options={INTERVAL_OPTIONS} error={errors.interval}
              onChange={(v) => set('interval', v as RecurringFormValues['interval'])} />
            <Select
              field={weekly ? 'day_of_week' : 'day_of_month'}
              label={weekly ? 'Weekday' : 'Day of the month'}
              value={weekly ? values.day_of_week : values.day_of_month}
              leading={{ value: '', label: weekly ? 'The start date’s weekday' : 'The start date’s day' }}
              options={dayOptions}
              error={weekly ? errors.day_of_week : errors.day_of_month}
              onChange={(v) => set(weekly ? 'day_of_week' : 'day_of_month', v)}
            />
            <DateField field="start_date" label="Starts" value={values.start_date} error={errors.start_date}
              hint={values.start_date && values.start_date < today ? 'In the past: the periods since then are billed at once (up to 12).' : undefined}
              onChange={(v) => set('start_date', v)} />
            <DateField field="end_date" label="Ends (optional)" value={values.end_date} min={values.start_date || undefined} error={errors.end_date}
              hint="The last day a bill may be made on. Empty: no end date." onChange={(v) => set('end_date', v)} />
            <TextField field="max_occurrences" label="Number of bills (optional)" value={values.max_occurrences} autoComplete="off" error={errors.max_occurrences}
              hint="Empty: no limit." onChange={(v) => set('max_occurrences', v)} />
            <TextField field="days_until_due" label="Days until due" value={values.days_until_due} autoComplete="off" error={errors.days_until_due}
              hint={`Each bill is due this many days after it is made (0–${MAX_DAYS_UNTIL_DUE}).`} onChange={(v) => set('days_until_due', v)} />
          </div>
        </fieldset>
        <div className="bill-wide">
          <TextField field="invoice_number_pattern" label="Invoice number pattern" value={values.invoice_number_pattern} maxLength={MAX_INVOICE_PATTERN_LENGTH}
            autoComplete="off" error={errors.invoice_number_pattern}
            hint="{YYYY} {YY} {MM} {DD} are the bill’s date, {Q} its quarter, {N} its number in the series; e.g. RENT-{YYYY}-{MM}."
            onChange={(v) => set('invoice_number_pattern', v)} />
        </div>
        <label className="check bill-wide recurring-submit">
          <input type="checkbox" checked={values.submit_for_approval} onChange={(e) => set('submit_for_approval', e.target.checked)} />
          Send each bill for approval as soon as it is made (otherwise it waits as a draft)
        </label>
        {!editing && (
          <p className="notice bill-wide recurring-preview" role="status" data-testid="recurring-preview">
            {preview
              ? <>First bill: <strong>{formatDay(preview.date)}</strong>, invoice <span className="mono">{preview.invoice_number}</span>, due {formatDay(preview.due_date)}.</>
              : 'Choose a start date (and an end after it) to see the first bill.'}
          </p>
        )}
      </div>
      <ModalActions submitLabel={editing ? 'Save changes' : 'Set up recurring bill'} busy={busy} onCancel={onClose} />
    </Modal>
  );
}

/** A labelled native select in the `.field` markup, with its error or hint under it and `data-field`. */
function Select(props: {
  field: string; label: string; value: string; options: readonly { value: string; label: string }[];
  leading?: { value: string; label: string }; error?: string | undefined; hint?: ReactNode; onChange(v: string): void;
}) {
  const noteId = useId();
  return (
    <label className="field" data-field={props.field}>
      <span className="field-label">{props.label}</span>
      <select value={props.value} aria-invalid={props.error ? true : undefined} aria-describedby={props.error || props.hint ? noteId : undefined}
        onChange={(e) => props.onChange(e.target.value)}>
        {[...(props.leading ? [props.leading] : []), ...props.options].map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldNote id={noteId} error={props.error} hint={props.hint} />
    </label>
  );
}
