import { useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { Reimbursement, ReimbursementType } from '../../../schema/entities/reimbursement.ts';
import { businessRatesOf } from '../../../schema/entities/reimbursement-rate.ts';
import { latestClaimDate, perDiemRateFor, type BusinessRates } from '../../../schema/reimbursement-rules.ts';
import { Button } from '../../components/button.tsx';
import { Combobox } from '../../components/combobox.tsx';
import { DateField } from '../../components/date-field.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { MoneyField } from '../../components/money-field.tsx';
import type { SelectOption } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { useAppState } from '../../data-access/data-context.tsx';
import { STATUS_LABELS } from '../../lib/claim-labels.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import {
  distanceInMiles, mileagePreview, OTHER_LOCATION, OTHER_LOCATION_LABEL, perDiemChoice, perDiemLocationOptions, perDiemPreview, perDiemRateNote,
} from './claim-amounts.ts';
import { DistanceField, MemoField } from './claim-fields.tsx';
import {
  claimFields, claimValues, createCommand, emptyClaimValues, formErrors, prefillFromReceipt, updatePatch, type ClaimFieldErrors, type ClaimFormValues,
} from './claim-form.ts';
import type { ClaimView } from './claim-labels.ts';
import { ClaimReceiptsField, discardFormReceipts } from './claim-receipts.tsx';
import { findLocalDuplicates } from './duplicates.ts';
import { currencyChoices } from '../../lib/currency-choices.ts';

export interface ClaimFormDialogProps {
  type: ReimbursementType;
  /** Editing this claim (a draft or a rejected claim); creating a new one without it. */
  claim?: ClaimView;
  client: DataClient;
  reference: ReferenceView;
  /** The business's currency: an out-of-pocket claim's default. */
  currency: string;
  /** Values to start from (e.g. read from a receipt by OCR); the person can change them all. */
  prefill?: Partial<ClaimFormValues>;
  /** Receipts to start with (client or server ids), e.g. one picked in the Receipts inbox. */
  receiptIds?: readonly string[];
  onClose(): void;
  /** The claim's command is durable on this device (it syncs in the background). */
  onSaved(id: string): void;
  returnFocus?: () => HTMLElement | null | undefined;
}

const TITLES: Record<ReimbursementType, string> = {
  OUT_OF_POCKET: 'New out-of-pocket claim',
  MILEAGE: 'New mileage claim',
  PER_DIEM: 'New per-diem claim',
};
const NONE: SelectOption = { value: '', label: 'None' };

/** The person's local calendar date (YYYY-MM-DD): a claim's default date is their today. */
export const localToday = (now = new Date()) =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

/**
 * The claim form of one type, in a Modal (a bottom sheet on a phone). "Save draft" and "Submit"
 * run the create command (or update, then submit, when editing) through the worker: it works
 * offline, and the row shows at once with its pending mark. Input is checked with the commands'
 * own schemas and rules before anything is queued; on any refusal the form stays as typed.
 */
export function ClaimFormDialog(props: ClaimFormDialogProps) {
  const { type, claim, client, reference } = props;
  const [values, setValues] = useState<ClaimFormValues>(() => ({
    ...(claim ? claimValues(claim) : emptyClaimValues(props.currency, localToday())),
    ...props.prefill,
    ...(props.receiptIds ? { receipt_ids: props.receiptIds } : {}),
  }));
  const [errors, setErrors] = useState<ClaimFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'draft' | 'submit' | null>(null);
  // Possible duplicates found before a submit: shown, and "Submit anyway" goes on (never dropped).
  const [duplicates, setDuplicates] = useState<{ of: string; claims: Reimbursement[] } | null>(null);
  const me = useAppState((s) => s.session?.user.id ?? null);
  // One id per dialog: a create refused here and sent again is still the same claim.
  const id = useRef(claim?.id ?? crypto.randomUUID());
  // The business's rates (mirrored reference data, so offline too): the live lines and the commands use them.
  const rates = useMemo(() => businessRatesOf(reference.data.reimbursement_rates), [reference.data.reimbursement_rates]);
  // Issue 25: receipts this form stored on the device. Cancelled, the form gives them up again
  // (a queued upload dropped before it is sent, an uploaded one discarded on the server through
  // the outbox); saved, only those removed from the claim go. Receipts that were here before
  // (from the inbox, the same bytes) are never touched: they stay in Receipts.
  const stored = useRef(new Set<string>());
  async function discardStored(keep: readonly string[]) {
    const gone = [...stored.current].filter((rid) => !keep.includes(rid));
    stored.current.clear();
    await discardFormReceipts(client, gone);
  }
  const cancel = () => {
    void discardStored([]);
    props.onClose();
  };
  const set = <K extends keyof ClaimFormValues>(key: K, value: ClaimFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  };

  const currencies = useMemo(
    () => currencyChoices(props.currency, values.currency),
    [props.currency, values.currency],
  );

  async function save(submit: boolean) {
    setFormError(null);
    const now = new Date();
    setBusy(submit ? 'submit' : 'draft');
    try {
      if (submit && type === 'OUT_OF_POCKET' && me) {
        const found = await possibleDuplicates(me);
        if (found === 'invalid') {
          // The command's own check below says what is wrong.
        } else if (found.claims.length > 0 && duplicates?.of !== found.of) {
          setDuplicates(found);
          return;
        }
      }
      if (!claim) {
        const built = createCommand(type, values, { id: id.current, submit, now, rates });
        if (!built.ok) return refuse(built.errors);
        const result = await client.run(built.name, built.input as never);
        if (!result.ok) return refuseServer(result.error);
      } else {
        const built = updatePatch(claim, values, now, rates);
        if (!built.ok) return refuse(built.errors);
        if (built.patch) {
          const result = await client.run('reimbursement.update', { reimbursement_id: claim.id, patch: built.patch, rates: [...rates] });
          if (!result.ok) return refuseServer(result.error);
        }
        if (submit) {
          const result = await client.run('reimbursement.submit', { reimbursement_id: claim.id });
          if (!result.ok) return refuseServer(result.error);
        }
      }
      toastInfo(submit ? 'Submitted. It syncs in the background.' : claim ? 'Saved. It syncs in the background.' : 'Draft saved. It syncs in the background.');
      void discardStored(values.receipt_ids);
      props.onSaved(id.current);
    } finally {
      setBusy(null);
    }
  }

  /** The claimant's claims this one may repeat (same amount and date, similar merchant), keyed by what was checked. */
  async function possibleDuplicates(userId: string): Promise<{ of: string; claims: Reimbursement[] } | 'invalid'> {
    const fields = claimFields('OUT_OF_POCKET', values);
    if (typeof fields.amount !== 'number' || typeof fields.transaction_date !== 'string') return 'invalid';
    const probe = { id: claim?.id ?? id.current, user_id: claim?.user_id ?? userId, amount: fields.amount, transaction_date: fields.transaction_date, merchant: (fields.merchant as string | null) ?? null };
    const claims = await findLocalDuplicates(client, probe);
    return { of: JSON.stringify([probe.amount, probe.transaction_date, probe.merchant]), claims };
  }

  function refuse(fieldErrors: ClaimFieldErrors) {
    setErrors(fieldErrors);
    setFormError('Check the fields marked below.');
  }
  function refuseServer(error: { message: string; error_code: string; errors?: Record<string, string> }) {
    if (error.errors) setErrors(formErrors(error.errors));
    setFormError(errorText(error));
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    // Enter in a field submits with the first submit button: "Save draft", never a surprise submission.
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    void save(submitter?.value === 'submit');
  }

  const codingOptions = reference.options;
  return (
    <Modal
      title={claim ? `Edit ${TITLES[type].replace(/^New /, '')}` : TITLES[type]}
      onClose={cancel}
      onSubmit={onSubmit}
      returnFocus={props.returnFocus}
      size="lg"
    >
      <FormError message={formError} />
      {duplicates && (
        <div className="notice notice-warning claim-duplicates" role="alert">
          <p>
            <strong>Possible duplicate.</strong> You already have{' '}
            {duplicates.claims.length === 1 ? 'a claim' : `${duplicates.claims.length} claims`} for this amount on this date:
          </p>
          <ul>
            {duplicates.claims.map((c) => (
              <li key={c.id}>
                {c.merchant ?? 'No merchant'} · {formatMoney(c.amount, c.currency)} · {formatDay(c.transaction_date)} ({STATUS_LABELS[c.status]})
              </li>
            ))}
          </ul>
          <p>Submit anyway if this is a different expense; otherwise cancel or save a draft.</p>
        </div>
      )}
      <div className="modal-fields claim-fields">
        {type === 'OUT_OF_POCKET' && (
          <>
            <TextField label="Merchant" value={values.merchant} autoFocus error={errors.merchant} onChange={(v) => set('merchant', v)} />
            <DateField label="Date" value={values.transaction_date} max={latestClaimDate(new Date())} error={errors.transaction_date} onChange={(v) => set('transaction_date', v)} />
            <MoneyField
              amount={values.amount}
              currency={values.currency}
              currencies={currencies}
              error={errors.amount ?? errors.currency}
              onAmount={(v) => set('amount', v)}
              onCurrency={(v) => set('currency', v)}
            />
          </>
        )}
        {type === 'MILEAGE' && (
          <>
            <DateField label="Trip date" value={values.trip_date} max={latestClaimDate(new Date())} error={errors.trip_date} onChange={(v) => set('trip_date', v)} />
            <DistanceField value={values.distance} unit={values.unit} error={errors.distance} onChange={(v) => set('distance', v)} onUnit={(u) => set('unit', u)} />
            <TextField label="From" value={values.start_location} error={errors.start_location} onChange={(v) => set('start_location', v)} />
            <TextField label="To" value={values.end_location} error={errors.end_location} onChange={(v) => set('end_location', v)} />
            <MileageLine values={values} rates={rates} />
          </>
        )}
        {type === 'PER_DIEM' && (
          <>
            <PerDiemLocation values={values} rates={rates} error={errors.location} onChange={(v) => set('location', v)} />
            <DateField label="Start date" value={values.start_date} error={errors.start_date} onChange={(v) => set('start_date', v)} />
            <DateField label="End date" value={values.end_date} error={errors.end_date} onChange={(v) => set('end_date', v)} />
            <PerDiemLine values={values} rates={rates} />
          </>
        )}
        <MemoField value={values.memo} error={errors.memo} onChange={(v) => set('memo', v)} />
        <CodingCombobox label="GL account" value={values.gl_account_id} options={codingOptions.glAccounts} error={errors.gl_account_id} onChange={(v) => set('gl_account_id', v)} />
        <CodingCombobox label="Department" value={values.department_id} options={codingOptions.departments} error={errors.department_id} onChange={(v) => set('department_id', v)} />
        {type === 'OUT_OF_POCKET' && (
          <ReceiptsSlot>
            <ClaimReceiptsField
              client={client}
              ids={values.receipt_ids}
              onChange={(ids) => set('receipt_ids', ids)}
              onStored={(ids) => ids.forEach((rid) => stored.current.add(rid))}
              onReading={(reading) => setValues((v) => prefillFromReceipt(v, reading, localToday()).values)}
              defaultCurrency={props.currency}
              today={localToday()}
            />
          </ReceiptsSlot>
        )}
      </div>
      <div className="modal-actions">
        <Button variant="ghost" onClick={cancel}>
          Cancel
        </Button>
        {/* Editing keeps the claim's status (a rejected claim stays rejected until resubmitted). */}
        <Button type="submit" value="draft" loading={busy === 'draft'} disabled={busy !== null}>
          {claim ? 'Save' : 'Save draft'}
        </Button>
        <Button type="submit" value="submit" variant="primary" loading={busy === 'submit'} disabled={busy !== null}>
          {duplicates ? 'Submit anyway' : claim?.status === 'REJECTED' ? 'Resubmit' : 'Submit'}
        </Button>
      </div>
    </Modal>
  );
}

/** "124 mi × $0.725 = $89.90", live, from the same rule the server applies (the business's rate for the year when set). */
function MileageLine({ values, rates }: { values: ClaimFormValues; rates: BusinessRates }) {
  const miles = distanceInMiles(values.distance, values.unit);
  const preview = mileagePreview(miles, values.trip_date, rates);
  const converted = values.unit === 'km' && miles !== null ? `${values.distance.trim()} km = ${miles} mi · ` : '';
  return (
    <p className="claim-live claim-wide" aria-live="polite" data-testid="claim-live-amount">
      <span className="field-label">Amount</span>{' '}
      {preview.ok ? `${converted}${preview.text}` : (preview.text ?? 'Enter the distance and the trip date')}
    </p>
  );
}

/** "3 days = 2 travel days × $51.00 (75 %) + 1 full day × $68.00 = $170.00", live, at the location's rate. */
function PerDiemLine({ values, rates }: { values: ClaimFormValues; rates: BusinessRates }) {
  const preview = perDiemPreview(values.start_date, values.end_date, perDiemRateFor(values.location, rates));
  return (
    <p className="claim-live claim-wide" aria-live="polite" data-testid="claim-live-amount">
      <span className="field-label">Amount</span> {preview.text ?? 'Enter the start and end dates'}
    </p>
  );
}

/**
 * The per-diem location: a `Combobox` of the business's locations (each at its daily rate) and
 * "Other (default rate)", which asks for the place's name. Without business locations, the name
 * alone. The note under it says the rate the live line uses.
 */
function PerDiemLocation(props: { values: ClaimFormValues; rates: BusinessRates; error?: string; onChange(v: string): void }) {
  const { values, rates } = props;
  const options = useMemo(() => perDiemLocationOptions(rates), [rates]);
  // A claim's place not in the list opens on Other with its name (rates read later land there too).
  const [otherChosen, setOtherChosen] = useState(() => values.location.trim() !== '' && perDiemRateFor(values.location, rates).location === null);
  const choice = perDiemChoice(values.location, rates, otherChosen);
  const note = <span className="claim-rate muted">{perDiemRateNote(perDiemRateFor(values.location, rates))}</span>;
  if (options.length === 0) {
    return (
      <>
        <TextField label="Location" value={values.location} autoFocus error={props.error} onChange={props.onChange} />
        {note}
      </>
    );
  }
  function choose(value: string) {
    setOtherChosen(value === OTHER_LOCATION);
    // Other: the name is typed next (a name of the business's list typed there takes its rate).
    props.onChange(value === OTHER_LOCATION ? '' : value);
  }
  return (
    <>
      <div className="claim-coding">
        <Combobox label="Location" value={choice} options={options} leading={[{ value: OTHER_LOCATION, label: OTHER_LOCATION_LABEL }]} onChange={choose} />
        {choice !== OTHER_LOCATION && props.error && <span className="field-error">{props.error}</span>}
      </div>
      {choice === OTHER_LOCATION && (
        <TextField label="Other location" value={values.location} autoFocus error={props.error} onChange={props.onChange} />
      )}
      {note}
    </>
  );
}

function CodingCombobox(props: { label: string; value: string; options: readonly SelectOption[]; error?: string; onChange(v: string): void }) {
  return (
    <div className="claim-coding">
      <Combobox label={props.label} value={props.value} options={props.options} leading={[NONE]} onChange={props.onChange} />
      {props.error && <span className="field-error">{props.error}</span>}
    </div>
  );
}

/** The form's receipts region (a named group). */
export function ReceiptsSlot({ children }: { children: ReactNode }) {
  return (
    <div className="receipt-slot claim-wide" role="group" aria-label="Receipts">
      {children}
    </div>
  );
}

