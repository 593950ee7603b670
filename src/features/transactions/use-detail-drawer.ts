import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { suggestCoding } from '../../../schema/mapping-rules.ts';
import type { DataClient, TransactionView } from '../../data-access/types.ts';
import { useCard } from '../../lib/cards.ts';
import { useTransactionReceipts } from '../../lib/receipts.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { drawerPatch, valuesOf, type DrawerValues } from './drawer-form.ts';
import type { ReferenceView } from './use-reference-data.ts';

/**
 * The detail drawer's state: the transaction (re-read on every data version), its form (replaced
 * by a sync update only while the person has not started editing), saving, the receipts, the
 * card, whether the coding is locked (issue 12: exported) and the mapping rule's suggestion.
 */
export function useDetailDrawer(client: DataClient, id: string, reference: ReferenceView, dataVersion: number, canCode: boolean) {
  const [txn, setTxn] = useState<TransactionView | null | undefined>(undefined);
  const [form, setForm] = useState<DrawerValues | null>(null);
  const [saving, setSaving] = useState(false);
  const dirty = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    dirty.current = false;
    heading.current?.focus();
  }, [id]);

  useEffect(() => {
    let live = true;
    void client.getTransaction(id).then((t) => {
      if (!live) return;
      setTxn(t);
      if (t && !dirty.current) setForm(valuesOf(t));
    });
    return () => {
      live = false;
    };
  }, [client, id, dataVersion]);

  const edit = useCallback((patch: Partial<DrawerValues>) => {
    dirty.current = true;
    setForm((f) => (f ? { ...f, ...patch } : f));
  }, []);

  const reset = () => {
    dirty.current = false;
    if (txn) setForm(valuesOf(txn));
  };

  async function save(e: FormEvent) {
    e.preventDefault();
    const patch = txn && form ? drawerPatch(txn, form) : null;
    if (!txn || !patch) return;
    setSaving(true);
    try {
      const result = await client.run('transaction.code', { transaction_id: txn.id, patch });
      if (!result.ok) return toastError(result.error.message);
      dirty.current = false;
      toastInfo('Saved. It syncs in the background.');
    } finally {
      setSaving(false);
    }
  }

  const receipts = useTransactionReceipts(client, txn ?? null, dataVersion);
  // Cards are mirrored rows (issue 10), not reference data: read the card itself.
  const card = useCard(client, txn?.card_id, dataVersion);
  const changed = txn && form ? drawerPatch(txn, form) !== null : false;
  // Issue 12: exported to accounting, the coding is locked until the row is marked not synced.
  const locked = !!txn?.accounting_synced_at;
  // Issue 12: an uncoded transaction gets the first matching mapping rule's coding as a suggestion
  // (the rules are mirrored: offline too); nothing changes until the person applies and saves it.
  // Issue 29: a dismissed suggestion (`coding_suggestion_dismissed_at`, mirrored) is not shown again.
  const suggestion = txn && form && canCode && !locked && txn.gl_account_id === null && form.gl_account_id === null && !txn.coding_suggestion_dismissed_at
    ? suggestCoding(reference.data.mapping_rules, { merchant_name: txn.merchant_name, merchant_category: txn.merchant_category })
    : null;
  /** Issue 29: "Dismiss suggestion", offline too (the outbox sends it); the note goes at once. */
  async function dismissSuggestion() {
    if (!txn) return;
    const result = await client.run('transaction.dismissSuggestion', { transaction_id: txn.id });
    if (!result.ok) return toastError(result.error.message);
    toastInfo('Suggestion dismissed. It won’t be suggested for this transaction again.');
  }
  return { txn, form, saving, heading, edit, reset, save, receipts, card, changed, locked, suggestion, dismissSuggestion };
}
