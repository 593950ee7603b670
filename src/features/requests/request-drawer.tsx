import { useEffect, useRef, useState } from 'react';
import type { SpendUser } from '../../../schema/entities/spend-user.ts';
import { checkSpendRequestAction } from '../../../schema/procurement-rules.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Drawer } from '../../components/drawer.tsx';
import { LazyCommentThread } from '../../components/lazy-comment-thread.tsx';
import { Facts, syncFact, type Fact } from '../../components/facts.tsx';
import { RefusedChange } from '../../components/refused-change.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { formatClaimDate } from '../../lib/claim-labels.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { collectionReads } from '../../lib/list/collection-reads.ts';
import {
  approvalOutcomeText, REQUEST_STATUS_LABELS, REQUEST_STATUS_TONES, REQUEST_TYPE_LABELS, requestAmountText, requestOutcome, requestTimeline,
} from '../../lib/spend-request-labels.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { INTERVAL_WORDS } from '../../lib/card-labels.ts';
import { LineItemsTable } from '../../components/request-line-items.tsx';
import { OutcomeLink } from './outcome-link.tsx';
import { RequestDocuments } from './request-documents.tsx';
import type { RequestListNames, RequestRow } from './requests-list.tsx';

export interface RequestDrawerProps {
  id: string;
  client: DataClient;
  viewer: SpendUser;
  names: RequestListNames;
  version: number;
  /** "Edit" on a draft: the page opens the request form on it. */
  onEdit?(row: RequestRow): void;
  onClose(): void;
  returnFocus(): HTMLElement | null | undefined;
}

type Confirm = 'cancel' | 'delete' | null;

/**
 * One request: amount, status and sync mark, who it is for and who asked, what it is (vendor and
 * lines, budget, interval), what came of it (a link), what approving will do while it waits, the
 * rejection reason, the timeline, its documents; and for the requester Edit draft (the request
 * form, prefilled: `onEdit`), Submit (a draft), Cancel
 * (draft or pending, confirmed) and Delete (a draft, or what never took effect), each a command
 * that works offline. Non-modal: the list beside it stays live.
 */
export function RequestDrawer({ id, client, viewer, names, version, onEdit, onClose, returnFocus }: RequestDrawerProps) {
  const [row, setRow] = useState<RequestRow | null | undefined>(undefined);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [busy, setBusy] = useState(false);
  const online = useAppState((s) => s.online);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    heading.current?.focus();
  }, [id]);
  useEffect(() => {
    let live = true;
    void collectionReads(client).get('spend_requests', id).then((r) => {
      if (live) setRow(r);
    });
    return () => {
      live = false;
    };
  }, [client, id, version]);

  const title = row ? `${REQUEST_TYPE_LABELS[row.type]} · ${requestAmountText(row)}` : row === null ? 'Request not found' : 'Request';
  const mine = row ? row.user_id === viewer.id || row.requested_by === viewer.id : false;
  const may = (action: 'edit' | 'submit' | 'cancel' | 'delete') => !!row && mine && checkSpendRequestAction(action, row.status).ok;

  async function command(run: () => Promise<{ ok: boolean; error?: { error_code?: string; message?: string } }>, done: string): Promise<boolean> {
    setBusy(true);
    try {
      const result = await run();
      if (!result.ok) {
        toastError(errorText(result.error));
        return false;
      }
      toastInfo(online ? done : `${done} It syncs when you’re back online.`);
      return true;
    } finally {
      setBusy(false);
    }
  }

  return (
    <Drawer title={title} titleRef={heading} closeLabel="Close request" modal={false} onClose={onClose} returnFocus={returnFocus}>
      {row === null && <p className="muted drawer-body">This request is not on this device (it may have been deleted).</p>}
      {row && (
        <div className="drawer-body request-detail">
          <div className="drawer-amount">{requestAmountText(row)}</div>
          <div className="marks">
            <StatusPill tone={REQUEST_STATUS_TONES[row.status]}>{REQUEST_STATUS_LABELS[row.status]}</StatusPill>
            <SyncMark row={row} />
          </div>
          <RefusedChange row={row} client={client} />
          {row.status === 'REJECTED' && (
            <div className="notice notice-error" role="note">
              <strong>Rejected.</strong> {row.rejection_reason ? `Reason: ${row.rejection_reason}` : 'No reason was given.'}
            </div>
          )}
          {row.status === 'PENDING_APPROVAL' && <p className="notice request-next" role="note">{approvalOutcomeText(row, names)}</p>}
          <RequestFacts row={row} names={names} />
          {row.type === 'PRODUCT_OR_SERVICE' && row.line_items.length > 0 && (
            <LineItemsTable lines={row.line_items} currency={row.amount.currency} caption="Line items" />
          )}
          <section aria-labelledby={`${row.id}-timeline`}>
            <h3 id={`${row.id}-timeline`} className="claim-section-title">Timeline</h3>
            <ol className="request-timeline">
              {requestTimeline(row).map((s) => (
                <li key={s.key} className={`timeline-step timeline-${s.key}`}>
                  <span className="timeline-label">{s.label}</span>{' '}
                  <time className="muted" dateTime={s.at}>{formatLocalDateTime(s.at)}</time>
                </li>
              ))}
            </ol>
          </section>
          <RequestDocuments request={row} client={client} online={online} mayAttach={mine && checkSpendRequestAction('attach', row.status).ok} />
          {(may('submit') || may('cancel') || may('delete')) && (
            <div className="drawer-actions">
              {onEdit && may('edit') && <Button variant="secondary" disabled={busy} onClick={() => onEdit(row)}>Edit draft</Button>}
              {may('submit') && (
                <Button variant="primary" loading={busy} onClick={() => void command(
                  () => client.run('spendRequest.update', { spend_request_id: row.id, patch: { submit: true } }), 'Request sent for approval.',
                )}>
                  Submit for approval
                </Button>
              )}
              {may('cancel') && <Button variant="secondary" disabled={busy} onClick={() => setConfirm('cancel')}>Cancel request</Button>}
              {may('delete') && <Button variant="danger" disabled={busy} onClick={() => setConfirm('delete')}>{row.status === 'DRAFT' ? 'Delete draft' : 'Delete'}</Button>}
            </div>
          )}
          <LazyCommentThread subjectType="spend_request" subjectId={row.id} />
        </div>
      )}
      {row && confirm === 'cancel' && (
        <ConfirmDialog
          title="Cancel this request?"
          description={row.status === 'PENDING_APPROVAL' ? 'It is withdrawn from review: nothing is issued. You can make a new request later.' : 'The draft is canceled: nothing is sent for approval.'}
          confirmLabel="Cancel request"
          cancelLabel="Keep request"
          tone="danger"
          onClose={() => setConfirm(null)}
          onConfirm={() => command(() => client.run('spendRequest.cancel', { spend_request_id: row.id }), 'Request canceled.')}
        />
      )}
      {row && confirm === 'delete' && (
        <ConfirmDialog
          title={row.status === 'DRAFT' ? 'Delete this draft?' : 'Delete this request?'}
          description="It is removed from your requests. This cannot be undone."
          confirmLabel="Delete"
          cancelLabel="Keep it"
          tone="danger"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            const ok = await command(() => client.run('spendRequest.delete', { spend_request_id: row.id }), 'Request deleted.');
            if (ok) onClose();
            return ok;
          }}
        />
      )}
    </Drawer>
  );
}

function RequestFacts({ row, names }: { row: RequestRow; names: RequestListNames }) {
  const outcome = requestOutcome(row, names);
  const rows: Fact[] = [
    ['Type', REQUEST_TYPE_LABELS[row.type]],
    ['For', names.user(row.user_id) || '—'],
    ...(row.requested_by !== row.user_id ? [['Requested by', names.user(row.requested_by) || '—'] as Fact] : []),
    ...(row.type === 'PRODUCT_OR_SERVICE' ? [['Vendor', (row.vendor_id && names.vendor(row.vendor_id)) || '—'] as Fact] : []),
    ...(row.spend_allocation_id ? [['Budget', names.budget(row.spend_allocation_id) || 'Not on this device'] as Fact] : []),
    ...(row.type !== 'PRODUCT_OR_SERVICE' && !row.spend_allocation_id ? [['Limit interval', INTERVAL_WORDS[row.interval]] as Fact] : []),
    ['Needed by', row.needed_by ? formatClaimDate(row.needed_by) : 'Not said'],
    ['Description', row.description],
    ['Result', <OutcomeLink key="o" outcome={outcome} />],
    syncFact(row),
  ];
  return <Facts rows={rows} />;
}
