import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { RowView } from '../../../workers/api.ts';
import type { BillTemplate } from '../../../schema/api/calls-bill-extras.ts';
import { checkBillAction, duplicateBillText, invoiceNumberKey } from '../../../schema/bill-rules.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { WAITING_TO_SYNC } from '../../components/sync-mark.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { BILL_STATUS_LABELS } from '../../lib/bill-labels.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatDay, formatMoney, joinList } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import {
  billFormErrors, billTotals, billValues, createBillInput, creditErrors, creditOffers, defaultDueDate, dueHint, editableParts, emptyBillValues,
  emptyLine, firstErrorField, hasUneditableLines, localToday, ownCredits, prefillFromInvoice, updateBillPatch, valuesFromTemplate,
  withVendorDefaults, type BillCreditValues, type BillField, type BillFieldErrors, type BillFormValues, type BillLineValues, type InvoicePrefill,
} from './bill-form.ts';
import { BillCredits, SaveTemplateDialog, TemplatePicker, useBillTemplates, useVendorCredits } from './extras/bill-form-extras.tsx';
import { DateField } from '../../components/date-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import { MAX_INVOICE_NUMBER_LENGTH } from '../../../schema/entities/bill.ts';
import { BillMemoField, CurrencyField, VendorField } from './bill-form-fields.tsx';
import { BillLinesEditor } from './bill-lines.tsx';
import { InvoiceFileField } from './invoice-file.tsx';
import type { InvoiceFields } from './invoice-text.ts';
import { currencyChoices } from '../../lib/currency-choices.ts';

/**
 * The contract between the Bills page and the bill form (issue 11). The page opens the dialog
 * for a new bill (`bill` absent) or to edit one (a DRAFT or REJECTED bill); the form runs the
 * bill commands through the worker (offline-safe) and calls `onSaved` with the bill's id once
 * the command is durable on this device.
 */
export interface BillFormDialogProps {
  /** Editing this bill; creating a new one without it. */
  bill?: RowView<'bills'>;
  client: DataClient;
  reference: ReferenceView;
  /** The business's currency: a new bill's default. */
  currency: string;
  onClose(): void;
  onSaved(id: string): void;
  returnFocus?: () => HTMLElement | null | undefined;
  /** A new bill's starting values (e.g. the vendor whose page it was opened from); all editable. */
  prefill?: Partial<BillFormValues>;
  /** "Create from invoice": this file is attached at once and, an image, read to prefill the form. */
  invoiceFile?: File;
  /** A new bill started from this bill template (`template=<id>` on /bills): applied once the templates are read. */
  templateId?: string | undefined;
  /**
   * Completing this provisional bill (the bill inbox): the create names it, so the server gives
   * the bill its invoice file and deletes it in the same write. Its invoice (in `prefill`) stays.
   */
  provisionalBillId?: string;
}

const DUPLICATE_CHECK_MS = 400;

type Duplicates = { key: string; bills: RowView<'bills'>[] };

/**
 * The new-bill / edit-bill form in a Modal (a bottom sheet on a phone, its actions a sticky
 * footer). "Save draft" and "Submit for approval" run `bill.create` (with its client id), or
 * `bill.update` with only what changed (`submit: true` sends a draft or a fixed rejected bill
 * for approval), through the worker: it works offline and the bill shows at once, waiting to
 * sync. Input is checked with the commands' own schemas, `validateBill` and `checkBillPatch`
 * first; on any refusal the form stays as typed and focus goes to the first field in error.
 * An attached invoice image is read on the device to prefill what is still untouched; a bill
 * that repeats a vendor's invoice number is flagged while typing, and saving it asks first
 * (DuplicateQuestionDialog; the server refuses an unconfirmed duplicate, issue 25). Online, a new bill can start from a bill template, the vendor's credits can be applied
 * (credit lines, checked against what remains of each), and the form saved as a template.
 */
export function BillFormDialog(props: BillFormDialogProps) {
  const { bill, client, reference } = props;
  const today = useMemo(() => localToday(), []);
  const lineSeq = useRef(0);
  const nextKey = () => `new-line-${++lineSeq.current}`;
  const [values, setValues] = useState<BillFormValues>(() => {
    if (bill) return billValues(bill);
    const start = { ...emptyBillValues(props.currency, today, 'new-line-0'), ...props.prefill };
    if (props.prefill?.invoice_date && !props.prefill.due_date) start.due_date = defaultDueDate(props.prefill.invoice_date);
    const vendor = reference.data.vendors.find((v) => v.id === start.vendor_id) ?? null;
    return { ...start, lines: withVendorDefaults(start.lines, vendor) };
  });
  const [errors, setErrors] = useState<BillFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'draft' | 'submit' | null>(null);
  const [focusTurn, setFocusTurn] = useState(0);
  const [prefilled, setPrefilled] = useState<Pick<InvoicePrefill, 'filled' | 'vendorHint'> | null>(null);
  const [duplicates, setDuplicates] = useState<Duplicates | null>(null);
  const online = useAppState((s) => s.online);
  const [savingTemplate, setSavingTemplate] = useState(false);
  // Issue 25: Submit found a duplicate (the mirror's check, or the server's refusal): asks before saving again with confirm_duplicate.
  const [askDuplicate, setAskDuplicate] = useState<DuplicateQuestion | null>(null);
  // One id per dialog: a create refused here and sent again is still the same bill.
  const id = useRef(bill?.id ?? crypto.randomUUID());
  // Fields the person changed by hand: an invoice's reading never overwrites them (read in callbacks, so a ref).
  // A bill being edited was typed before, every field of it; so were the page's prefilled values.
  const edited = useRef(new Set<BillField>(
    bill ? ['vendor_id', 'invoice_number', 'invoice_date', 'due_date', 'currency', 'lines', 'memo'] : Object.keys(props.prefill ?? {}) as BillField[],
  ));
  const fieldsBox = useRef<HTMLDivElement>(null);

  const parts = editableParts(bill?.status ?? null);
  const linesLocked = !parts.payable || (bill ? hasUneditableLines(bill) : false);
  const vendors = reference.data.vendors;
  const vendorOptions = useMemo(
    () => vendors
      .filter((v) => v.status === 'ACTIVE' || v.id === values.vendor_id)
      .map((v) => ({ value: v.id, label: v.name }))
      .sort((a, b) => a.label.localeCompare(b.label)),
    [vendors, values.vendor_id],
  );
  const currencies = useMemo(() => currencyChoices(props.currency, values.currency), [props.currency, values.currency]);

  const clearErrors = (...keys: string[]) =>
    setErrors((e) => (keys.some((k) => e[k]) ? Object.fromEntries(Object.entries(e).filter(([k]) => !keys.includes(k))) : e));

  function set<K extends Exclude<keyof BillFormValues, 'lines'>>(key: K, value: BillFormValues[K]) {
    edited.current.add(key);
    setValues((v) => {
      const next = { ...v, [key]: value };
      // An untouched due date follows the invoice date (the default terms).
      if (key === 'invoice_date' && !edited.current.has('due_date')) next.due_date = defaultDueDate(value as string) || v.due_date;
      // The vendor's default coding where a line has none (never on lines this form may not change).
      if (key === 'vendor_id' && !linesLocked) next.lines = withVendorDefaults(v.lines, vendors.find((x) => x.id === value) ?? null);
      // A credit is the vendor's, in its currency: another vendor or currency drops those applied.
      if ((key === 'vendor_id' || key === 'currency') && value !== v[key]) next.credits = [];
      return next;
    });
    clearErrors(key, ...(key === 'invoice_date' ? ['due_date'] : []));
    if (key === 'vendor_id') setPrefilled((p) => (p ? { ...p, vendorHint: null } : p));
  }

  function setLines(update: (lines: BillLineValues[]) => BillLineValues[], cleared: string[]) {
    edited.current.add('lines');
    setValues((v) => ({ ...v, lines: update(v.lines) }));
    clearErrors('amount', 'line_items', ...cleared);
  }

  function setCredits(update: (credits: BillCreditValues[]) => BillCreditValues[]) {
    edited.current.add('credits');
    setValues((v) => ({ ...v, credits: update(v.credits) }));
    clearErrors('amount', ...Object.keys(errors).filter((k) => k.startsWith('line_items.')));
  }

  // Bill templates (a new bill only) and the vendor's credits: server-only, read while online.
  const templates = useBillTemplates(client, online && !bill);
  const credits = useVendorCredits(client, online && parts.payable && !linesLocked, values.vendor_id);
  const own = useMemo(() => ownCredits(bill), [bill]);
  const creditRows = useMemo(() => (credits.state === 'ready' ? credits.rows : []), [credits]);
  const pickTemplate = useCallback((t: BillTemplate) => {
    for (const key of ['vendor_id', 'currency', 'lines', 'memo'] as const) edited.current.add(key);
    setValues((v) => valuesFromTemplate(v, t, { nextKey: () => `new-line-${++lineSeq.current}`, vendors }));
    setErrors({});
    setFormError(null);
  }, [vendors]);

  // The values as last rendered, for the OCR's answer, which arrives seconds after the file was added.
  const latest = useRef(values);
  useEffect(() => {
    latest.current = values;
  }, [values]);
  function onReading(reading: InvoiceFields) {
    const result = prefillFromInvoice(latest.current, reading, { edited: edited.current, vendors });
    latest.current = result.values;
    setValues(result.values);
    setPrefilled({ filled: result.filled, vendorHint: result.vendorHint });
  }

  // The duplicate-invoice check while typing (the mirror answers offline too), debounced.
  const vendorId = values.vendor_id;
  const invoiceNumber = values.invoice_number.trim();
  const duplicateKey = `${vendorId}|${invoiceNumber}`;
  useEffect(() => {
    if (!vendorId || !invoiceNumber) return;
    let live = true;
    const key = `${vendorId}|${invoiceNumber}`;
    const timer = setTimeout(() => {
      client.checkDuplicateInvoice(vendorId, invoiceNumber, id.current).then(
        (found) => live && setDuplicates(found.is_duplicate ? { key, bills: found.bills } : null),
        () => live && setDuplicates(null),
      );
    }, DUPLICATE_CHECK_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, vendorId, invoiceNumber]);

  // After a refusal: focus the first field in error, in the form's order.
  useEffect(() => {
    if (focusTurn === 0) return;
    const key = firstErrorField(errors);
    const box = fieldsBox.current;
    if (!key || !box) return;
    const holder = box.querySelector<HTMLElement>(`[data-field="${CSS.escape(key)}"]`);
    const target = holder?.matches('input, select, textarea') ? holder : holder?.querySelector<HTMLElement>('input, select, textarea, button') ?? holder;
    target?.focus();
    // Only a new refusal moves focus, not each keystroke that clears an error.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusTurn]);

  function refuse(fieldErrors: BillFieldErrors, message = 'Check the fields marked below.') {
    setErrors(fieldErrors);
    setFormError(message);
    setFocusTurn((n) => n + 1);
  }

  /** The invoice file's server id once uploaded: the command then names the file the server has. */
  async function fileIdToSend(fileId: string | null): Promise<string | null> {
    if (!fileId) return null;
    const [view] = await client.receipts([fileId]);
    return view?.server_id ?? fileId;
  }

  /** Each applied credit against what remains of it (the server checks again). */
  function creditsRefused(): boolean {
    const found = creditErrors(values, creditOffers(creditRows, values, own, { applied: true }));
    if (Object.keys(found).length === 0) return false;
    refuse(found);
    return true;
  }

  /**
   * Issue 25: the other live bills with this vendor and invoice number, as the mirror shows them
   * (bills created offline count), when this save needs the server's duplicate check: a new bill,
   * a new vendor or number, or a submit of a bill not yet confirmed as a duplicate (the server's
   * rule, server/domain/bill-duplicates.ts). A bill confirmed as a duplicate of this one does not count.
   */
  async function duplicatesToConfirm(submit: boolean): Promise<RowView<'bills'>[]> {
    const vendor = values.vendor_id;
    const number = values.invoice_number.trim();
    if (!vendor || !number) return [];
    if (bill) {
      const moved = vendor !== bill.vendor_id || invoiceNumberKey(number) !== invoiceNumberKey(bill.invoice_number);
      if (!moved && (bill.duplicate_of?.confirmed_at || !submit)) return [];
    }
    try {
      const found = await client.checkDuplicateInvoice(vendor, number, id.current);
      return found.bills.filter((b) => b.duplicate_of?.id !== id.current);
    } catch {
      return []; // The server checks again.
    }
  }

  async function create(submit: boolean, confirmDuplicate: boolean): Promise<boolean> {
    if (creditsRefused()) return false;
    const built = createBillInput(values, { id: id.current, submit });
    if (!built.ok) return refuse(built.errors), false;
    const input = {
      ...built.input,
      ...(props.provisionalBillId ? { provisional_bill_id: props.provisionalBillId } : {}),
      ...(confirmDuplicate ? { confirm_duplicate: true } : {}),
    };
    const result = await client.run('bill.create', input as never);
    if (!result.ok) return refuseLocal(result.error), false;
    if (values.invoice_file_id) {
      // The create call takes no document: it is attached by an update queued right behind it.
      const invoice_file_id = await fileIdToSend(values.invoice_file_id);
      const attached = await client.run('bill.update', { bill_id: id.current, patch: { invoice_file_id } });
      // The bill itself is saved (it must not be created twice): say what is missing and close.
      if (!attached.ok) toastError(`The bill was saved, but its invoice could not be attached: ${errorText(attached.error)}`);
    }
    return true;
  }

  async function update(current: RowView<'bills'>, submit: boolean, confirmDuplicate: boolean): Promise<boolean | 'unchanged'> {
    if (creditsRefused()) return false;
    const invoice_file_id = values.invoice_file_id === current.invoice_file_id ? current.invoice_file_id : await fileIdToSend(values.invoice_file_id);
    const built = updateBillPatch(current, { ...values, invoice_file_id }, submit);
    if (!built.ok) return refuse(built.errors, built.message), false;
    if (!built.patch) return 'unchanged';
    const patch = confirmDuplicate ? { ...built.patch, confirm_duplicate: true } : built.patch;
    const result = await client.run('bill.update', { bill_id: current.id, patch });
    if (!result.ok) return refuseLocal(result.error), false;
    return true;
  }

  async function save(submit: boolean, confirmDuplicate = false) {
    setFormError(null);
    setBusy(submit ? 'submit' : 'draft');
    try {
      if (!confirmDuplicate) {
        const others = await duplicatesToConfirm(submit);
        if (others.length > 0) return setAskDuplicate({ submit, bills: others });
      }
      const done = bill ? await update(bill, submit, confirmDuplicate) : await create(submit, confirmDuplicate);
      if (!done) return;
      const synced = online ? 'It syncs in the background.' : "It is sent when you're back online.";
      if (done === 'unchanged') toastInfo('Nothing changed.');
      else toastInfo(`${submit ? 'Submitted for approval' : bill ? 'Saved' : 'Draft saved'} on this device. ${synced}`);
      props.onSaved(id.current);
    } finally {
      setBusy(null);
    }
  }

  /** A refusal before queueing (the command's check or schema in the worker): by field when it names them. */
  function refuseLocal(error: { message: string; error_code: string; errors?: Record<string, string> }) {
    refuse(error.errors ? billFormErrors(error.errors) : {}, errorText(error));
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    // Enter in a field submits with the first submit button: "Save draft", never a surprise submission.
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    void save(submitter?.value === 'submit' && parts.submit);
  }

  const vendorName = (vid: string) => vendors.find((v) => v.id === vid)?.name ?? 'This vendor';
  const hint = prefilled?.vendorHint
    ? `The invoice names “${prefilled.vendorHint}”, which matches no vendor: choose one, or add it on the Vendors page.`
    : vendorOptions.length === 0 ? 'No vendors yet: add one on the Vendors page first.' : undefined;
  const title = bill ? `Edit bill ${bill.invoice_number}` : props.provisionalBillId ? 'Complete bill' : 'New bill';
  const statusNote = bill && !parts.payable ? checkBillAction('editPayable', bill.status) : null;
  const totals = billTotals(values);

  return (
    <>
      <Modal title={title} onClose={props.onClose} onSubmit={onSubmit} returnFocus={props.returnFocus} size="lg">
        <FormError message={formError} />
        {statusNote && !statusNote.ok && <p className="notice bill-form-note">{statusNote.message} Only the fields below that are not greyed out can change.</p>}
        {/* Only the answer for what the fields hold now (an older answer is never shown for new input). */}
        {vendorId && invoiceNumber && duplicates?.key === duplicateKey && <DuplicateWarning vendor={vendorName(vendorId)} bills={duplicates.bills} />}
        {prefilled && prefilled.filled.length > 0 && (
          <p className="notice bill-form-note" role="status">
            Filled from the invoice: {joinList(prefilled.filled)}. Check them against the document.
          </p>
        )}
        <div ref={fieldsBox} className="modal-fields bill-fields">
          {!bill && props.provisionalBillId === undefined && <TemplatePicker templates={templates} vendorName={vendorName} initialId={props.templateId} onPick={pickTemplate} />}
          <VendorField
            field="vendor_id"
            label="Vendor"
            value={values.vendor_id}
            options={vendorOptions}
            error={errors.vendor_id}
            hint={hint}
            disabled={!parts.payable}
            onChange={(v) => set('vendor_id', v)}
          />
          <TextField
            field="invoice_number"
            maxLength={MAX_INVOICE_NUMBER_LENGTH}
            autoComplete="off"
            label="Invoice number"
            value={values.invoice_number}
            error={errors.invoice_number}
            disabled={!parts.payable}
            onChange={(v) => set('invoice_number', v)}
          />
          <DateField
            field="invoice_date"
            label="Invoice date"
            value={values.invoice_date}
            error={errors.invoice_date}
            disabled={!parts.dates}
            onChange={(v) => set('invoice_date', v)}
          />
          <DateField
            field="due_date"
            label="Due date"
            value={values.due_date}
            min={values.invoice_date || undefined}
            error={errors.due_date}
            hint={dueHint(values.due_date, today, formatDay)}
            disabled={!parts.dates}
            onChange={(v) => set('due_date', v)}
          />
          <CurrencyField
            field="currency"
            label="Currency"
            value={values.currency}
            currencies={currencies}
            error={errors.currency}
            // The lines' amounts are in this currency: it changes only with them.
            disabled={linesLocked}
            onChange={(v) => set('currency', v)}
          />
          <div className="bill-wide">
            {linesLocked && parts.payable && (
              <p className="muted bill-form-note">
                These lines carry a location or tracking categories, which this form does not edit: saving them here would drop those.
              </p>
            )}
            <BillLinesEditor
              lines={values.lines}
              currency={values.currency}
              glAccounts={reference.options.glAccounts}
              departments={reference.options.departments}
              errors={errors}
              disabled={linesLocked}
              credits={{
                minor: totals.credits,
                complete: totals.complete,
                rows: (
                  <BillCredits
                    values={values}
                    credits={credits}
                    offers={creditOffers(creditRows, values, own)}
                    errors={errors}
                    disabled={linesLocked}
                    onApply={(c) => setCredits((cs) => [...cs, c])}
                    onChange={(j, c) => setCredits((cs) => cs.map((x, k) => (k === j ? c : x)))}
                    onRemove={(j) => setCredits((cs) => cs.filter((_, k) => k !== j))}
                  />
                ),
              }}
              onChange={(i, line) => setLines((ls) => ls.map((l, j) => (j === i ? line : l)), [`line_items.${i}.description`, `line_items.${i}.amount`, `line_items.${i}.gl_account_id`, `line_items.${i}.department_id`])}
              onAdd={() => setLines((ls) => [...ls, emptyLine(nextKey(), vendors.find((v) => v.id === values.vendor_id) ?? null)], [])}
              onRemove={(i) => setLines((ls) => ls.filter((_, j) => j !== i), Object.keys(errors).filter((k) => k.startsWith('line_items.')))}
            />
          </div>
          <BillMemoField field="memo" label="Memo" value={values.memo} error={errors.memo} disabled={!parts.memo} onChange={(v) => set('memo', v)} />
          <div className="bill-wide" data-field="invoice_file_id">
            <span className="field-label">Invoice document</span>
            <InvoiceFileField
              client={client}
              id={values.invoice_file_id}
              onChange={(fileId) => set('invoice_file_id', fileId)}
              onReading={onReading}
              defaultCurrency={values.currency}
              today={today}
              initialFile={bill ? undefined : props.invoiceFile}
              // An inbox invoice is the bill's document: the server attaches it whatever the form holds.
            disabled={!parts.memo || props.provisionalBillId !== undefined}
            />
            {errors.invoice_file_id && <span className="field-error">{errors.invoice_file_id}</span>}
          </div>
        </div>
        <div className="modal-actions">
          <Button variant="ghost" onClick={props.onClose}>
            Cancel
          </Button>
          {(!bill || bill.status === 'DRAFT') && (
            <Button variant="ghost" onClick={() => setSavingTemplate(true)} disabled={busy !== null}>
              Save as template…
            </Button>
          )}
          {/* Editing keeps the bill's status (a rejected bill stays rejected until resubmitted). */}
          <Button type="submit" value="draft" loading={busy === 'draft'} disabled={busy !== null}>
            {bill ? 'Save' : 'Save draft'}
          </Button>
          {parts.submit && (
            <Button type="submit" value="submit" variant="primary" loading={busy === 'submit'} disabled={busy !== null}>
              {bill?.status === 'REJECTED' ? 'Resubmit for approval' : 'Submit for approval'}
            </Button>
          )}
        </div>
      </Modal>
      {askDuplicate && (
        <DuplicateQuestionDialog
          question={askDuplicate}
          vendor={vendorName(values.vendor_id)}
          creating={!bill}
          onBack={() => setAskDuplicate(null)}
          onConfirm={() => {
            const { submit } = askDuplicate;
            setAskDuplicate(null);
            void save(submit, true);
          }}
        />
      )}
      {savingTemplate && (
        <SaveTemplateDialog
          client={client}
          values={values}
          onClose={() => setSavingTemplate(false)}
          onFieldErrors={(found) => {
            setErrors(found);
            setFormError('Check the fields marked below before saving them as a template.');
          }}
        />
      )}
    </>
  );
}

/**
 * The vendor already has a bill with this invoice number (schema/bill-rules.ts
 * `findDuplicateInvoices`; canceled bills do not count). Shown while typing; Submit and Save ask
 * again in DuplicateQuestionDialog, and the server refuses a duplicate that was not confirmed.
 */
function DuplicateWarning({ vendor, bills }: { vendor: string; bills: RowView<'bills'>[] }) {
  return (
    <div className="notice notice-warning bill-duplicates" role="alert">
      <p>
        <strong>Possible duplicate invoice.</strong> {vendor} already has {bills.length === 1 ? 'a bill' : `${bills.length} bills`} with this invoice number:
      </p>
      <ul>
        {bills.map((b) => (
          <li key={b.id}>
            Invoice {b.invoice_number} · {formatMoney(b.amount, b.currency)} · dated {formatDay(b.invoice_date)} · {BILL_STATUS_LABELS[b.status]}
            {b.pending ? ` · ${WAITING_TO_SYNC}` : ''}
          </li>
        ))}
      </ul>
      <p>Check it is not the same invoice entered twice, or the vendor may be paid twice. Saving it asks you to confirm the duplicate.</p>
    </div>
  );
}

/** What Submit (or Save) found: the other bills, and which save to repeat once confirmed. */
export interface DuplicateQuestion {
  submit: boolean;
  bills: Pick<RowView<'bills'>, 'id' | 'invoice_number' | 'amount' | 'currency' | 'status'>[];
}

/**
 * Issue 25: "Possible duplicate invoice" naming the other bill (its number, vendor, amount and
 * status, in the server's words: `duplicateBillText`), with "Create anyway" (saves again with
 * `confirm_duplicate: true`; the bill records who confirmed) or "Go back" (nothing is saved).
 */
export function DuplicateQuestionDialog({ question, vendor, creating, onBack, onConfirm }: {
  question: DuplicateQuestion; vendor: string; creating: boolean; onBack(): void; onConfirm(): void;
}) {
  const [first, ...more] = question.bills;
  if (!first) return null;
  const action = creating ? 'Create anyway' : question.submit ? 'Submit anyway' : 'Save anyway';
  return (
    <Modal
      title="Possible duplicate invoice"
      description={`${duplicateBillText(first, vendor, more.length)}.`}
      onClose={onBack}
      onSubmit={(e) => {
        e.preventDefault();
        onConfirm();
      }}
    >
      <p className="bill-duplicate-question">
        Check it is not the same invoice entered twice, or the vendor may be paid twice. If it is a different invoice with the same number,
        {creating ? ' create it anyway' : ' save it anyway'}: the bill is marked as a possible duplicate, with your name, for its approvers and whoever pays it.
      </p>
      <div className="modal-actions">
        <Button variant="ghost" onClick={onBack}>
          Go back
        </Button>
        <Button type="submit" variant="primary">
          {action}
        </Button>
      </div>
    </Modal>
  );
}
