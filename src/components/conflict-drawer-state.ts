import { useEffect, useMemo, useRef, useState } from 'react';
import { commandDef } from '../../schema/commands/index.ts';
import { fieldConflicts, type ConflictChoice } from '../../schema/commands/conflicts.ts';
import type { DataClient, OutboxEntry } from '../data-access/types.ts';
import { useAppState } from '../data-access/data-context.tsx';
import { conflictFieldViews, fieldLabel, type ConflictContext } from '../lib/conflict-view.ts';
import { formatMoney } from '../lib/format.ts';
import { useReferenceData } from '../lib/reference-data.ts';
import { toastError, toastInfo } from '../lib/toast-store.ts';

/** The row a change is about, as far as the drawer names it and reads its currency. */
interface RowSummary {
  what: string;
  currency?: string;
}

/**
 * The conflict drawer's state: the conflicted outbox entry (undefined while read, null once
 * resolved), the row it is about, each field's view and choice, and `resolve` (the worker's
 * `resolveConflict`, then a toast saying what happens next).
 */
export function useConflictReview(client: DataClient, entryId: string, onClose: () => void) {
  const dataVersion = useAppState((s) => s.dataVersion);
  const reference = useReferenceData(client, useAppState((s) => s.referenceVersion));
  const [entry, setEntry] = useState<OutboxEntry | null | undefined>(undefined);
  const [row, setRow] = useState<RowSummary | null>(null);
  const [choices, setChoices] = useState<Record<string, ConflictChoice>>({});
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let live = true;
    void client.outbox().then(async (all) => {
      const found = all.find((e) => e.id === entryId && e.state === 'conflict' && fieldConflicts(e.last_error)) ?? null;
      const summary = found ? await summarise(client, found) : null;
      if (!live) return;
      setEntry(found);
      setRow(summary);
    });
    return () => {
      live = false;
    };
  }, [client, entryId, dataVersion]);

  const details = entry ? fieldConflicts(entry.last_error) : null;
  const ctx: ConflictContext = useMemo(() => ({
    names: reference.names,
    ...(row?.currency ? { currency: row.currency } : {}),
    vendor: (id) => reference.data.vendors.find((v) => v.id === id)?.name,
    trackingCategory: (id) => reference.data.tracking_categories.find((c) => c.id === id)?.name,
  }), [reference, row]);
  const fields = useMemo(() => (details && entry ? conflictFieldViews(details.conflicts, ctx, entry.created_at) : []), [details, entry, ctx]);
  const others = useMemo(() => (entry && details ? otherFields(entry, details.conflicts.map((c) => c.field), ctx) : []), [entry, details, ctx]);
  const answered = fields.every((f) => choices[f.field] !== undefined);

  async function resolve(chosen: Record<string, ConflictChoice>) {
    if (!entry || !details || busy) return;
    setBusy(true);
    const result = await client.resolveConflict(entry.id, chosen);
    setBusy(false);
    if (!result.ok) {
      toastError(result.error.message);
      onClose();
      return;
    }
    const kept = details.conflicts.filter((c) => chosen[c.field] === 'mine').map((c) => fieldLabel(c.field, ctx).toLowerCase());
    toastInfo(result.queued === null
      ? 'Kept their version. Nothing of your change is left to send.'
      : kept.length > 0
        ? `Your ${kept.join(', ')} will be sent again on top of their change.`
        : 'Kept their version; your other changes will be sent.');
    onClose();
  }

  return { heading, entry, row, details, fields, others, choices, setChoices, answered, busy, resolve };
}

/** The refused patch's fields the server did not name: sent again whatever the choice. */
function otherFields(entry: OutboxEntry, named: readonly string[], ctx: ConflictContext): string[] {
  try {
    const def = commandDef(entry.command);
    const patch = def.edits?.patch(def.args.parse(entry.args)) ?? {};
    return Object.keys(patch)
      .filter((k) => patch[k] !== undefined && !named.some((f) => f === k || f.startsWith(`${k}.`)))
      .map((k) => fieldLabel(k, ctx));
  } catch {
    return [];
  }
}

/** Names the row (merchant and amount, claim, invoice, card) and reads its currency. */
async function summarise(client: DataClient, entry: OutboxEntry): Promise<RowSummary | null> {
  let collection: string;
  try {
    collection = commandDef(entry.command).collection;
  } catch {
    return null;
  }
  const id = entry.entity_ids[0];
  if (!id) return null;
  const read = client.get as (c: string, id: string) => Promise<Record<string, unknown> | null>;
  const row = await read(collection, id).catch(() => null);
  if (!row) return null;
  const currency = typeof row.currency === 'string' ? row.currency : undefined;
  const amount = typeof row.amount === 'number' && currency ? formatMoney(row.amount, currency) : null;
  const name = [row.merchant_name, row.merchant, row.invoice_number && `Invoice ${String(row.invoice_number)}`, row.display_name]
    .find((v) => typeof v === 'string' && v.length > 0) as string | undefined;
  const what = [name, amount].filter(Boolean).join(', ');
  return { what, ...(currency ? { currency } : {}) };
}
