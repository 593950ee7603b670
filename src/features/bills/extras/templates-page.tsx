import { useCallback, useMemo, useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import type { BillTemplate } from '../../../../schema/api/calls-bill-extras.ts';
import { Button, buttonClass } from '../../../components/button.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { TextField } from '../../../components/text-field.tsx';
import type { DataClient } from '../../../data-access/types.ts';
import type { ReferenceView } from '../../../lib/reference-data.ts';
import { toastInfo } from '../../../lib/toast-store.ts';
import {
  billFormErrors, emptyBillValues, emptyLine, localToday, TEMPLATE_NAME_MAX, templateInput, withVendorDefaults,
  type BillFormValues, type BillLineValues,
} from '../bill-form.ts';
import { BillMemoField, CurrencyField, VendorField } from '../bill-form-fields.tsx';
import { BillLinesEditor } from '../bill-lines.tsx';
import { DeleteDialog, useExtrasPage } from './extras-parts.tsx';
import { useExtrasForm } from './use-extras-form.ts';
import { ExtrasPage, templateColumns } from './extras-list.tsx';
import { useOnlineList } from '../../../lib/use-online-list.ts';
import { currencyChoices } from '../../../lib/currency-choices.ts';


/**
 * Issue 11 §7: /bills/templates. A template is a vendor's bill entered often (the same supplies,
 * the monthly cleaning): its vendor, currency, lines and memo. "Use template" opens the new-bill
 * form on the Bills page filled from it (`new=bill&template=<id>`); nothing is billed by a
 * template itself (recurring bills do that). Templates live on the server only: offline the page
 * says so and shows none.
 */
export function BillTemplatesPage() {
  const { client, online, reference, currency, vendorName, vendorOptions } = useExtrasPage();
  const { list, reload } = useOnlineList(online, 'templates', useCallback(async () => {
    const r = await client.billTemplates();
    return r.ok ? { ok: true as const, rows: r.templates } : r;
  }, [client]));
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<BillTemplate | null>(null);
  const rows = useMemo(() => (list.state === 'ready' ? [...list.rows].sort((a, b) => a.name.localeCompare(b.name)) : []), [list]);
  const columns = useMemo(() => templateColumns(vendorName), [vendorName]);

  return (
    <ExtrasPage<BillTemplate>
      title="Bill templates"
      current="/bills/templates"
      newLabel="New template"
      onNew={() => setCreating(true)}
      online={online}
      list={list}
      reload={reload}
      offlineBody="Templates are kept on the server, not on this device, so none can be shown or used while you’re offline. You can still enter a bill by hand on the Bills page."
      blankTitle="No bill templates yet"
      blankBody="Save a vendor’s bill you enter often — the same supplies, the monthly cleaning — with its lines and coding. A new bill then starts from it: only the invoice number and dates are left to fill in."
      rowClassName="template-row"
      queryKey="templates"
      items={rows}
      columns={columns}
      dialogOpen={creating || deleting !== null}
      rowActions={(t) => (
        <>
          <Link to="/bills" search={{ new: 'bill', template: t.id }} className={buttonClass({ size: 'sm' })}>
            Use template <span className="sr-only">{t.name}</span>
          </Link>
          <Button size="sm" variant="ghost" onClick={() => setDeleting(t)}>
            Delete <span className="sr-only">template {t.name}</span>
          </Button>
        </>
      )}
    >
      {creating && (
        <NewTemplateDialog
          client={client}
          reference={reference}
          currency={currency}
          vendorOptions={vendorOptions}
          onClose={() => setCreating(false)}
          onCreated={(t) => {
            setCreating(false);
            toastInfo(`Template “${t.name}” saved.`);
            reload();
          }}
        />
      )}
      {deleting && (
        <DeleteDialog
          title={`Delete template “${deleting.name}”?`}
          description="Bills already made from it stay as they are; new bills can no longer start from it."
          confirmLabel="Delete template"
          onClose={() => setDeleting(null)}
          onDelete={async () => {
            const r = await client.deleteBillTemplate(deleting.id);
            if (!r.ok) return r.error;
            toastInfo(`Template “${deleting.name}” deleted.`);
            reload();
            return null;
          }}
        />
      )}
    </ExtrasPage>
  );
}

interface NewTemplateDialogProps {
  client: DataClient;
  reference: ReferenceView;
  currency: string;
  vendorOptions: readonly { value: string; label: string }[];
  onClose(): void;
  onCreated(template: BillTemplate): void;
}

/** "New template": a name, then the bill form's vendor, currency, lines and memo (no number, no dates). */
function NewTemplateDialog({ client, reference, currency, vendorOptions, onClose, onCreated }: NewTemplateDialogProps) {
  const seq = useRef(0);
  const [name, setName] = useState('');
  const [values, setValues] = useState<BillFormValues>(() => emptyBillValues(currency, localToday(), 'template-line-0'));
  const vendors = reference.data.vendors;
  const currencies = currencyChoices(currency, values.currency);
  const clear = (...keys: string[]) => setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !keys.includes(k))));
  const setLines = (update: (lines: BillLineValues[]) => BillLineValues[], cleared: string[]) => {
    setValues((v) => ({ ...v, lines: update(v.lines) }));
    clear('amount', 'line_items', ...cleared);
  };

  const { errors, setErrors, formError, busy, submit } = useExtrasForm(() => templateInput(values, name), async (body) => {
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
        <div className="bill-wide">
          <BillLinesEditor
            lines={values.lines}
            currency={values.currency}
            glAccounts={reference.options.glAccounts}
            departments={reference.options.departments}
            errors={errors}
            onChange={(i, line) => setLines((ls) => ls.map((l, j) => (j === i ? line : l)), [`line_items.${i}.description`, `line_items.${i}.amount`])}
            onAdd={() => setLines((ls) => [...ls, emptyLine(`template-line-${++seq.current}`, vendors.find((v) => v.id === values.vendor_id) ?? null)], [])}
            onRemove={(i) => setLines((ls) => ls.filter((_, j) => j !== i), Object.keys(errors).filter((k) => k.startsWith('line_items.')))}
          />
        </div>
        <BillMemoField field="memo" label="Memo" value={values.memo} error={errors.memo} onChange={(m) => setValues((v) => ({ ...v, memo: m }))} />
      </div>
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy}>
          Save template
        </Button>
      </div>
    </Modal>
  );
}
