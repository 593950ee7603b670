import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { BillTemplate } from '../../../../schema/api/calls-bill-extras.ts';
import type { VendorCredit } from '../../../../schema/entities/vendor-credit.ts';
import { Button } from '../../../components/button.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { ModalActions } from '../../../components/modal-actions.tsx';
import { TextField } from '../../../components/text-field.tsx';
import type { DataClient } from '../../../data-access/types.ts';
import { errorText } from '../../../lib/error-text.ts';
import { formatDay, formatMoney } from '../../../lib/format.ts';
import { toastInfo } from '../../../lib/toast-store.ts';
import {
  applyCredit, TEMPLATE_NAME_MAX, templateInput, type BillCreditValues, type BillFieldErrors, type BillFormValues, type CreditOffer,
} from '../bill-form.ts';
import { useOnlineList, type OnlineList } from '../../../lib/use-online-list.ts';

/**
 * The bill form's bill pay extras (issue 11 §7): "Start from template", the vendor's credits to
 * apply, and "Save as template". Templates and credits live on the server only, so each says
 * plainly when it cannot be read offline; what the form sends is still checked by the server.
 */

/** The business's bill templates, read while the new-bill form is open. */
export function useBillTemplates(client: DataClient, online: boolean): OnlineList<BillTemplate> {
  return useOnlineList(online, 'templates', async () => {
    const r = await client.billTemplates();
    return r.ok ? { ok: true, rows: r.templates } : r;
  }).list;
}

/** The chosen vendor's credits (none without a vendor). */
export function useVendorCredits(client: DataClient, online: boolean, vendorId: string): OnlineList<VendorCredit> {
  return useOnlineList(online && vendorId !== '', vendorId, async () => {
    const r = await client.vendorCredits(vendorId);
    return r.ok ? { ok: true, rows: r.credits } : r;
  }).list;
}

export interface TemplatePickerProps {
  templates: OnlineList<BillTemplate>;
  vendorName(id: string): string;
  /** `template=<id>` in the URL: picked as soon as the list has it. */
  initialId?: string | undefined;
  onPick(template: BillTemplate): void;
}

/** "Start from template": a select over the templates; choosing one fills vendor, currency, lines and memo. */
export function TemplatePicker({ templates, vendorName, initialId, onPick }: TemplatePickerProps) {
  const noteId = useId();
  const [chosen, setChosen] = useState(initialId ?? '');
  const pickedInitial = useRef(false);
  const rows = templates.state === 'ready' ? templates.rows : [];
  const initial = initialId ? rows.find((t) => t.id === initialId) : undefined;
  useEffect(() => {
    if (pickedInitial.current || !initial) return;
    pickedInitial.current = true;
    onPick(initial);
  }, [initial, onPick]);

  let note: string | null = null;
  if (templates.state === 'offline') note = 'Templates need a connection: fill the bill in by hand, or start from a template when you’re back online.';
  else if (templates.state === 'error') note = `Templates could not be read: ${templates.message}`;
  else if (templates.state === 'ready' && initialId && !initial) note = 'That template was not found: it may have been deleted. Choose another, or fill the bill in by hand.';
  else if (templates.state === 'ready' && rows.length === 0) note = 'No templates yet: fill in a bill you enter often and choose “Save as template”.';
  const ready = templates.state === 'ready' && rows.length > 0;

  return (
    <label className="field bill-wide bill-template-picker">
      <span className="field-label">Start from template</span>
      <select
        value={ready ? chosen : ''}
        disabled={!ready}
        aria-describedby={note ? noteId : undefined}
        onChange={(e) => {
          const t = rows.find((x) => x.id === e.target.value);
          setChosen(e.target.value);
          if (t) onPick(t);
        }}
      >
        <option value="">{templates.state === 'loading' ? 'Loading templates…' : ready ? 'Choose a template…' : 'No template'}</option>
        {rows.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name} · {vendorName(t.vendor_id)}
          </option>
        ))}
      </select>
      {note && <span id={noteId} className="field-hint muted">{note}</span>}
    </label>
  );
}

export interface BillCreditsProps {
  values: BillFormValues;
  credits: OnlineList<VendorCredit>;
  /** The vendor's credits this bill may still draw on (bill-form.ts creditOffers, those applied left out). */
  offers: readonly CreditOffer[];
  errors: BillFieldErrors;
  disabled?: boolean | undefined;
  onApply(credit: BillCreditValues): void;
  onChange(index: number, credit: BillCreditValues): void;
  onRemove(index: number): void;
}

/**
 * The credits applied to the bill (each a credit line: what it takes off, editable, and Remove)
 * and those the vendor still has ("Apply credit CN-1 — $50.00 available"). A credit is applied
 * in full when the bill can take it; otherwise up to all but the smallest unit of the bill.
 */
export function BillCredits({ values, credits, offers, errors, disabled, onApply, onChange, onRemove }: BillCreditsProps) {
  const [capped, setCapped] = useState<{ id: string; number: string } | null>(null);
  if (values.vendor_id === '') return null;
  const money = (n: number) => formatMoney(n, values.currency);
  const lineCount = values.lines.length;
  const status = disabled ? null
    : credits.state === 'offline' && values.credits.length === 0 ? 'Vendor credits need a connection: any this vendor has can be applied when you’re back online.'
      : credits.state === 'error' ? `This vendor’s credits could not be read: ${credits.message}`
        : null;
  if (values.credits.length === 0 && offers.length === 0 && !status) return null;
  return (
    <div className="bill-credits" data-field="credits">
      {values.credits.length > 0 && (
        <ul className="bill-credit-list" aria-label="Vendor credits applied">
          {values.credits.map((c, j) => {
            const path = `line_items.${lineCount + j}`;
            const error = errors[`${path}.amount`] ?? errors[`${path}.vendor_credit_id`];
            return (
              <CreditRow key={c.vendor_credit_id} credit={c} field={`${path}.amount`} error={error} disabled={disabled}
                onChange={(next) => onChange(j, next)} onRemove={() => onRemove(j)} />
            );
          })}
        </ul>
      )}
      {!disabled && offers.length > 0 && (
        <div className="bill-credit-offers">
          {offers.map((o) => {
            const applied = applyCredit(values, o);
            return (
              <Button key={o.credit.id} size="sm" disabled={!applied}
                title={applied ? undefined : 'Enter the lines’ amounts first: a credit is taken off the bill’s total.'}
                onClick={() => {
                  if (!applied) return;
                  onApply(applied.credit);
                  setCapped(applied.capped ? { id: o.credit.id, number: o.credit.credit_note_number } : null);
                }}>
                Apply credit {o.credit.credit_note_number} — {money(o.available)} available
              </Button>
            );
          })}
          <span className="field-hint muted">
            {offers.length === 1 ? 'This vendor has a credit' : `This vendor has ${offers.length} credits`} from {joinDates(offers)}.
            {offers.every((o) => !applyCredit(values, o)) ? ' Enter the lines’ amounts to apply one.' : ''}
          </span>
        </div>
      )}
      {capped && values.credits.some((c) => c.vendor_credit_id === capped.id) && (
        <p className="field-hint muted" role="status">
          Credit {capped.number} covers more than this bill: part of it is applied, and a bill keeps something to pay (it must total more than zero after credits). The rest stays for the vendor’s next bills.
        </p>
      )}
      {status && <p className="field-hint muted">{status}</p>}
    </div>
  );
}

const joinDates = (offers: readonly CreditOffer[]) => [...new Set(offers.map((o) => formatDay(o.credit.credit_date)))].join(', ');

function CreditRow(props: {
  credit: BillCreditValues; field: string; error?: string | undefined; disabled?: boolean | undefined;
  onChange(credit: BillCreditValues): void; onRemove(): void;
}) {
  const { credit, error } = props;
  const errorId = useId();
  return (
    <li className="bill-credit">
      <span className="bill-credit-name">{credit.description}</span>
      <label className="field bill-credit-amount" data-field={props.field}>
        <span className="field-label">
          <span className="sr-only">{credit.description} </span>Taken off
        </span>
        <input
          type="text"
          inputMode="decimal"
          autoComplete="off"
          className="input-amount"
          value={credit.amount}
          disabled={props.disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => props.onChange({ ...credit, amount: e.target.value })}
        />
        {error && <span id={errorId} className="field-error">{error}</span>}
      </label>
      {!props.disabled && (
        <Button size="sm" variant="ghost" onClick={props.onRemove}>
          Remove <span className="sr-only">{credit.description}</span>
        </Button>
      )}
    </li>
  );
}

export interface SaveTemplateDialogProps {
  client: DataClient;
  values: BillFormValues;
  onClose(): void;
  /** The bill form's field errors the template's check found (vendor, lines): shown on the form. */
  onFieldErrors(errors: BillFieldErrors): void;
}

/**
 * "Save as template": names the form's vendor, currency, lines and memo and saves them on the
 * server (online only). Field problems go back to the bill form, where those fields are.
 */
export function SaveTemplateDialog({ client, values, onClose, onFieldErrors }: SaveTemplateDialogProps) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const built = templateInput(values, name);
    if (!built.ok) {
      const { name: nameError, ...rest } = built.errors;
      setError(nameError ?? null);
      if (Object.keys(rest).length > 0) {
        onFieldErrors(rest);
        setFormError('The bill’s fields need a fix first: see the form behind this dialog.');
      }
      return;
    }
    setBusy(true);
    try {
      const r = await client.createBillTemplate(built.body);
      if (!r.ok) return setFormError(errorText(r.error));
      toastInfo(`Template “${r.template.name}” saved. Start a bill from it in the new-bill form or on the Templates page.`);
      onClose();
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal title="Save as template" description="The vendor, currency, lines and memo, to start the next bill from. Invoice number, dates and credits are not kept." onClose={onClose} onSubmit={submit}>
      <FormError message={formError} />
      <div className="modal-fields">
        <TextField label="Template name" value={name} maxLength={TEMPLATE_NAME_MAX} autoFocus error={error} onChange={(v) => { setName(v); setError(null); }} />
      </div>
      <ModalActions submitLabel="Save template" busy={busy} onCancel={onClose} />
    </Modal>
  );
}
