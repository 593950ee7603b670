import { useId } from 'react';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { formatDay, formatMoney } from '../../lib/format.ts';
import { filterTransfers, STATUS_FILTERS, STATUS_LABELS, STATUS_TONES, type StatusFilter } from './treasury-words.ts';
import type { TransferRow } from './use-treasury.ts';

export interface TransfersViewProps {
  transfers: TransferRow[] | null;
  downloading: boolean;
  status: StatusFilter;
  onStatus(status: StatusFilter): void;
  onCancel(t: TransferRow): void;
  /** A refused create: open the form with its input again. */
  onAgain(t: TransferRow): void;
  onDiscard(commandId: string): void;
  onRetry(commandId: string): void;
  /** A refusal's words with the server's figures (from its outbox entry), by command id; else the row's message. */
  refusals?: Readonly<Record<string, string>> | null;
}

const FILTER_LABELS: Record<StatusFilter, string> = { all: 'All', ...STATUS_LABELS };

/** A transfer the server refused before it ever stored it (made on this device, never confirmed). */
export const refusedCreate = (t: TransferRow) => t.failure != null && t.change_seq === 0;

/**
 * The transfers from the mirror (offline too), newest first, filtered by status: the accounts,
 * amount and fee with their currency, the state, the settlement date, the outbox mark, Cancel for a
 * PENDING one (asked first by the page), and a refused one in the server's words with "Change and
 * send again" / Discard.
 */
export function TransfersView({ transfers, downloading, status, onStatus, onCancel, onAgain, onDiscard, onRetry, refusals }: TransfersViewProps) {
  const filterId = useId();
  const rows = transfers ? filterTransfers(transfers, status) : [];
  return (
    <>
      <div className="tr-toolbar">
        <label className="filter" htmlFor={filterId}>
          <span className="filter-label">Status</span>
          <select id={filterId} value={status} onChange={(e) => onStatus(e.target.value as StatusFilter)}>
            {STATUS_FILTERS.map((s) => <option key={s} value={s}>{FILTER_LABELS[s]}</option>)}
          </select>
        </label>
        {transfers && <p className="muted" role="status">{rows.length === 1 ? '1 transfer' : `${rows.length} transfers`}</p>}
      </div>
      {transfers === null ? (
        <div aria-busy="true"><span className="sr-only">Loading transfers…</span><Skeleton height={72} /><Skeleton height={72} /></div>
      ) : rows.length === 0 ? (
        transfers.length === 0 ? (
          <EmptyState title={downloading ? 'Downloading your transfers' : 'No transfers yet'}>
            <p>{downloading ? 'Transfers are still downloading to this device; they show here as they arrive.' : 'Money moved between your accounts, or to and from a linked bank account, shows here.'}</p>
          </EmptyState>
        ) : (
          <EmptyState title={`No ${FILTER_LABELS[status].toLowerCase()} transfers`} action={<Button onClick={() => onStatus('all')}>Show all transfers</Button>} />
        )
      ) : (
        <ul className="tr-transfers" aria-label="Transfers">
          {rows.map((t) => {
            const what = `${formatMoney(t.amount, t.currency)} ${t.currency} from ${t.from_name} to ${t.to_name}`;
            return (
              <li key={t.id} className="tr-transfer">
                <div className="tr-transfer-main">
                  <p className="tr-transfer-route"><strong>{t.from_name}</strong> <span aria-hidden="true">→</span><span className="sr-only"> to </span> <strong>{t.to_name}</strong></p>
                  <p className="tr-transfer-amount">{formatMoney(t.amount, t.currency)} <span className="tr-currency">{t.currency}</span></p>
                </div>
                <p className="tr-transfer-meta muted">
                  Fee {formatMoney(t.fee, t.currency)} {t.currency}
                  {' · '}{t.status === 'SETTLED' && t.settled_at ? `Settled ${formatDay(t.settled_at)}` : `Settles ${formatDay(t.expected_settlement_date)}`}
                  {t.automation_policy_id && ' · By an automation'}
                  {t.memo && <> · {t.memo}</>}
                </p>
                <div className="tr-transfer-marks">
                  {/* A create the server refused never became a transfer: only its sync mark says what it is. */}
                  {!refusedCreate(t) && <StatusPill tone={STATUS_TONES[t.status]} title={t.failure_reason ?? undefined}>{STATUS_LABELS[t.status]}</StatusPill>}
                  <SyncMark row={{ pending: t.pending ?? null, failure: t.failure ?? null }} />
                  {t.status === 'PENDING' && !t.failure && (
                    <Button size="sm" variant="ghost" onClick={() => onCancel(t)}>Cancel transfer<span className="sr-only"> of {what}</span></Button>
                  )}
                </div>
                {t.status === 'FAILED' && t.failure_reason && <p className="tr-transfer-failed">Failed: {t.failure_reason}</p>}
                {t.failure && (
                  <div className="notice notice-error" role="alert">
                    <span><strong>The server refused this transfer:</strong> {refusals?.[t.failure.command_id] ?? t.failure.message}</span>
                    <div className="row-actions">
                      {refusedCreate(t)
                        ? <Button size="sm" onClick={() => onAgain(t)}>Change and send again<span className="sr-only">: {what}</span></Button>
                        : <Button size="sm" onClick={() => onRetry(t.failure!.command_id)}>Retry<span className="sr-only">: {what}</span></Button>}
                      <Button size="sm" variant="ghost" onClick={() => onDiscard(t.failure!.command_id)}>Discard<span className="sr-only">: {what}</span></Button>
                    </div>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
