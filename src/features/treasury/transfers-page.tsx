import { useEffect, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { currencyExponent } from '../../../schema/money.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { errorText } from '../../lib/error-text.ts';
import { formatLocalDateTime, formatMoney } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { useAnswer } from '../../lib/use-answer.ts';
import { refusalText } from './refusal-text.ts';
import { rememberSettings } from './treasury-cache.ts';
import { TransferDialog } from './transfer-dialog.tsx';
import { TransfersView } from './transfers-view.tsx';
import { TreasuryNav } from '../../components/treasury-nav.tsx';
import { readAtText, type StatusFilter, type TransferFormValues } from './treasury-words.ts';
import { useTreasuryMirror, type TransferRow } from './use-treasury.ts';
import './treasury.css';

/** A refused transfer's input, back in the form. */
const againValues = (t: TransferRow): TransferFormValues => {
  const exp = currencyExponent(t.currency);
  return { from: t.from_account_id, to: t.to_account_id, amount: (t.amount / 10 ** exp).toFixed(exp), memo: t.memo };
};

/**
 * Issue 30, /treasury/transfers (admins): the transfers from the mirror (offline too) filtered by
 * status; "New transfer" (preview, then "Send transfer", queued through the outbox); Cancel of a
 * PENDING one, asked first and queued the same way.
 */
const routeApi = getRouteApi('/_app/treasury/transfers');

export function TreasuryTransfersPage() {
  const m = useTreasuryMirror();
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const status: StatusFilter = search.status ?? 'all';
  const setStatus = (s: StatusFilter) => void navigate({ search: (prev) => ({ ...prev, status: s === 'all' ? undefined : s }), replace: true });
  const [dialog, setDialog] = useState<{ kind: 'new'; again?: { values: TransferFormValues; commandId: string } } | { kind: 'cancel'; transfer: TransferRow } | null>(null);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const readAt = readAtText(m.online, m.lastSyncedAt, formatLocalDateTime);
  const accounts = m.accounts ?? [];
  // The fee schedule, read while online, is what a transfer made offline later is estimated with.
  useEffect(() => {
    if (!m.online) return;
    void m.client.walletSettings().then((r) => r.ok && rememberSettings(r.settings), () => undefined);
  }, [m.client, m.online]);
  // A refused transfer's figures (the available amount, the new fee) live in its outbox entry's error.
  const failed = m.transfers.filter((t) => t.failure);
  const failedKey = failed.map((t) => t.failure!.command_id).join(',');
  const refusals = useAnswer(async () => {
    if (!failedKey) return {};
    const currency = new Map(failed.map((t) => [t.failure!.command_id, t.currency]));
    const entries = await m.client.outbox();
    return Object.fromEntries(entries.filter((e) => currency.has(e.id) && e.last_error).map((e) => [e.id, refusalText(e.last_error!, currency.get(e.id)!)]));
  }, [m.client, failedKey]);

  async function cancel(t: TransferRow): Promise<boolean> {
    const walletIds = new Set(accounts.map((a) => a.id));
    const walletId = walletIds.has(t.from_account_id) ? t.from_account_id : t.to_account_id;
    const r = await m.client.run('transfer.cancel', {
      transfer_id: t.id, wallet_account_id: walletId, from_account_id: t.from_account_id, to_account_id: t.to_account_id,
      amount: t.amount, fee: t.fee, canceled_at: new Date().toISOString(),
    });
    if (!r.ok) {
      setCancelError(errorText(r.error));
      return false;
    }
    toastInfo(m.online ? 'Cancel is being sent: the hold shows back in the account, and the list says so if the transfer settled first.' : 'Cancel saved on this device: it is sent once, when you’re back online.');
    return true;
  }

  return (
    <div className="page treasury">
      <TreasuryNav current="/treasury/transfers" />
      <div className="page-header">
        <h1>Transfers</h1>
        <span className="spacer" />
        {readAt && <p className="tr-stale" role="status">{readAt}</p>}
        <Button variant="primary" disabled={accounts.length === 0} onClick={() => setDialog({ kind: 'new' })}>New transfer</Button>
      </div>
      <TransfersView
        transfers={m.accounts === null ? null : m.transfers}
        downloading={m.downloading}
        status={status}
        onStatus={setStatus}
        onCancel={(transfer) => {
          setCancelError(null);
          setDialog({ kind: 'cancel', transfer });
        }}
        onAgain={(t) => setDialog({ kind: 'new', again: { values: againValues(t), commandId: t.failure!.command_id } })}
        onDiscard={(id) => void m.client.discardCommand(id)}
        onRetry={(id) => void m.client.retryCommand(id)}
        refusals={refusals}
      />
      {dialog?.kind === 'new' && (
        <TransferDialog client={m.client} online={m.online} accounts={accounts} again={dialog.again} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'cancel' && (
        <ConfirmDialog
          title="Cancel this transfer?"
          description={`The transfer of ${formatMoney(dialog.transfer.amount, dialog.transfer.currency)} ${dialog.transfer.currency} from ${dialog.transfer.from_name} to ${dialog.transfer.to_name} is canceled, and its hold of ${formatMoney(dialog.transfer.amount + dialog.transfer.fee, dialog.transfer.currency)} returns to ${dialog.transfer.from_name}.`}
          confirmLabel="Cancel transfer"
          cancelLabel="Keep the transfer"
          tone="danger"
          onClose={() => setDialog(null)}
          onConfirm={() => cancel(dialog.transfer)}
        >
          {!m.online && <p className="muted">You’re offline: the cancel is sent once when you’re back online. If the transfer settles first, it can no longer be canceled.</p>}
          <FormError message={cancelError} />
        </ConfirmDialog>
      )}
    </div>
  );
}
