import { useMemo, useState } from 'react';
import { Link } from '@tanstack/react-router';
import type { BillTemplate } from '../../../../schema/api/calls-bill-extras.ts';
import { Button, buttonClass } from '../../../components/button.tsx';
import { DeleteDialog } from '../../../components/confirm-dialog.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { ModalActions } from '../../../components/modal-actions.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { callThen } from '../../../lib/forms/call-then.ts';
import { useCheckedSubmit, withoutErrors } from '../../../lib/forms/use-checked-submit.ts';
import {
  billFormErrors, emptyBillValues, localToday, TEMPLATE_NAME_MAX, templateInput, withVendorDefaults, type BillFormValues,
} from '../bill-form.ts';
import { BillMemoField, CurrencyField, VendorField } from '../bill-form-fields.tsx';
import { ExtrasLines, useExtrasList, type ExtrasPageData } from './extras-parts.tsx';
import { ExtrasPage, templateColumns } from './extras-list.tsx';
import { currencyChoices } from '../../../lib/currency-choices.ts';


/**
 * Issue 11 §7: /bills/templates. A template is a vendor's bill entered often (the same supplies,
 * the monthly cleaning): its vendor, currency, lines and memo. "Use template" opens the new-bill
 * form on the Bills page filled from it (`new=bill&template=<id>`); nothing is billed by a
 * template itself (recurring bills do that). Templates live on the server only: offline the page
 * says so and shows none.
 */
export function BillTemplatesPage() {
  const { page, list, pageProps, dialog, setDialog, close, said, saved } = useExtrasList<BillTemplate>('templates',
    (c) => c.billTemplates().then((r) => (r.ok ? { ok: true as const, rows: r.templates } : r)), templateColumns);
  const { client } = page;
  const rows = useMemo(() => (list.state === 'ready' ? [...list.rows].sort((a, b) => a.name.localeCompare(b.name)) : []), [list]);

  return (
    <ExtrasPage<BillTemplate>
      {...pageProps}
      title="Bill templates"
      current="/bills/templates"
      newLabel="New template"
      offlineBody="Templates are kept on the server, not on this device, so none can be shown or used while you’re offline. You can still enter a bill by hand on the Bills page."
      blankTitle="No bill templates yet"
      blankBody="Save a vendor’s bill you enter often — the same supplies, the monthly cleaning — with its lines and coding. A new bill then starts from it: only the invoice number and dates are left to fill in."
      rowClassName="template-row"
      queryKey="templates"
      items={rows}
      rowActions={(t) => (
        <>
          <Link to="/bills" search={{ new: 'bill', template: t.id }} className={buttonClass({ size: 'sm' })}>
            Use template <span className="sr-only">{t.name}</span>
          </Link>
          <Button size="sm" variant="ghost" onClick={() => setDialog({ kind: 'delete', row: t })}>
            Delete <span className="sr-only">template {t.name}</span>
          </Button>
        </>
      )}
    >
      {dialog?.kind === 'new' && <NewTemplateDialog page={page} onClose={close} onCreated={(t) => saved(`Template “${t.name}” saved.`)} />}
      {dialog?.kind === 'delete' && (
        <DeleteDialog title={`Delete template “${dialog.row.name}”?`} description="Bills already made from it stay as they are; new bills can no longer start from it."
          confirmLabel="Delete template" onClose={close}
          onDelete={callThen(() => client.deleteBillTemplate(dialog.row.id), () => said(`Template “${dialog.row.name}” deleted.`))} />
      )}
    </ExtrasPage>
  );
}

interface NewTemplateDialogProps {
  page: ExtrasPageData;
  onClose(): void;
  onCreated(template: BillTemplate): void;
}

/** "New template": a name, then the bill form's vendor, currency, lines and memo (no number, no dates). */
function NewTemplateDialog({ page, onClose, onCreated }: NewTemplateDialogProps) {
  const { client, reference, vendorOptions } = page;
  const [name, setName] = useState('');
  const [values, setValues] = useState<BillFormValues>(() => emptyBillValues(page.currency, localToday(), 'template-line-0'));
  const vendors = reference.data.vendors;
  const currencies = currencyChoices(page.currency, values.currency);
  const clear = (...keys: string[]) => setErrors((e) => withoutErrors(e, keys));

  const { errors, setErrors, formError, busy, submit } = useCheckedSubmit(() => templateInput(values, name), async (body) => {
    const r = await client.createBillTemplate(body);
    if (!r.ok) return r.error;
    onCreated(r.template);
    return null;
  }, billFormErrors);

  return (
    <Modal title="New bill template" description="A vendor’s bill you enter often. Invoice numbers and dates are filled in on each bill." onClose={onClose} onSubmit={submit} size="lg">
      <FormError message={formError} />
      <div className="modal-fields bill-fields">
        <div className="bill-wide">
          <TextField field="name" label="Template name" value={name} maxLength={TEMPLATE_NAME_MAX} autoComplete="off" error={errors.name}
            hint="How it is listed, e.g. “Monthly cleaning”." onChange={(v) => { setName(v); clear('name'); }} />
        </div>
        <VendorField field="vendor_id" label="Vendor" value={values.vendor_id} options={vendorOptions} error={errors.vendor_id}
          hint={vendorOptions.length === 0 ? 'No vendors yet: add one on the Vendors page first.' : undefined}
          onChange={(id) => {
            setValues((v) => ({ ...v, vendor_id: id, lines: withVendorDefaults(v.lines, vendors.find((x) => x.id === id) ?? null) }));
            clear('vendor_id');
          }} />
        <CurrencyField field="currency" label="Currency" value={values.currency} currencies={currencies} error={errors.currency}
          onChange={(c) => setValues((v) => ({ ...v, currency: c }))} />
        <ExtrasLines values={values} setValues={setValues} clear={clear} reference={reference} errors={errors} keyPrefix="template-line" firstSeq={0} />
        <BillMemoField field="memo" label="Memo" value={values.memo} error={errors.memo} onChange={(m) => setValues((v) => ({ ...v, memo: m }))} />
      </div>
      <ModalActions submitLabel="Save template" busy={busy} onCancel={onClose} />
    </Modal>
  );
}
