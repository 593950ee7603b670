import { useMemo, useState } from 'react';
import type { VendorCredit } from '../../../../schema/entities/vendor-credit.ts';
import { MAX_BILL_MEMO_LENGTH, MAX_INVOICE_NUMBER_LENGTH } from '../../../../schema/entities/bill.ts';
import { Button } from '../../../components/button.tsx';
import { DeleteDialog } from '../../../components/confirm-dialog.tsx';
import { DateField } from '../../../components/date-field.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { ModalActions } from '../../../components/modal-actions.tsx';
import { MoneyField } from '../../../components/money-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { TextField } from '../../../components/text-field.tsx';
import type { DataClient } from '../../../data-access/types.ts';
import { callThen } from '../../../lib/forms/call-then.ts';
import { useCheckedSubmit, withoutErrors } from '../../../lib/forms/use-checked-submit.ts';
import { formatDay, formatMoney } from '../../../lib/format.ts';
import { localToday } from '../bill-form.ts';
import { VendorField } from '../bill-form-fields.tsx';
import { creditInput, creditsByVendor, type CreditFormValues } from './extras-forms.ts';
import { useExtrasList } from './extras-parts.tsx';
import { creditColumns, ExtrasPage } from './extras-list.tsx';
import { currencyChoices } from '../../../lib/currency-choices.ts';


/**
 * Issue 11 §7: /bills/credits. A vendor's credit note (a return, an overcharge refunded as
 * credit) is recorded here and taken off that vendor's later bills in the bill form ("Apply
 * credit"). Credits are listed by vendor with what each was, what live bills have taken and what
 * remains. Credits live on the server only: offline the page says so and shows none.
 */
export function VendorCreditsPage() {
  const [vendorFilter, setVendorFilter] = useState('');
  const { page, list, pageProps, dialog, setDialog, close, said, saved } = useExtrasList<VendorCredit>(`credits:${vendorFilter}`,
    (c) => c.vendorCredits(vendorFilter || undefined).then((r) => (r.ok ? { ok: true as const, rows: r.credits } : r)), creditColumns);
  const { client, currency, vendorName, vendorOptions } = page;
  const groups = useMemo(() => (list.state === 'ready' ? creditsByVendor(list.rows, vendorName) : []), [list, vendorName]);
  const credits = useMemo(() => groups.flatMap((g) => g.credits), [groups]);

  return (
    <ExtrasPage<VendorCredit>
      {...pageProps}
      title="Vendor credits"
      current="/bills/credits"
      newLabel="New credit"
      headerExtra={<SelectField variant="filter" label="Vendor" value={vendorFilter} leading={[{ value: '', label: 'All vendors' }]} options={vendorOptions} onChange={setVendorFilter} />}
      offlineBody="Credits are kept on the server, not on this device, so none can be shown or added while you’re offline. Bills you enter offline can take a credit once you’re back."
      blankTitle={vendorFilter ? `No credits from ${vendorName(vendorFilter)}` : 'No vendor credits yet'}
      blankBody="When a vendor issues a credit note (for a return, or an overcharge), record it here. It is then offered on that vendor’s next bills, and what it takes comes off what you pay."
      rowClassName="credit-row"
      queryKey={`credits:${vendorFilter}`}
      items={credits}
      notices={
        <ul className="extras-remaining" aria-label="Remaining by vendor">
          {groups.map((g) => (
            <li key={g.vendor_id} data-testid="credit-vendor">
              <strong>{g.vendor}</strong>
              <span className="muted"> · {g.remaining.map((r) => formatMoney(r.minor, r.currency)).join(' + ')} remaining</span>
            </li>
          ))}
        </ul>
      }
      rowActions={(c) => (
        <Button size="sm" variant="ghost" onClick={() => setDialog({ kind: 'delete', row: c })}>
          Delete <span className="sr-only">credit {c.credit_note_number}</span>
        </Button>
      )}
    >
      {dialog?.kind === 'new' && (
        <NewCreditDialog client={client} currency={currency} vendorOptions={vendorOptions} initialVendor={vendorFilter} onClose={close}
          onCreated={(c) => saved(`Credit ${c.credit_note_number} recorded: ${formatMoney(c.amount, c.currency)} from ${vendorName(c.vendor_id)}.`)} />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteCreditDialog client={client} credit={dialog.row} vendor={vendorName(dialog.row.vendor_id)} onClose={close}
          onDeleted={() => said(`Credit ${dialog.row.credit_note_number} deleted.`)} />
      )}
    </ExtrasPage>
  );
}

function DeleteCreditDialog(props: { client: DataClient; credit: VendorCredit; vendor: string; onClose(): void; onDeleted(): void }) {
  const { credit } = props;
  // Once applied, the server refuses and says what to do instead (its words show in the dialog).
  const applied = credit.applied > 0 ? ` ${formatMoney(credit.applied, credit.currency)} of it is applied to bills.` : ' It is not applied to any bill.';
  return (
    <DeleteDialog
      title={`Delete credit ${credit.credit_note_number}?`}
      description={`${formatMoney(credit.amount, credit.currency)} from ${props.vendor}, dated ${formatDay(credit.credit_date)}.${applied}`}
      confirmLabel="Delete credit"
      onClose={props.onClose}
      onDelete={callThen(() => props.client.deleteVendorCredit(credit.id), props.onDeleted)}
    />
  );
}

interface NewCreditDialogProps {
  client: DataClient;
  currency: string;
  vendorOptions: readonly { value: string; label: string }[];
  initialVendor: string;
  onClose(): void;
  onCreated(credit: VendorCredit): void;
}

/** "New credit": the vendor, the credit note's number and date, its amount and currency, a memo. */
function NewCreditDialog({ client, currency, vendorOptions, initialVendor, onClose, onCreated }: NewCreditDialogProps) {
  const [values, setValues] = useState<CreditFormValues>(() => ({
    vendor_id: initialVendor, credit_note_number: '', credit_date: localToday(), amount: '', currency, memo: '',
  }));
  const set = <K extends keyof CreditFormValues>(key: K, value: CreditFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => withoutErrors(e, [key]));
  };
  const currencies = currencyChoices(currency, values.currency);

  const { errors, setErrors, formError, busy, submit } = useCheckedSubmit(() => creditInput(values), async (body) => {
    const r = await client.createVendorCredit(body);
    if (!r.ok) return r.error;
    onCreated(r.credit);
    return null;
  });

  return (
    <Modal title="New vendor credit" description="A credit note the vendor issued: it is offered on that vendor’s bills in its currency until it is used up." onClose={onClose} onSubmit={submit}>
      <FormError message={formError} />
      <div className="modal-fields bill-fields">
        <VendorField field="vendor_id" label="Vendor" value={values.vendor_id} options={vendorOptions} error={errors.vendor_id}
          hint={vendorOptions.length === 0 ? 'No vendors yet: add one on the Vendors page first.' : undefined} onChange={(v) => set('vendor_id', v)} />
        <TextField field="credit_note_number" label="Credit note number" value={values.credit_note_number} maxLength={MAX_INVOICE_NUMBER_LENGTH}
          autoComplete="off" error={errors.credit_note_number} onChange={(v) => set('credit_note_number', v)} />
        <DateField field="credit_date" label="Credit date" value={values.credit_date} error={errors.credit_date} onChange={(v) => set('credit_date', v)} />
        <MoneyField amount={values.amount} currency={values.currency} currencies={currencies} error={errors.amount ?? errors.currency ?? null}
          onAmount={(v) => set('amount', v)} onCurrency={(v) => set('currency', v)} />
        <TextField field="memo" label="Memo (optional)" value={values.memo} maxLength={MAX_BILL_MEMO_LENGTH} error={errors.memo} onChange={(v) => set('memo', v)} />
      </div>
      <ModalActions submitLabel="Record credit" busy={busy} onCancel={onClose} />
    </Modal>
  );
}
