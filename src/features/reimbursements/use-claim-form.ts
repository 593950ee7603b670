import { useMemo, useRef, useState, type FormEvent } from 'react';
import type { ErrorV2 } from '../../../schema/errors.ts';
import type { Reimbursement, ReimbursementType } from '../../../schema/entities/reimbursement.ts';
import { businessRatesOf } from '../../../schema/entities/reimbursement-rate.ts';
import type { BusinessRates } from '../../../schema/reimbursement-rules.ts';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { currencyChoices } from '../../lib/currency-choices.ts';
import { errorText } from '../../lib/error-text.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { discardFormReceipts } from './claim-receipts.tsx';
import {
  claimFields, claimValues, createCommand, emptyClaimValues, formErrors, localToday, updatePatch, type ClaimFieldErrors, type ClaimFormValues,
} from './claim-form.ts';
import type { ClaimView } from './claim-labels.ts';
import { findLocalDuplicates } from './duplicates.ts';

export interface ClaimFormOptions {
  type: ReimbursementType;
  /** Editing this claim; creating a new one without it. */
  claim?: ClaimView | undefined;
  client: DataClient;
  reference: ReferenceView;
  /** The business's currency: an out-of-pocket claim's default. */
  currency: string;
  prefill?: Partial<ClaimFormValues> | undefined;
  receiptIds?: readonly string[] | undefined;
  onClose(): void;
  onSaved(id: string): void;
}

/** Possible duplicates found before a submit, keyed by what was checked: shown, and "Submit anyway" goes on. */
export interface FoundDuplicates {
  of: string;
  claims: Reimbursement[];
}

type ServerError = ErrorV2['error_v2'];
type SendOutcome = { ok: true } | { ok: false; fields: ClaimFieldErrors } | { ok: false; error: ServerError };

/**
 * A claim's command(s) through the worker: the create of a new claim, or an edit's update (only
 * what changed) then, to submit, its submit. Checked with the commands' own schemas and rules first.
 */
async function sendClaim(
  client: DataClient, type: ReimbursementType, claim: ClaimView | undefined, values: ClaimFormValues, o: { id: string; submit: boolean; rates: BusinessRates },
): Promise<SendOutcome> {
  const now = new Date();
  if (!claim) {
    const built = createCommand(type, values, { ...o, now });
    if (!built.ok) return { ok: false, fields: built.errors };
    const result = await client.run(built.name, built.input as never);
    return result.ok ? { ok: true } : { ok: false, error: result.error };
  }
  const built = updatePatch(claim, values, now, o.rates);
  if (!built.ok) return { ok: false, fields: built.errors };
  if (built.patch) {
    const result = await client.run('reimbursement.update', { reimbursement_id: claim.id, patch: built.patch, rates: [...o.rates] });
    if (!result.ok) return { ok: false, error: result.error };
  }
  if (o.submit) {
    const result = await client.run('reimbursement.submit', { reimbursement_id: claim.id });
    if (!result.ok) return { ok: false, error: result.error };
  }
  return { ok: true };
}

/** The claimant's claims this one may repeat (same amount and date, similar merchant), keyed by what was checked. */
async function possibleDuplicates(client: DataClient, values: ClaimFormValues, id: string, userId: string): Promise<FoundDuplicates | 'invalid'> {
  const fields = claimFields('OUT_OF_POCKET', values);
  if (typeof fields.amount !== 'number' || typeof fields.transaction_date !== 'string') return 'invalid';
  const probe = { id, user_id: userId, amount: fields.amount, transaction_date: fields.transaction_date, merchant: (fields.merchant as string | null) ?? null };
  const claims = await findLocalDuplicates(client, probe);
  return { of: JSON.stringify([probe.amount, probe.transaction_date, probe.merchant]), claims };
}

/**
 * The claim form's state: the values as typed (a claim's, or empty at today with a prefill and
 * receipts), field and form errors, "Save draft" / "Submit" (a possible duplicate asked about
 * first), and the receipts this form stored on the device, given up again when it is cancelled.
 */
export function useClaimForm(o: ClaimFormOptions) {
  const { type, claim, client } = o;
  const [values, setValues] = useState<ClaimFormValues>(() => ({
    ...(claim ? claimValues(claim) : emptyClaimValues(o.currency, localToday())),
    ...o.prefill,
    ...(o.receiptIds ? { receipt_ids: o.receiptIds } : {}),
  }));
  const [errors, setErrors] = useState<ClaimFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'draft' | 'submit' | null>(null);
  const [duplicates, setDuplicates] = useState<FoundDuplicates | null>(null);
  const me = useAppState((s) => s.session?.user.id ?? null);
  // One id per dialog: a create refused here and sent again is still the same claim.
  const id = useRef(claim?.id ?? crypto.randomUUID());
  // The business's rates (mirrored reference data, so offline too): the live lines and the commands use them.
  const rates = useMemo(() => businessRatesOf(o.reference.data.reimbursement_rates), [o.reference.data.reimbursement_rates]);
  const currencies = useMemo(() => currencyChoices(o.currency, values.currency), [o.currency, values.currency]);
  // Issue 25: receipts this form stored on the device. Cancelled, the form gives them up again
  // (a queued upload dropped before it is sent, an uploaded one discarded on the server through
  // the outbox); saved, only those removed from the claim go. Receipts that were here before
  // (from the inbox, the same bytes) are never touched: they stay in Receipts.
  const stored = useRef(new Set<string>());
  const discardStored = (keep: readonly string[]) => {
    const gone = [...stored.current].filter((rid) => !keep.includes(rid));
    stored.current.clear();
    return discardFormReceipts(client, gone);
  };
  const set = <K extends keyof ClaimFormValues>(key: K, value: ClaimFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  };

  async function save(submit: boolean) {
    setFormError(null);
    setBusy(submit ? 'submit' : 'draft');
    try {
      if (submit && type === 'OUT_OF_POCKET' && me) {
        // An invalid amount or date: the command's own check below says what is wrong.
        const found = await possibleDuplicates(client, values, claim?.id ?? id.current, claim?.user_id ?? me);
        if (found !== 'invalid' && found.claims.length > 0 && duplicates?.of !== found.of) return setDuplicates(found);
      }
      const sent = await sendClaim(client, type, claim, values, { id: id.current, submit, rates });
      if (!sent.ok && 'fields' in sent) {
        setErrors(sent.fields);
        return setFormError('Check the fields marked below.');
      }
      if (!sent.ok) {
        if (sent.error.errors) setErrors(formErrors(sent.error.errors));
        return setFormError(errorText(sent.error));
      }
      toastInfo(submit ? 'Submitted. It syncs in the background.' : claim ? 'Saved. It syncs in the background.' : 'Draft saved. It syncs in the background.');
      void discardStored(values.receipt_ids);
      o.onSaved(id.current);
    } finally {
      setBusy(null);
    }
  }

  return {
    values, setValues, set, errors, formError, busy, duplicates, rates, currencies,
    /** Cancel: the receipts this form stored go again, then the form closes. */
    cancel() {
      void discardStored([]);
      o.onClose();
    },
    /** The receipts field stored these on the device for this form. */
    onStored(ids: readonly string[]) {
      ids.forEach((rid) => stored.current.add(rid));
    },
    onSubmit(e: FormEvent) {
      e.preventDefault();
      // Enter in a field submits with the first submit button: "Save draft", never a surprise submission.
      const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
      void save(submitter?.value === 'submit');
    },
  };
}
