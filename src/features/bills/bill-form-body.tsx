import { useMemo, type RefObject } from 'react';
import type { RowView } from '../../../workers/api.ts';
import { MAX_INVOICE_NUMBER_LENGTH } from '../../../schema/entities/bill.ts';
import { DateField } from '../../components/date-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { currencyChoices } from '../../lib/currency-choices.ts';
import { formatDay } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { billTotals } from './bill-form.ts';
import { dueHint } from './bill-form-prefill.ts';
import { BillMemoField, CurrencyField, VendorField } from './bill-form-fields.tsx';
import { PurchaseOrderField } from './bill-po-field.tsx';
import { BillLinesField } from './bill-lines.tsx';
import { BillCredits, TemplatePicker } from './extras/bill-form-extras.tsx';
import { InvoiceFileField } from './invoice-file.tsx';
import type { BillForm } from './use-bill-form.ts';

export interface BillFormBodyProps {
  form: BillForm;
  /** The fields' box: focus goes to the first field in error inside it. */
  fieldsBox: RefObject<HTMLDivElement | null>;
  bill?: RowView<'bills'> | undefined;
  client: DataClient;
  reference: ReferenceView;
  /** The business's currency (offered first). */
  currency: string;
  invoiceFile?: File | undefined;
  templateId?: string | undefined;
  provisionalBillId?: string | undefined;
}

/** The bill form's fields, in order: template, vendor, invoice number and dates, currency, lines and credits, memo, invoice document. */
export function BillFormBody({ form, fieldsBox, bill, client, reference, currency, invoiceFile, templateId, provisionalBillId }: BillFormBodyProps) {
  const { values, errors, parts, linesLocked, set, vendorName } = form;
  const vendors = reference.data.vendors;
  const vendorOptions = useMemo(
    () => vendors
      .filter((v) => v.status === 'ACTIVE' || v.id === values.vendor_id)
      .map((v) => ({ value: v.id, label: v.name }))
      .sort((a, b) => a.label.localeCompare(b.label)),
    [vendors, values.vendor_id],
  );
  const currencies = useMemo(() => currencyChoices(currency, values.currency), [currency, values.currency]);
  const hint = form.prefilled?.vendorHint
    ? `The invoice names “${form.prefilled.vendorHint}”, which matches no vendor: choose one, or add it on the Vendors page.`
    : vendorOptions.length === 0 ? 'No vendors yet: add one on the Vendors page first.' : undefined;
  return (
    <div ref={fieldsBox} className="modal-fields bill-fields">
      {!bill && provisionalBillId === undefined && <TemplatePicker templates={form.templates} vendorName={vendorName} initialId={templateId} onPick={form.pickTemplate} />}
      <VendorField field="vendor_id" label="Vendor" value={values.vendor_id} options={vendorOptions} error={errors.vendor_id} hint={hint}
        disabled={!parts.payable} onChange={(v) => set('vendor_id', v)} />
      <PurchaseOrderField form={form} reference={reference} />
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
      <DateField field="invoice_date" label="Invoice date" value={values.invoice_date} error={errors.invoice_date} disabled={!parts.dates} onChange={(v) => set('invoice_date', v)} />
      <DateField
        field="due_date"
        label="Due date"
        value={values.due_date}
        min={values.invoice_date || undefined}
        error={errors.due_date}
        hint={dueHint(values.due_date, form.today, formatDay)}
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
      <BillLinesBox form={form} reference={reference} />
      <BillMemoField field="memo" label="Memo" value={values.memo} error={errors.memo} disabled={!parts.memo} onChange={(v) => set('memo', v)} />
      <div className="bill-wide" data-field="invoice_file_id">
        <span className="field-label">Invoice document</span>
        <InvoiceFileField
          client={client}
          id={values.invoice_file_id}
          onChange={(fileId) => set('invoice_file_id', fileId)}
          onReading={form.onReading}
          defaultCurrency={values.currency}
          today={form.today}
          initialFile={bill ? undefined : invoiceFile}
          // An inbox invoice is the bill's document: the server attaches it whatever the form holds.
          disabled={!parts.memo || provisionalBillId !== undefined}
        />
        {errors.invoice_file_id && <span className="field-error">{errors.invoice_file_id}</span>}
      </div>
    </div>
  );
}

/** A line's fields whose messages a change of the line clears. */
const LINE_FIELDS = ['description', 'amount', 'gl_account_id', 'department_id', 'po_line_id', 'quantity', 'unit_price'] as const;

/** The lines (and the vendor credits applied under them), with the note when this form may not change them. */
function BillLinesBox({ form, reference }: { form: BillForm; reference: ReferenceView }) {
  const { values, errors, linesLocked, setLines, setCredits } = form;
  const totals = billTotals(values);
  const po = values.purchase_order_id ? reference.data.purchase_orders.find((p) => p.id === values.purchase_order_id) ?? null : null;
  return (
    <div className="bill-wide">
      <BillLinesField
        values={values}
        reference={reference}
        errors={errors}
        disabled={linesLocked}
        po={po}
        credits={{
          minor: totals.credits,
          complete: totals.complete,
          rows: (
            <BillCredits
              values={values}
              credits={form.credits}
              offers={form.offers}
              errors={errors}
              disabled={linesLocked}
              onApply={(c) => setCredits((cs) => [...cs, c])}
              onChange={(j, c) => setCredits((cs) => cs.map((x, k) => (k === j ? c : x)))}
              onRemove={(j) => setCredits((cs) => cs.filter((_, k) => k !== j))}
            />
          ),
        }}
        nextKey={form.nextKey}
        setLines={setLines}
        lineFields={LINE_FIELDS}
      />
    </div>
  );
}
