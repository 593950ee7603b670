import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type RefObject } from 'react';
import type { BillTemplate } from '../../../schema/api/calls-bill-extras.ts';
import { invoiceNumberKey } from '../../../schema/bill-rules.ts';
import type { RowView } from '../../../workers/api.ts';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import {
  billFormErrors, billValues, createBillInput, defaultDueDate, editableParts, emptyBillValues, firstErrorField, localToday,
  updateBillPatch, withVendorDefaults, type BillCreditValues, type BillField, type BillFieldErrors, type BillFormValues, type BillLineValues,
} from './bill-form.ts';
import { creditErrors, creditOffers, ownCredits } from './bill-form-credits.ts';
import { prefillFromInvoice, valuesFromTemplate, type InvoicePrefill } from './bill-form-prefill.ts';
import type { DuplicateQuestion } from './bill-form-duplicates.tsx';
import { useBillTemplates, useVendorCredits } from './extras/bill-form-extras.tsx';
import type { InvoiceFields } from './invoice-text.ts';

/**
 * The bill form's state (issue 26: form state lives beside the form, not in the dialog): the
 * values as typed and which fields the person changed, the errors and where focus goes after a
 * refusal, the duplicate-invoice check while typing, the templates and vendor credits read while
 * online, and saving through the bill commands (asking first about a duplicate invoice).
 */
export interface UseBillFormOptions {
  bill?: RowView<'bills'> | undefined;
  client: DataClient;
  reference: ReferenceView;
  currency: string;
  prefill?: Partial<BillFormValues> | undefined;
  provisionalBillId?: string | undefined;
  onSaved(id: string): void;
}

const DUPLICATE_CHECK_MS = 400;

/** The errors shown, the form's message, and focus on the first field in error after each refusal. */
function useBillErrors(fieldsBox: RefObject<HTMLDivElement | null>) {
  const [errors, setErrors] = useState<BillFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [focusTurn, setFocusTurn] = useState(0);
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
  const clearErrors = useCallback((...keys: string[]) =>
    setErrors((e) => (keys.some((k) => e[k]) ? Object.fromEntries(Object.entries(e).filter(([k]) => !keys.includes(k))) : e)), []);
  const refuse = useCallback((fieldErrors: BillFieldErrors, message = 'Check the fields marked below.') => {
    setErrors(fieldErrors);
    setFormError(message);
    setFocusTurn((n) => n + 1);
  }, []);
  return { errors, setErrors, formError, setFormError, clearErrors, refuse };
}
type BillErrors = ReturnType<typeof useBillErrors>;

/** The values as typed, the fields changed by hand (an invoice's reading or a template never overwrites them), and their setters. */
function useBillValues(opts: UseBillFormOptions, today: string, errs: BillErrors) {
  const { bill, reference, prefill } = opts;
  const vendors = reference.data.vendors;
  const lineSeq = useRef(0);
  const nextKey = useCallback(() => `new-line-${++lineSeq.current}`, []);
  const [values, setValues] = useState<BillFormValues>(() => {
    if (bill) return billValues(bill);
    const start = { ...emptyBillValues(opts.currency, today, 'new-line-0'), ...prefill };
    if (prefill?.invoice_date && !prefill.due_date) start.due_date = defaultDueDate(prefill.invoice_date);
    const vendor = vendors.find((v) => v.id === start.vendor_id) ?? null;
    return { ...start, lines: withVendorDefaults(start.lines, vendor) };
  });
  const [prefilled, setPrefilled] = useState<Pick<InvoicePrefill, 'filled' | 'vendorHint'> | null>(null);
  // Read in callbacks, so a ref. A bill being edited was typed before, every field of it; so were the page's prefilled values.
  const edited = useRef(new Set<BillField>(
    bill ? ['vendor_id', 'invoice_number', 'invoice_date', 'due_date', 'currency', 'lines', 'memo'] : Object.keys(prefill ?? {}) as BillField[],
  ));
  const parts = editableParts(bill?.status ?? null);
  const linesLocked = !parts.payable;
  const { clearErrors } = errs;

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
    clearErrors('amount', ...Object.keys(errs.errors).filter((k) => k.startsWith('line_items.')));
  }
  const { setErrors, setFormError } = errs;
  const pickTemplate = useCallback((t: BillTemplate) => {
    for (const key of ['vendor_id', 'currency', 'lines', 'memo'] as const) edited.current.add(key);
    setValues((v) => valuesFromTemplate(v, t, { nextKey, vendors }));
    setErrors({});
    setFormError(null);
  }, [vendors, nextKey, setErrors, setFormError]);

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
  return { values, set, setLines, setCredits, pickTemplate, onReading, prefilled, parts, linesLocked, nextKey };
}

/** The other live bills with this vendor and invoice number while typing (the mirror answers offline too), debounced; null when none. */
function useDuplicateWatch(client: DataClient, vendorId: string, invoiceNumber: string, billId: string): RowView<'bills'>[] | null {
  const [duplicates, setDuplicates] = useState<{ key: string; bills: RowView<'bills'>[] } | null>(null);
  useEffect(() => {
    if (!vendorId || !invoiceNumber) return;
    let live = true;
    const key = `${vendorId}|${invoiceNumber}`;
    const timer = setTimeout(() => {
      client.checkDuplicateInvoice(vendorId, invoiceNumber, billId).then(
        (found) => live && setDuplicates(found.is_duplicate ? { key, bills: found.bills } : null),
        () => live && setDuplicates(null),
      );
    }, DUPLICATE_CHECK_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, vendorId, invoiceNumber, billId]);
  // Only the answer for what the fields hold now (an older answer is never shown for new input).
  return vendorId && invoiceNumber && duplicates?.key === `${vendorId}|${invoiceNumber}` ? duplicates.bills : null;
}

/** The invoice file's server id once uploaded: the command then names the file the server has. */
async function fileIdToSend(client: DataClient, fileId: string | null): Promise<string | null> {
  if (!fileId) return null;
  const [view] = await client.receipts([fileId]);
  return view?.server_id ?? fileId;
}

/**
 * Issue 25: the other live bills with this vendor and invoice number, as the mirror shows them
 * (bills created offline count), when this save needs the server's duplicate check: a new bill,
 * a new vendor or number, or a submit of a bill not yet confirmed as a duplicate (the server's
 * rule, server/domain/bill-duplicates.ts). A bill confirmed as a duplicate of this one does not count.
 */
async function duplicatesToConfirm(client: DataClient, bill: RowView<'bills'> | undefined, values: BillFormValues, id: string, submit: boolean): Promise<RowView<'bills'>[]> {
  const vendor = values.vendor_id;
  const number = values.invoice_number.trim();
  if (!vendor || !number) return [];
  if (bill) {
    const moved = vendor !== bill.vendor_id || invoiceNumberKey(number) !== invoiceNumberKey(bill.invoice_number);
    if (!moved && (bill.duplicate_of?.confirmed_at || !submit)) return [];
  }
  try {
    const found = await client.checkDuplicateInvoice(vendor, number, id);
    return found.bills.filter((b) => b.duplicate_of?.id !== id);
  } catch {
    return []; // The server checks again.
  }
}

/** Saving: the create or the update with what changed, each applied credit checked first, a duplicate invoice asked about first. */
function useBillSave(opts: UseBillFormOptions, id: string, values: BillFormValues, creditsRefused: () => boolean, errs: BillErrors) {
  const { bill, client } = opts;
  const online = useAppState((s) => s.online);
  const [busy, setBusy] = useState<'draft' | 'submit' | null>(null);
  // Issue 25: Submit found a duplicate (the mirror's check, or the server's refusal): asks before saving again with confirm_duplicate.
  const [askDuplicate, setAskDuplicate] = useState<DuplicateQuestion | null>(null);
  const { refuse, setFormError } = errs;
  /** A refusal before queueing (the command's check or schema in the worker): by field when it names them. */
  const refuseLocal = (error: { message: string; error_code: string; errors?: Record<string, string> }) =>
    refuse(error.errors ? billFormErrors(error.errors) : {}, errorText(error));

  async function create(submit: boolean, confirmDuplicate: boolean): Promise<boolean> {
    if (creditsRefused()) return false;
    const built = createBillInput(values, { id, submit });
    if (!built.ok) return refuse(built.errors), false;
    const input = {
      ...built.input,
      ...(opts.provisionalBillId ? { provisional_bill_id: opts.provisionalBillId } : {}),
      ...(confirmDuplicate ? { confirm_duplicate: true } : {}),
    };
    const result = await client.run('bill.create', input as never);
    if (!result.ok) return refuseLocal(result.error), false;
    if (values.invoice_file_id) {
      // The create call takes no document: it is attached by an update queued right behind it.
      const invoice_file_id = await fileIdToSend(client, values.invoice_file_id);
      const attached = await client.run('bill.update', { bill_id: id, patch: { invoice_file_id } });
      // The bill itself is saved (it must not be created twice): say what is missing and close.
      if (!attached.ok) toastError(`The bill was saved, but its invoice could not be attached: ${errorText(attached.error)}`);
    }
    return true;
  }

  async function update(current: RowView<'bills'>, submit: boolean, confirmDuplicate: boolean): Promise<boolean | 'unchanged'> {
    if (creditsRefused()) return false;
    const invoice_file_id = values.invoice_file_id === current.invoice_file_id ? current.invoice_file_id : await fileIdToSend(client, values.invoice_file_id);
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
        const others = await duplicatesToConfirm(client, bill, values, id, submit);
        if (others.length > 0) return setAskDuplicate({ submit, bills: others });
      }
      const done = bill ? await update(bill, submit, confirmDuplicate) : await create(submit, confirmDuplicate);
      if (!done) return;
      const synced = online ? 'It syncs in the background.' : "It is sent when you're back online.";
      if (done === 'unchanged') toastInfo('Nothing changed.');
      else toastInfo(`${submit ? 'Submitted for approval' : bill ? 'Saved' : 'Draft saved'} on this device. ${synced}`);
      opts.onSaved(id);
    } finally {
      setBusy(null);
    }
  }
  return { busy, save, askDuplicate, setAskDuplicate, online };
}

/** Everything the bill form shows and does; the dialog only lays it out. */
export function useBillForm(opts: UseBillFormOptions, fieldsBox: RefObject<HTMLDivElement | null>) {
  const { bill, client, reference } = opts;
  const today = useMemo(() => localToday(), []);
  // One id per dialog: a create refused here and sent again is still the same bill.
  const [id] = useState(() => bill?.id ?? crypto.randomUUID());
  const errs = useBillErrors(fieldsBox);
  const form = useBillValues(opts, today, errs);
  const { values, parts, linesLocked } = form;
  const online = useAppState((s) => s.online);

  // Bill templates (a new bill only) and the vendor's credits: server-only, read while online.
  const templates = useBillTemplates(client, online && !bill);
  const credits = useVendorCredits(client, online && parts.payable && !linesLocked, values.vendor_id);
  const own = useMemo(() => ownCredits(bill), [bill]);
  const creditRows = useMemo(() => (credits.state === 'ready' ? credits.rows : []), [credits]);
  /** Each applied credit against what remains of it (the server checks again). */
  function creditsRefused(): boolean {
    const found = creditErrors(values, creditOffers(creditRows, values, own, { applied: true }));
    if (Object.keys(found).length === 0) return false;
    errs.refuse(found);
    return true;
  }

  const duplicates = useDuplicateWatch(client, values.vendor_id, values.invoice_number.trim(), id);
  const saving = useBillSave(opts, id, values, creditsRefused, errs);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    // Enter in a field submits with the first submit button: "Save draft", never a surprise submission.
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    void saving.save(submitter?.value === 'submit' && parts.submit);
  }
  function confirmDuplicate() {
    const question = saving.askDuplicate;
    if (!question) return;
    saving.setAskDuplicate(null);
    void saving.save(question.submit, true);
  }

  const vendors = reference.data.vendors;
  const vendorName = (vid: string) => vendors.find((v) => v.id === vid)?.name ?? 'This vendor';
  return {
    ...form, ...errs, today, templates, credits, offers: creditOffers(creditRows, values, own), duplicates,
    busy: saving.busy, askDuplicate: saving.askDuplicate, backFromDuplicate: () => saving.setAskDuplicate(null), confirmDuplicate, onSubmit, vendorName,
  };
}
export type BillForm = ReturnType<typeof useBillForm>;
