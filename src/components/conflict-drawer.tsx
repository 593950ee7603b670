import { useEffect, useMemo, useRef, useState } from 'react';
import { commandDef } from '../../schema/commands/index.ts';
import { allChoices, fieldConflicts, type ConflictChoice } from '../../schema/commands/conflicts.ts';
import type { DataClient, OutboxEntry } from '../data-access/types.ts';
import { useAppState } from '../data-access/data-context.tsx';
import { conflictFieldViews, fieldLabel, type ConflictContext } from '../lib/conflict-view.ts';
import { formatMoney } from '../lib/format.ts';
import { useReferenceData } from '../lib/reference-data.ts';
import { toastError, toastInfo } from '../lib/toast-store.ts';
import { Button } from './button.tsx';
import { Drawer } from './drawer.tsx';

export interface ConflictDrawerProps {
  client: DataClient;
  /** The conflicted outbox entry's id. */
  entryId: string;
  onClose(): void;
}

/** The row a change is about, as far as the drawer names it and reads its currency. */
interface RowSummary {
  what: string;
  currency?: string;
}

/**
 * Issue 24: the conflict drawer. For each field the server named in its 409 CONFLICT: what
 * happened (who changed it, when, and whether that was while this change waited to sync),
 * "Theirs" and "Mine" written as the app shows that field, and Keep mine / Keep theirs; "Keep
 * all mine" and "Keep all theirs" answer every field at once. The choice goes to the worker's
 * `resolveConflict`: one new command for what is kept as mine (and the fields the server did not
 * name), nothing for theirs; the conflicted change is resolved once. A modal drawer (focus
 * trapped, Escape closes), a full-screen sheet on phones.
 */
export function ConflictDrawer({ client, entryId, onClose }: ConflictDrawerProps) {
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

  return (
    <div className="conflict-layer">
      <Drawer title="Review changes" titleRef={heading} closeLabel="Close review" onClose={onClose}>
        {entry === undefined && <div className="drawer-body muted">Loading…</div>}
        {entry === null && (
          <div className="drawer-body">
            <p>This change was already resolved.</p>
            <Button onClick={onClose}>Close</Button>
          </div>
        )}
        {entry && details && (
          <div className="drawer-body conflict-body">
            {row && <p className="conflict-what">{row.what}</p>}
            <p>
              Someone else changed {fields.length === 1 ? 'this field' : 'these fields'} after your copy was made, so nothing of
              your change was saved. Choose which version to keep.
            </p>
            {fields.map((f) => (
              <fieldset key={f.field} className="conflict-field">
                <legend>{f.label}</legend>
                <p className="conflict-sentence">{f.sentence}</p>
                <label className={`conflict-option${choices[f.field] === 'theirs' ? ' is-chosen' : ''}`}>
                  <input
                    type="radio"
                    name={`conflict-${f.field}`}
                    checked={choices[f.field] === 'theirs'}
                    onChange={() => setChoices((c) => ({ ...c, [f.field]: 'theirs' }))}
                  />
                  <span className="conflict-option-text">
                    <span className="conflict-option-title">Keep theirs</span>
                    <span className="conflict-meta">{f.who}{f.when ? `, ${f.when}` : ''}</span>
                    <span className="conflict-value">{f.theirs}</span>
                  </span>
                </label>
                <label className={`conflict-option${choices[f.field] === 'mine' ? ' is-chosen' : ''}`}>
                  <input
                    type="radio"
                    name={`conflict-${f.field}`}
                    checked={choices[f.field] === 'mine'}
                    onChange={() => setChoices((c) => ({ ...c, [f.field]: 'mine' }))}
                  />
                  <span className="conflict-option-text">
                    <span className="conflict-option-title">Keep mine</span>
                    <span className="conflict-meta">You, on this device</span>
                    <span className="conflict-value">{f.mine}</span>
                  </span>
                </label>
              </fieldset>
            ))}
            {others.length > 0 && (
              <p className="muted">
                Your other {others.length === 1 ? 'change' : 'changes'} ({others.join(', ')}) did not conflict and will be sent with your
                choice.
              </p>
            )}
            <div className="drawer-actions conflict-actions">
              <Button variant="secondary" disabled={busy} onClick={() => void resolve(allChoices(details.conflicts, 'theirs'))}>
                Keep all theirs
              </Button>
              <Button variant="secondary" disabled={busy} onClick={() => void resolve(allChoices(details.conflicts, 'mine'))}>
                Keep all mine
              </Button>
              <Button variant="primary" disabled={busy || !answered} loading={busy} onClick={() => void resolve(choices)}>
                Apply choices
              </Button>
            </div>
          </div>
        )}
      </Drawer>
    </div>
  );
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
