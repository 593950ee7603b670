import { useMemo, useRef, useState } from 'react';
import type { SpendRequest, SpendRequestType } from '../../../schema/entities/spend-request.ts';
import type { SpendUser } from '../../../schema/entities/spend-user.ts';
import type { ReferenceData } from '../../../workers/api.ts';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { localDay } from '../../lib/bill-labels.ts';
import { currencyChoices } from '../../lib/currency-choices.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { useVendorChoices } from '../../lib/vendor-choices.ts';
import {
  budgetChoices, emptyLine, emptyRequestValues, requestCommand, requestErrors, requestForOptions, type RequestErrors, type RequestValues,
} from './request-form.ts';
import { requestPatch, requestValuesOf } from './request-edit.ts';

export interface RequestFormOptions {
  client: DataClient;
  viewer: SpendUser;
  currency: string;
  reference: ReferenceData;
  initialBudget?: string | undefined;
  /** A draft to edit: the form starts from it and saves with `spendRequest.update`. */
  editing?: SpendRequest | undefined;
  onCreated(id: string): void;
}

/**
 * The New request dialog's state: the values, the errors shown (what was touched before the first
 * submit, everything after it), the choices (whom for, budgets, vendors, currencies) and `save`
 * (the `spendRequest.create` command with the dialog's one client id, submitted or as a draft).
 * Editing a draft (`editing`), the values start from it and `save` runs `spendRequest.update`
 * with the fields changed (and `submit: true` to send it), offline too.
 */
export function useRequestForm({ client, viewer, currency, reference, initialBudget, editing, onCreated }: RequestFormOptions) {
  const online = useAppState((s) => s.online);
  const [values, setValues] = useState<RequestValues>(() =>
    editing ? requestValuesOf(editing, viewer.id)
      : emptyRequestValues(currency, initialBudget ? { spend_allocation_id: initialBudget, currency: budgetCurrency(reference, initialBudget) ?? currency } : {}),
  );
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [tried, setTried] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'submit' | 'draft' | null>(null);
  const id = useRef(editing?.id ?? crypto.randomUUID());
  const today = localDay();

  const forOptions = useMemo(() => requestForOptions(viewer, reference.users), [viewer, reference.users]);
  const forUser = editing ? editing.user_id : values.for_user_id || viewer.id;
  const budgets = useMemo(() => budgetChoices(reference.spend_allocations, forUser, today), [reference.spend_allocations, forUser, today]);
  const { vendorOptions } = useVendorChoices(reference.vendors, 'Unknown vendor');
  const currencies = useMemo(() => currencyChoices(currency, values.currency), [currency, values.currency]);
  const budget = budgets.find((b) => b.id === values.spend_allocation_id) ?? null;

  const all = useMemo(() => requestErrors(values, today), [values, today]);
  // Before the first submit only what was touched says what is wrong; after it, everything.
  const errors: RequestErrors = useMemo(() => {
    if (tried) return all;
    const shown: RequestErrors = {};
    for (const [k, v] of Object.entries(all)) if (touched.has(k.startsWith('lines.') ? 'lines' : k) || (k === 'line_items' && touched.has('lines'))) shown[k] = v;
    return shown;
  }, [all, tried, touched]);

  function set<K extends keyof RequestValues>(key: K, value: RequestValues[K]) {
    setValues((v) => ({ ...v, [key]: value }));
    setTouched((t) => new Set(t).add(key));
  }
  function chooseType(type: SpendRequestType) {
    setValues((v) => ({
      ...v, type,
      lines: type === 'PRODUCT_OR_SERVICE' && v.lines.length === 0 ? [emptyLine(crypto.randomUUID())] : v.lines,
      spend_allocation_id: type === 'GENERAL_EXPENSE' ? v.spend_allocation_id : '',
      interval: type === 'PHYSICAL_CARD' && v.interval === 'TOTAL' ? 'MONTHLY' : v.interval,
    }));
  }
  function chooseBudget(idValue: string) {
    const chosen = budgets.find((b) => b.id === idValue);
    setValues((v) => ({ ...v, spend_allocation_id: idValue, currency: chosen ? chosen.limit.currency : v.currency }));
    setTouched((t) => new Set(t).add('spend_allocation_id'));
  }

  async function save(submit: boolean) {
    if (editing) return saveEdit(editing, submit);
    setTried(true);
    setFormError(null);
    const built = requestCommand(values, id.current, submit, today);
    if (!built.ok) {
      setFormError('Check the fields marked below.');
      return;
    }
    setBusy(submit ? 'submit' : 'draft');
    try {
      const result = await client.run('spendRequest.create', built.input);
      if (!result.ok) {
        setFormError(errorText(result.error));
        return;
      }
      toastInfo(submit
        ? online ? 'Request sent for approval.' : 'Request saved on this device. It is sent for approval when you’re back online.'
        : 'Draft saved.');
      onCreated(id.current);
    } finally {
      setBusy(null);
    }
  }

  /** The draft's changed fields (and the submit) as one `spendRequest.update`; nothing to save closes the form. */
  async function saveEdit(row: SpendRequest, submit: boolean) {
    setTried(true);
    setFormError(null);
    const built = requestPatch(values, row, submit, today);
    if (!built.ok) {
      setFormError('Check the fields marked below.');
      return;
    }
    if (!built.changed && !submit) {
      toastInfo('Nothing changed: the draft is as it was.');
      onCreated(row.id);
      return;
    }
    setBusy(submit ? 'submit' : 'draft');
    try {
      const result = await client.run('spendRequest.update', { spend_request_id: row.id, patch: built.patch });
      if (!result.ok) {
        setFormError(errorText(result.error));
        return;
      }
      toastInfo(submit
        ? online ? 'Request sent for approval.' : 'Request saved on this device. It is sent for approval when you’re back online.'
        : online ? 'Draft saved.' : 'Draft saved on this device. It syncs when you’re back online.');
      onCreated(row.id);
    } finally {
      setBusy(null);
    }
  }

  return {
    online, values, errors, formError, busy, today, forOptions, budgets, vendorOptions, currencies, budget, initialBudget,
    set, setValues, chooseType, chooseBudget, save,
  };
}

function budgetCurrency(reference: ReferenceData, id: string): string | undefined {
  return reference.spend_allocations.find((a) => a.id === id)?.limit.currency;
}
