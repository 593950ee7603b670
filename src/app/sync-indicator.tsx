import { useEffect, useRef, useState } from 'react';
import { useAppState, useDataClient } from '../data-access/data-context.tsx';
import type { DataClient, OutboxEntry } from '../data-access/types.ts';
import { formatCount, formatLocalDateTime, formatMoney } from '../lib/format.ts';
import { syncStatusView, waitingChanges, waitingText } from '../lib/sync-status-text.ts';
import { toastError } from '../lib/toast-store.ts';
import { claimDescription } from '../lib/claim-labels.ts';
import { cardName, cardRequestDescription } from '../lib/card-labels.ts';
import { commandWords } from '../lib/command-words.ts';
import type { commandDef as commandDefType } from '../../schema/commands/index.ts';
import type { Bill } from '../../schema/entities/bill.ts';
import type { Reimbursement } from '../../schema/entities/reimbursement.ts';
import type { DataApi } from '../../workers/api.ts';
import { openConflict, REVIEW_CHANGES } from '../lib/conflict-store.ts';
import { syncShortText } from './sync-short-text.ts';

/** A change the server refused with field-level details (409 CONFLICT): the conflict drawer resolves it. */
const isFieldConflict = (e: OutboxEntry): boolean => e.state === 'conflict' && e.last_error?.error_code === 'CONFLICT';

/**
 * The sync indicator: role status holding only its label (src/lib/sync-status-text.ts; tests
 * wait for these words), the why / what-to-do beside it, and the refused changes with the
 * transaction they concern, their server messages and Retry / Discard.
 */
export function SyncIndicator() {
  const status = useAppState((s) => s.status);
  const online = useAppState((s) => s.online);
  const view = syncStatusView(status, online);
  const attention = (status?.failed ?? 0) + (status?.needsStepUp ?? 0);
  const waiting = waitingChanges(status);
  useToastOnNewFailure(status?.failed ?? 0);

  return (
    <div className="sync" data-sync-state={view.state} title={view.detail ?? undefined}>
      <span className={`sync-dot sync-${view.tone}`} aria-hidden="true" />
      <span role="status" className="sync-text" aria-describedby="sync-detail">
        {view.label}
      </span>
      {/* A phone's top bar has room for a few words only: these show there instead of the label
          above (laid over them, still read and found by tests), the waiting count included. */}
      <span className="sync-short" aria-hidden="true">
        {syncShortText(view, waiting)}
      </span>
      {/* Offline, the indicator says just "Offline"; the waiting edits are counted beside it. */}
      {view.state === 'offline' && waiting > 0 && <span className="sync-waiting">{waitingText(waiting)}</span>}
      {/* Why and what to do: visible when something is wrong, otherwise for assistive tech (and the title). */}
      <span id="sync-detail" className={view.tone === 'error' ? 'sync-detail' : 'sr-only'}>
        {view.detail ?? ''}
      </span>
      {attention > 0 && <FailedChanges count={attention} />}
    </div>
  );
}

/** A newly refused change announces the server's message once, as a destructive toast. */
function useToastOnNewFailure(failed: number) {
  const client = useDataClient();
  const previous = useRef(failed);
  useEffect(() => {
    const before = previous.current;
    previous.current = failed;
    if (failed <= before) return;
    void client.outbox().then((entries) => {
      const newest = entries
        .filter((e) => e.state === 'failed' || e.state === 'conflict')
        .sort((a, b) => b.created_at - a.created_at)[0];
      toastError(newest?.last_error?.message ?? 'A change was refused by the server.');
    });
  }, [failed, client]);
}

function FailedChanges({ count }: { count: number }) {
  const client = useDataClient();
  const dataVersion = useAppState((s) => s.dataVersion);
  const statusVersion = useAppState((s) => s.status);
  const [open, setOpen] = useState(false);
  const [entries, setEntries] = useState<Described[]>([]);

  useEffect(() => {
    if (!open) return;
    let live = true;
    void client.outbox().then(async (all) => {
      const refused = all.filter((e) => e.state === 'failed' || e.state === 'conflict' || e.state === 'needs_step_up');
      const described = await Promise.all(refused.map((e) => describe(client, e)));
      if (live) setEntries(described);
    });
    return () => {
      live = false;
    };
  }, [open, client, dataVersion, statusVersion]);

  return (
    <div className="popover-anchor">
      <button
        type="button"
        className="btn btn-danger-soft btn-sm"
        aria-expanded={open}
        aria-controls="failed-changes"
        onClick={() => setOpen((o) => !o)}
      >
        {count} failed
      </button>
      {open && (
        <div id="failed-changes" className="popover" role="region" aria-label="Failed changes">
          <h2 className="popover-title">Changes the server refused</h2>
          {entries.length === 0 && <p className="muted">Nothing to review.</p>}
          <ul className="failed-list">
            {entries.map(({ entry: e, what }) => (
              <li key={e.id}>
                <div className="failed-what">
                  {what}
                  <span className="muted"> · {formatLocalDateTime(e.created_at)}</span>
                </div>
                <div className="failed-reason">
                  {e.state === 'needs_step_up'
                    ? 'Additional verification is needed for this action.'
                    : (e.last_error?.message ?? 'Refused by the server.')}
                </div>
                <div className="failed-todo muted">{todo(e)}</div>
                <div className="row-actions">
                  {isFieldConflict(e) ? (
                    <button type="button" className="btn btn-sm" onClick={() => { setOpen(false); openConflict(e.id); }}>
                      {REVIEW_CHANGES}
                    </button>
                  ) : (
                    <button type="button" className="btn btn-sm" onClick={() => void client.retryCommand(e.id)}>
                      Retry
                    </button>
                  )}
                  <button type="button" className="btn btn-sm btn-ghost" onClick={() => void client.discardCommand(e.id)}>
                    Discard
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

type Described = { entry: OutboxEntry; what: string };

/**
 * Names what a refused change was about: the command's words (lib/command-words.ts) and the row
 * it concerns, by the collection its definition names — the transaction's merchant and amount, the
 * claim's description and amount (an approval's: its claim's or its card request's), the card's
 * name, the card request's card and limit.
 */
async function describe(client: DataClient, e: OutboxEntry): Promise<Described> {
  const words = commandWords(e.command);
  // The catalogue (every command's schema and apply, the call catalogue, immer) is needed only
  // once a change is refused: loaded then, it stays out of the first load (bench main_js_gzip_kb).
  const { commandDef } = await import('../../schema/commands/index.ts');
  // A file upload names no row (the receipt is kept on this device until it is removed).
  if (isUpload(commandDef, e.command)) return { entry: e, what: words };
  const collection = commandCollection(commandDef, e.command);
  const n = e.entity_ids.length;
  const first = e.entity_ids[0];
  const cards = await describeCards(client, e, collection, words);
  if (cards) return { entry: e, what: cards };
  if (collection === 'transactions' && n === 1 && first) {
    const txn = await client.getTransaction(first).catch(() => null);
    if (txn) return { entry: e, what: `${words} ${txn.merchant_name}, ${formatMoney(txn.amount, txn.currency)}` };
  }
  if ((collection === 'reimbursements' || collection === 'approvals') && first) {
    // An approval command stores the claim's id after the approval's (its `also` rows).
    const claimId = collection === 'approvals' ? e.entity_ids[1] : first;
    const claim = claimId ? ((await client.get('reimbursements', claimId).catch(() => null)) as Reimbursement | null) : null;
    if (!claim) return { entry: e, what: words === 'New claim' ? words : `${words} a claim` };
    const which = `${claimDescription(claim)}, ${formatMoney(claim.amount, claim.currency)}`;
    return { entry: e, what: words === 'New claim' ? `New claim: ${which}` : `${words} the claim ${which}` };
  }
  if (collection === 'bills' && first) {
    const bill = (await client.get('bills', first).catch(() => null)) as Bill | null;
    if (bill) {
      const which = `invoice ${bill.invoice_number}, ${formatMoney(bill.amount, bill.currency)}`;
      return { entry: e, what: words === 'New bill' ? `New bill: ${which}` : `${words} ${which}` };
    }
  }
  const [one, many] = NOUNS[collection as keyof typeof NOUNS] ?? NOUNS.transactions;
  const what = n === 1 ? `1 ${one}` : `${formatCount(n)} ${many}`;
  return { entry: e, what: `${words} ${what}` };
}

/** What a change names when its row cannot be read (gone, or not on this device). */
const NOUNS = {
  transactions: ['transaction', 'transactions'],
  bills: ['bill', 'bills'],
  provisional_bills: ['inbox invoice', 'inbox invoices'],
  wallet_transfers: ['transfer', 'transfers'],
} as const;

/**
 * Card commands, card requests, and approvals of card requests (whose `also` row, stored after the
 * approval's id, is the request); null for anything else.
 */
async function describeCards(client: DataClient, e: OutboxEntry, collection: string | null, words: string): Promise<string | null> {
  const read = client.get as DataApi['get'];
  const [first, second] = e.entity_ids;
  if (!first) return null;
  let requestId: string | undefined;
  if (collection === 'card_requests') requestId = first;
  else if (collection === 'approvals') {
    const approval = await read('approvals', first).catch(() => null);
    if (approval?.object_type !== 'card_request') return null;
    requestId = second;
  }
  if (requestId !== undefined) {
    const request = await read('card_requests', requestId).catch(() => null);
    const which = request ? cardRequestDescription(request) : null;
    if (words === 'Card request' || words === 'Physical card request') return which ? `${words}: ${which}` : words;
    return which ? `${words} the card request ${which}` : `${words} a card request`;
  }
  if (collection !== 'cards') return null;
  // setPrimary names the previous primary after the chosen card: the change is about the first.
  const n = e.command === 'card.setPrimary' ? 1 : e.entity_ids.length;
  if (n > 1) return `${words} ${formatCount(n)} cards`;
  const card = await read('cards', first).catch(() => null);
  return card ? `${words} the card ${cardName(card)}` : `${words} a card`;
}

/** What the user can do about it. */
function todo(e: OutboxEntry): string {
  if (e.state === 'needs_step_up') return 'Verify it is you, then retry; or discard the change.';
  if (isFieldConflict(e)) return 'Someone else changed the same field meanwhile: review the changes and choose which version to keep.';
  if (e.state === 'conflict') return 'It clashed with the server’s current state: retry it, or discard it to keep the server’s version.';
  return 'Fix what the message says and retry, or discard the change to keep the server’s version.';
}

type CommandDefOf = typeof commandDefType;

function commandCollection(commandDef: CommandDefOf, name: string): string | null {
  try {
    return commandDef(name).collection;
  } catch {
    return null; // a command of a newer build: described by its name
  }
}

function isUpload(commandDef: CommandDefOf, name: string): boolean {
  try {
    return commandDef(name).file !== undefined;
  } catch {
    return false;
  }
}
