import { useRef, useState } from 'react';
import type { RowView } from '../../../workers/api.ts';
import { checkBillAction } from '../../../schema/bill-rules.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { joinList } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import type { BillFormValues } from './bill-form.ts';
import { BillFormBody } from './bill-form-body.tsx';
import { DuplicateQuestionDialog, DuplicateWarning } from './bill-form-duplicates.tsx';
import { SaveTemplateDialog } from './extras/bill-form-extras.tsx';
import { useBillForm } from './use-bill-form.ts';

/** Moved beside the form (bill-form-duplicates.tsx); re-exported for the form's callers and tests. */
export { DuplicateQuestionDialog, type DuplicateQuestion } from './bill-form-duplicates.tsx';

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
 * Its state and saving are `useBillForm` (use-bill-form.ts); the fields are `BillFormBody`.
 */
export function BillFormDialog(props: BillFormDialogProps) {
  const { bill, client } = props;
  const fieldsBox = useRef<HTMLDivElement>(null);
  const form = useBillForm(props, fieldsBox);
  const [savingTemplate, setSavingTemplate] = useState(false);
  const { values, busy, parts } = form;
  const title = bill ? `Edit bill ${bill.invoice_number}` : props.provisionalBillId ? 'Complete bill' : 'New bill';
  const statusNote = bill && !parts.payable ? checkBillAction('editPayable', bill.status) : null;
  return (
    <>
      <Modal title={title} onClose={props.onClose} onSubmit={form.onSubmit} returnFocus={props.returnFocus} size="lg">
        <FormError message={form.formError} />
        {statusNote && !statusNote.ok && <p className="notice bill-form-note">{statusNote.message} Only the fields below that are not greyed out can change.</p>}
        {form.duplicates && <DuplicateWarning vendor={form.vendorName(values.vendor_id)} bills={form.duplicates} />}
        {form.prefilled && form.prefilled.filled.length > 0 && (
          <p className="notice bill-form-note" role="status">
            Filled from the invoice: {joinList(form.prefilled.filled)}. Check them against the document.
          </p>
        )}
        <BillFormBody form={form} fieldsBox={fieldsBox} bill={bill} client={client} reference={props.reference} currency={props.currency}
          invoiceFile={props.invoiceFile} templateId={props.templateId} provisionalBillId={props.provisionalBillId} />
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
      {form.askDuplicate && (
        <DuplicateQuestionDialog question={form.askDuplicate} vendor={form.vendorName(values.vendor_id)} creating={!bill}
          onBack={form.backFromDuplicate} onConfirm={form.confirmDuplicate} />
      )}
      {savingTemplate && (
        <SaveTemplateDialog client={client} values={values} onClose={() => setSavingTemplate(false)}
          onFieldErrors={(found) => {
            form.setErrors(found);
            form.setFormError('Check the fields marked below before saving them as a template.');
          }}
        />
      )}
    </>
  );
}
