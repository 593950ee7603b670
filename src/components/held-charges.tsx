import { startTransition, useEffect, useState } from 'react';
import { fraudReasonText, type FraudReason } from '../../schema/fraud-rules.ts';
import { isAdmin } from '../../schema/roles.ts';
import { useAppState, useDataClient } from '../data-access/data-context.tsx';
import type { DataClient, TransactionView } from '../data-access/types.ts';
import { useCard, type CardView } from '../lib/cards.ts';
import { errorText } from '../lib/error-text.ts';
import { formatDay, formatMoney, joinList } from '../lib/format.ts';
import { toastError, toastInfo } from '../lib/toast-store.ts';
import { Button } from './button.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { StatusPill } from './status-pill.tsx';

/**
 * Held card charges (issue 24): the rules (schema/fraud-rules.ts) held a charge and ask its
 * cardholder "Was this you?". The banner (Transactions and Cards pages) lists the signed-in
 * person's held charges; the transaction drawer shows the same prompt, or the answer given.
 * Answers are the `transaction.fraudResponse` command: optimistic, queued offline and sent before
 * anything else; "No" locks the card on this device at once and asks first, naming what happens.
 */

const cardWords = (card: CardView | null | undefined) => (card?.last_four ? `card •••• ${card.last_four}` : 'the card');
const reasonsText = (reasons: readonly FraudReason[] | undefined) =>
  reasons?.length ? joinList(reasons.map(fraudReasonText)) : null;

/** The signed-in person's held charges, newest first (mirror read, so offline too). */
function useHeldCharges(client: DataClient, userId: string | undefined, version: number): TransactionView[] {
  const [rows, setRows] = useState<TransactionView[]>([]);
  useEffect(() => {
    if (!userId) return;
    let live = true;
    client.queryTransactions({ filter: { held: true, user_ids: [userId] }, sort: 'occurred_desc', offset: 0, limit: 5 }).then(
      // A transition (issue 33): the banner above the list renders after input, yielding.
      (r) => live && startTransition(() => setRows(r.rows)),
      () => live && setRows([]),
    );
    return () => {
      live = false;
    };
  }, [client, userId, version]);
  return userId ? rows : [];
}

/** One transaction re-read as data changes (the answered charge's dispute arrives through the feed). */
function useTransaction(client: DataClient, id: string | null, version: number): TransactionView | null {
  const [row, setRow] = useState<TransactionView | null>(null);
  useEffect(() => {
    if (!id) return;
    let live = true;
    void client.getTransaction(id).then((t) => live && setRow(t));
    return () => {
      live = false;
    };
  }, [client, id, version]);
  return id ? row : null;
}

/** The pill a held or answered charge carries in lists and the drawer. */
export function HeldPill({ row }: { row: Pick<TransactionView, 'fraud_status'> }) {
  if (row.fraud_status === 'FLAGGED') return <StatusPill tone="danger" title="Held: the cardholder is asked whether they made it">Held</StatusPill>;
  if (row.fraud_status === 'NOT_RECOGNIZED') return <StatusPill tone="warn" title="The cardholder did not recognise it: disputed">Disputed</StatusPill>;
  return null;
}

interface PromptProps {
  tx: TransactionView;
  /** Called with the answer once it is queued. */
  onAnswered?(response: 'RECOGNIZED' | 'NOT_RECOGNIZED'): void;
  headingLevel?: 'h2' | 'h3';
}

/** "We held a suspicious charge … Was this you?" with both answers; "No" asks first. */
export function HeldChargePrompt({ tx, onAnswered, headingLevel = 'h2' }: PromptProps) {
  const client = useDataClient();
  const version = useAppState((s) => s.dataVersion);
  const card = useCard(client, tx.card_id, version);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const money = formatMoney(tx.amount, tx.currency);
  const Heading = headingLevel;
  const why = reasonsText(tx.fraud_reasons);

  async function answer(response: 'RECOGNIZED' | 'NOT_RECOGNIZED'): Promise<boolean> {
    setBusy(true);
    try {
      const result = await client.run('transaction.fraudResponse', { transaction_id: tx.id, response });
      if (!result.ok) {
        toastError(errorText(result.error));
        return false;
      }
      if (response === 'RECOGNIZED') toastInfo(`Thanks. The hold on ${money} at ${tx.merchant_name} is cleared, and ${cardWords(card)} will remember it.`);
      onAnswered?.(response);
      return true;
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="held-charge" data-testid="held-charge">
      <Heading className="held-title">
        We held a suspicious charge: {money} at {tx.merchant_name} — Was this you?
      </Heading>
      <p className="held-detail">
        {formatDay(tx.occurred_at)} · {cardWords(card)}{why ? ` · It stood out: ${why}.` : ''}
      </p>
      <div className="held-actions">
        <Button size="sm" disabled={busy} onClick={() => void answer('RECOGNIZED')}>Yes, it was me</Button>
        <Button size="sm" variant="danger" disabled={busy} onClick={() => setAsking(true)}>No, I don't recognise it</Button>
      </div>
      {asking && (
        <ConfirmDialog
          title="Don't recognise this charge?"
          description={`We'll lock ${cardWords(card)} now, open a dispute for ${money}, and you can order a replacement.`}
          confirmLabel="Lock card and dispute"
          tone="danger"
          onClose={() => setAsking(false)}
          onConfirm={() => answer('NOT_RECOGNIZED')}
        />
      )}
    </div>
  );
}

/** After "No": the card locked, the dispute, and the replacement, said as they are (offline too). */
export function DisputedCharge({ tx }: { tx: TransactionView }) {
  const client = useDataClient();
  const version = useAppState((s) => s.dataVersion);
  const online = useAppState((s) => s.online);
  const card = useCard(client, tx.card_id, version);
  const [replacing, setReplacing] = useState(false);
  const money = formatMoney(tx.amount, tx.currency);
  const locked = card?.status === 'LOCKED';
  const waiting = tx.pending !== null && tx.pending !== undefined;
  const replaced = !!card?.replaced_by_id || card?.status === 'TERMINATED';
  const canReplace = !!card && !replaced && (card.status === 'LOCKED' || card.status === 'ACTIVE');

  return (
    <div className="held-result" role="status" data-testid="disputed-charge">
      <p>
        <strong>{locked ? `${cardWords(card).replace(/^card/, 'Card')} is locked.` : replaced ? 'The card was replaced.' : 'You said you don\'t recognise this charge.'}</strong>{' '}
        {waiting
          ? online
            ? `Sending your answer now: the lock and a dispute for ${money} reach Ledgerline before anything else.`
            : `You're offline: the card shows locked on this device now. The lock and a dispute for ${money} reach Ledgerline first thing when you're back online.`
          : tx.dispute_id
            ? `We opened a dispute for ${money} at ${tx.merchant_name}.`
            : `Your answer reached Ledgerline; the dispute for ${money} is on its way to this device.`}
      </p>
      {canReplace && (
        <div className="held-actions">
          <Button size="sm" variant="primary" onClick={() => setReplacing(true)}>Replace card</Button>
        </div>
      )}
      {replaced && <p className="held-detail">A replacement card with a new number is in Cards.</p>}
      {replacing && card && (
        <ConfirmDialog
          title={`Replace ${cardWords(card)}?`}
          description="The card is closed for good and a new card with a new number, the same limit and the same settings is issued."
          confirmLabel="Replace card"
          onClose={() => setReplacing(false)}
          onConfirm={async () => {
            const result = await client.run('card.reissue', { card_id: card.id, successor_id: crypto.randomUUID() });
            if (!result.ok) {
              toastError(errorText(result.error));
              return false;
            }
            toastInfo(online ? 'Replacement ordered: the new card is in Cards.' : 'Replacement ordered on this device: it is sent when you are back online.');
            return true;
          }}
        />
      )}
    </div>
  );
}

/**
 * The banner on the Transactions and Cards pages: the signed-in person's held charges, and the
 * outcome of the one they just disowned (until they leave the page). Renders nothing otherwise.
 */
export function HeldChargesBanner() {
  const client = useDataClient();
  const version = useAppState((s) => s.dataVersion);
  const userId = useAppState((s) => s.session?.user.id);
  const held = useHeldCharges(client, userId, version);
  const [disowned, setDisowned] = useState<string | null>(null);
  const answered = useTransaction(client, disowned, version);
  if (held.length === 0 && !answered) return null;
  return (
    <section className="held-banner" aria-label="Suspicious charges">
      {held.map((tx) => (
        <HeldChargePrompt key={tx.id} tx={tx} onAnswered={(r) => r === 'NOT_RECOGNIZED' && setDisowned(tx.id)} />
      ))}
      {answered && answered.fraud_status === 'NOT_RECOGNIZED' && <DisputedCharge tx={answered} />}
    </section>
  );
}

/** The drawer's section: the prompt for the cardholder (or an admin on their behalf), or the answer given. */
export function HeldChargeSection({ tx }: { tx: TransactionView }) {
  const user = useAppState((s) => s.session?.user);
  if (!tx.fraud_status) return null;
  const mayAnswer = !!user && (user.id === tx.user_id || isAdmin(user));
  if (tx.fraud_status === 'FLAGGED') {
    return (
      <div className="held-banner held-in-drawer">
        {mayAnswer ? <HeldChargePrompt tx={tx} headingLevel="h3" /> : (
          <p className="held-detail">Held for review: the cardholder is asked whether they made this purchase.</p>
        )}
      </div>
    );
  }
  if (tx.fraud_status === 'NOT_RECOGNIZED') {
    return <div className="held-banner held-in-drawer">{mayAnswer ? <DisputedCharge tx={tx} /> : <p className="held-detail">Disputed: the cardholder did not recognise this charge.</p>}</div>;
  }
  return <p className="held-detail held-recognized">Held for review, then confirmed by the cardholder.</p>;
}
