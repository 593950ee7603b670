import { useMemo, useState, type ReactNode } from 'react';
import type { Reimbursement, ReimbursementType } from '../../../schema/entities/reimbursement.ts';
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
import { STATUS_LABELS } from '../../lib/claim-labels.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import {
  distanceInMiles, mileagePreview, OTHER_LOCATION, OTHER_LOCATION_LABEL, perDiemChoice, perDiemLocationOptions, perDiemPreview, perDiemRateNote,
} from './claim-amounts.ts';
import { DistanceField, MemoField } from './claim-fields.tsx';
import { localToday, prefillFromReceipt, type ClaimFormValues } from './claim-form.ts';
import type { ClaimView } from './claim-labels.ts';
import { ClaimReceiptsField } from './claim-receipts.tsx';
import { useClaimForm } from './use-claim-form.ts';

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

/**
 * The claim form of one type, in a Modal (a bottom sheet on a phone). "Save draft" and "Submit"
 * run the create command (or update, then submit, when editing) through the worker: it works
 * offline, and the row shows at once with its pending mark. Input is checked with the commands'
 * own schemas and rules before anything is queued; on any refusal the form stays as typed.
 * Its state is `useClaimForm` (use-claim-form.ts).
 */
export function ClaimFormDialog(props: ClaimFormDialogProps) {
  const { type, claim, client, reference } = props;
  const form = useClaimForm(props);
  const { values, set, errors, busy, duplicates, rates } = form;
  const codingOptions = reference.options;
  return (
    <Modal
      title={claim ? `Edit ${TITLES[type].replace(/^New /, '')}` : TITLES[type]}
      onClose={form.cancel}
      onSubmit={form.onSubmit}
      returnFocus={props.returnFocus}
      size="lg"
    >
      <FormError message={form.formError} />
      {duplicates && <DuplicatesNotice claims={duplicates.claims} />}
      <div className="modal-fields claim-fields">
        {type === 'OUT_OF_POCKET' && (
          <>
            <TextField label="Merchant" value={values.merchant} autoFocus error={errors.merchant} onChange={(v) => set('merchant', v)} />
            <DateField label="Date" value={values.transaction_date} max={latestClaimDate(new Date())} error={errors.transaction_date} onChange={(v) => set('transaction_date', v)} />
            <MoneyField amount={values.amount} currency={values.currency} currencies={form.currencies} error={errors.amount ?? errors.currency}
              onAmount={(v) => set('amount', v)} onCurrency={(v) => set('currency', v)} />
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
              onStored={form.onStored}
              onReading={(reading) => form.setValues((v) => prefillFromReceipt(v, reading, localToday()).values)}
              defaultCurrency={props.currency}
              today={localToday()}
            />
          </ReceiptsSlot>
        )}
      </div>
      <div className="modal-actions">
        <Button variant="ghost" onClick={form.cancel}>
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

/** A submit found possible duplicates: which, and that "Submit anyway" goes on. */
function DuplicatesNotice({ claims }: { claims: readonly Reimbursement[] }) {
  return (
    <div className="notice notice-warning claim-duplicates" role="alert">
      <p>
        <strong>Possible duplicate.</strong> You already have {claims.length === 1 ? 'a claim' : `${claims.length} claims`} for this amount on this date:
      </p>
      <ul>
        {claims.map((c) => (
          <li key={c.id}>
            {c.merchant ?? 'No merchant'} · {formatMoney(c.amount, c.currency)} · {formatDay(c.transaction_date)} ({STATUS_LABELS[c.status]})
          </li>
        ))}
      </ul>
      <p>Submit anyway if this is a different expense; otherwise cancel or save a draft.</p>
    </div>
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

