import { useCallback, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import type { RecurringBillTemplate } from '../../../../schema/entities/recurring-bill.ts';
import { MAX_DAYS_UNTIL_DUE, MAX_INVOICE_PATTERN_LENGTH } from '../../../../schema/entities/recurring-bill.ts';
import { Button } from '../../../components/button.tsx';
import { DateField } from '../../../components/date-field.tsx';
import { FieldNote } from '../../../components/field-note.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { TextField } from '../../../components/text-field.tsx';
import type { DataClient } from '../../../data-access/types.ts';
import { errorText } from '../../../lib/error-text.ts';
import { formatDay } from '../../../lib/format.ts';
import type { ReferenceView } from '../../../lib/reference-data.ts';
import { toastError, toastInfo } from '../../../lib/toast-store.ts';
import { billFormErrors, emptyLine, localToday, withVendorDefaults, type BillLineValues } from '../bill-form.ts';
import { BillMemoField, CurrencyField, VendorField } from '../bill-form-fields.tsx';
import { BillLinesEditor } from '../bill-lines.tsx';
import { linesSummary } from './extras-forms.ts';
import { DeleteDialog, useExtrasPage } from './extras-parts.tsx';
import { useExtrasForm } from './use-extras-form.ts';
import { ExtrasPage, recurringColumns } from './extras-list.tsx';
import {
  emptyRecurringValues, firstBillPreview, frequencyText, INTERVAL_OPTIONS, ordinal, recurringInput, recurringPatch, recurringValues, WEEKDAYS,
  type RecurringFormValues,
} from './recurring.ts';
import { useOnlineList } from '../../../lib/use-online-list.ts';
import { currencyChoices } from '../../../lib/currency-choices.ts';


/**
 * Issue 11 §7: /bills/recurring. A recurring bill is a vendor's bill that repeats (rent, a
 * subscription): the server makes one bill per period on its schedule, as a draft or sent for
 * approval. The table says what each is, how often, when the next bill is made and whether it
 * runs; Pause stops it (periods missed while paused are not billed on resume), Delete ends it
 * (its bills stay). Recurring bills live on the server only: offline the page says so, shows none.
 */
export function RecurringBillsPage() {
  const { client, online, reference, currency, vendorName, vendorOptions } = useExtrasPage();
  const { list, reload } = useOnlineList(online, 'recurring', useCallback(async () => {
    const r = await client.recurringBills();
    return r.ok ? { ok: true as const, rows: r.recurring } : r;
  }, [client]));
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<RecurringBillTemplate | null>(null);
  const [deleting, setDeleting] = useState<RecurringBillTemplate | null>(null);
  const [switching, setSwitching] = useState<string | null>(null);
  const rows = list.state === 'ready' ? list.rows : [];
  const columns = useMemo(() => recurringColumns(vendorName), [vendorName]);

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
      title="Recurring bills"
      current="/bills/recurring"
      newLabel="New recurring bill"
      onNew={() => setCreating(true)}
      online={online}
      list={list}
      reload={reload}
      offlineBody="Recurring bills are kept and run on the server, not on this device, so they cannot be shown or changed while you’re offline. They keep making their bills meanwhile."
      blankTitle="No recurring bills yet"
      blankBody="For a bill that repeats — rent, a subscription, a retainer — set it up once: a bill is made for every period on its schedule, as a draft or sent for approval, due when you say."
      rowClassName="recurring-row"
      queryKey="recurring"
      items={rows}
      columns={columns}
      onOpen={setEditing}
      dialogOpen={creating || editing !== null || deleting !== null}
      rowActions={(t) => {
        const name = linesSummary(t);
        return (
          <>
            <Button size="sm" loading={switching === t.id} disabled={switching !== null} onClick={() => void setStatus(t, t.status === 'ACTIVE' ? 'PAUSED' : 'ACTIVE')}>
              {t.status === 'ACTIVE' ? 'Pause' : 'Resume'} <span className="sr-only">{name}</span>
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setEditing(t)}>
              Edit <span className="sr-only">{name}</span>
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setDeleting(t)}>
              Delete <span className="sr-only">{name}</span>
            </Button>
          </>
        );
      }}
    >
      {creating && (
        <RecurringFormDialog
          client={client}
          reference={reference}
          currency={currency}
          vendorOptions={vendorOptions}
          onClose={() => setCreating(false)}
          onSaved={(t) => {
            setCreating(false);
            toastInfo(`Recurring bill set up: ${frequencyText(t).toLowerCase()}${t.next_period_start ? `, the next bill made ${formatDay(t.next_period_start)}` : ''}.`);
            reload();
          }}
        />
      )}
      {editing && (
        <RecurringFormDialog
          client={client}
          reference={reference}
          currency={currency}
          vendorOptions={vendorOptions}
          editing={editing}
          onClose={() => setEditing(null)}
          onSaved={(t) => {
            setEditing(null);
            toastInfo(`${linesSummary(t)} saved${t.next_period_start ? `: the next bill is made ${formatDay(t.next_period_start)}` : ''}.`);
            reload();
          }}
        />
      )}
      {deleting && (
        <DeleteDialog
          title={`Delete the recurring bill “${linesSummary(deleting)}”?`}
          description={`No more bills are made from it. ${deleting.generated_count > 0 ? `The ${deleting.generated_count === 1 ? 'bill' : `${deleting.generated_count} bills`} it already made stay${deleting.generated_count === 1 ? 's' : ''} as ${deleting.generated_count === 1 ? 'it is' : 'they are'}.` : 'It has not made any bill yet.'}`}
          confirmLabel="Delete recurring bill"
          onClose={() => setDeleting(null)}
          onDelete={async () => {
            const r = await client.deleteRecurringBill(deleting.id);
            if (!r.ok) return r.error;
            toastInfo('Recurring bill deleted.');
            reload();
            return null;
          }}
        />
      )}
    </ExtrasPage>
  );
}

interface RecurringFormDialogProps {
  client: DataClient;
  reference: ReferenceView;
  currency: string;
  vendorOptions: readonly { value: string; label: string }[];
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
function RecurringFormDialog({ client, reference, currency, vendorOptions, editing, onClose, onSaved }: RecurringFormDialogProps) {
  const today = useMemo(() => localToday(), []);
  const seq = useRef(editing?.line_items.length ?? 0);
  const [values, setValues] = useState<RecurringFormValues>(() => (editing ? recurringValues(editing) : emptyRecurringValues(currency, today)));
  const vendors = reference.data.vendors;
  const currencies = currencyChoices(currency, values.currency);
  const preview = firstBillPreview(values);
  const weekly = values.interval === 'WEEKLY';

  const clear = (...keys: string[]) => setErrors((e) => (keys.some((k) => e[k]) ? Object.fromEntries(Object.entries(e).filter(([k]) => !keys.includes(k))) : e));
  function set<K extends Exclude<keyof RecurringFormValues, 'lines'>>(key: K, value: RecurringFormValues[K]) {
    setValues((v) => {
      const next = { ...v, [key]: value };
      if (key === 'vendor_id') next.lines = withVendorDefaults(v.lines, vendors.find((x) => x.id === value) ?? null);
      return next;
    });
    clear(key, ...(key === 'interval' || key === 'start_date' ? ['day_of_month', 'day_of_week', 'end_date', 'invoice_number_pattern'] : []));
  }
  const setLines = (update: (lines: BillLineValues[]) => BillLineValues[], cleared: string[]) => {
    setValues((v) => ({ ...v, lines: update(v.lines) }));
    clear('amount', 'line_items', ...cleared);
  };

  const { errors, setErrors, formError, busy, submit } = useExtrasForm(() => recurringInput(values), async (body) => {
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
        <div className="bill-wide">
          <BillLinesEditor
            lines={values.lines}
            currency={values.currency}
            glAccounts={reference.options.glAccounts}
            departments={reference.options.departments}
            errors={errors}
            onChange={(i, line) => setLines((ls) => ls.map((l, j) => (j === i ? line : l)), [`line_items.${i}.description`, `line_items.${i}.amount`])}
            onAdd={() => setLines((ls) => [...ls, emptyLine(`recurring-line-${++seq.current}`, vendors.find((v) => v.id === values.vendor_id) ?? null)], [])}
            onRemove={(i) => setLines((ls) => ls.filter((_, j) => j !== i), Object.keys(errors).filter((k) => k.startsWith('line_items.')))}
          />
        </div>
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
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy}>
          {editing ? 'Save changes' : 'Set up recurring bill'}
        </Button>
      </div>
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
