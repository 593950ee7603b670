import type { RowView } from '../../../workers/api.ts';
import { SPEND_REQUEST_STATUSES, SPEND_REQUEST_TYPES } from '../../../schema/entities/spend-request.ts';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { formatClaimDate } from '../../lib/claim-labels.ts';
import { listKeyHint } from '../../lib/list/key-hint.ts';
import type { ListColumn, ListFilter, ListSpec } from '../../lib/list/list-spec.ts';
import {
  REQUEST_STATUS_LABELS, REQUEST_STATUS_TONES, REQUEST_TYPE_LABELS, requestAmountText, requestOutcome, requestSubject, type RequestNames,
} from '../../lib/spend-request-labels.ts';
import { OutcomeLink } from './outcome-link.tsx';
import { RequestTypeIcon } from './request-type-icon.tsx';

/** A spend request as the worker shows it (commands applied) with its outbox marks. */
export type RequestRow = RowView<'spend_requests'>;

/** A request as a card on a phone (`.grid-cards .request-row` in requests.css has this height). */
export const REQUEST_CARD_HEIGHT = 84;
const KEY_HINT = listKeyHint({});

export interface RequestListNames extends RequestNames {
  poNumber(id: string): string;
}

/**
 * The columns: what (type, vendor and lines or the description), who it is for (the Team tab),
 * amount (with its interval), needed by, status with its sync mark, and what came of it.
 */
export function requestColumns(names: RequestListNames, team: boolean): readonly ListColumn<RequestRow>[] {
  return [
    {
      key: 'request',
      header: 'Request',
      className: 'cell-request',
      rowHeader: true,
      cell: (row) => (
        <span className="request-what">
          <span className="request-type">
            <RequestTypeIcon type={row.type} />
            {REQUEST_TYPE_LABELS[row.type]}
          </span>
          <span className="request-subject">{requestSubject(row, names)}</span>
        </span>
      ),
      title: (row) => row.description,
    },
    ...(team ? [{ key: 'for', header: 'For', className: 'cell-for', cell: (row: RequestRow) => names.user(row.user_id) || '—' }] : []),
    { key: 'amount', header: 'Amount', className: 'cell-amount', cell: (row) => requestAmountText(row) },
    {
      key: 'needed', header: 'Needed by', className: 'cell-date', muted: (row) => !row.needed_by,
      // On a phone card the column header is gone: the date says what it is ("Needed by Dec 15"); no date says nothing there.
      cell: (row) => (row.needed_by ? <><span className="request-needed-label">Needed by </span>{formatClaimDate(row.needed_by)}</> : '—'),
    },
    {
      key: 'status',
      header: 'Status',
      className: 'cell-status',
      cell: (row) => (
        <span className="marks">
          <StatusPill tone={REQUEST_STATUS_TONES[row.status]}>{REQUEST_STATUS_LABELS[row.status]}</StatusPill>
          <SyncMark row={row} />
        </span>
      ),
    },
  ];
}

const STATUS_OPTIONS = SPEND_REQUEST_STATUSES.map((s) => ({ value: s, label: REQUEST_STATUS_LABELS[s] }));
const TYPE_OPTIONS = SPEND_REQUEST_TYPES.map((t) => ({ value: t, label: REQUEST_TYPE_LABELS[t] }));

export interface RequestsSpecOptions {
  columns: readonly ListColumn<RequestRow>[];
  names: RequestListNames;
  team: boolean;
  status: string;
  type: string;
  setStatus(v: string): void;
  setType(v: string): void;
  clearFilters(): void;
  filtered: boolean;
  /** The first answer is still to come: no blank state yet (it would flash). */
  waiting: boolean;
  onNew(): void;
}

/** The requests list, declared: Status and Type filters, the outcome link per row, a blank state with "New request", cards on a phone. */
export function requestsSpec(o: RequestsSpecOptions): ListSpec<RequestRow> {
  const filters: ListFilter[] = [
    { key: 'status', label: 'Status', value: o.status, options: STATUS_OPTIONS, leading: [{ value: '', label: 'All statuses' }], onChange: o.setStatus },
    { key: 'type', label: 'Type', value: o.type, options: TYPE_OPTIONS, leading: [{ value: '', label: 'All types' }], onChange: o.setType },
  ];
  return {
    label: o.team ? 'Team requests' : 'My requests',
    rowIdPrefix: 'request-row',
    rowClassName: o.team ? 'request-row request-row-team' : 'request-row',
    gridClassName: 'grid-requests',
    rowHeight: 56,
    phone: { className: 'grid-cards', rowHeight: REQUEST_CARD_HEIGHT },
    columns: o.columns,
    pending: (row) => row.pending,
    rowActions: (row) => <OutcomeLink outcome={requestOutcome(row, o.names)} />,
    filters,
    ...(o.filtered ? { clearFilters: o.clearFilters } : {}),
    partialNouns: ['request', 'requests'],
    countText: (n) => `${n} ${n === 1 ? 'request' : 'requests'}`,
    emptyText: o.filtered ? 'No requests match these filters.' : o.team ? 'No requests from your team yet' : 'No requests yet',
    ...(o.filtered ? { emptyHint: <button type="button" className="btn-link" onClick={o.clearFilters}>Clear filters</button> } : {}),
    ...(o.waiting
      ? {}
      : {
          blank: o.team ? (
            <EmptyState title="No requests from your team yet">
              When people you manage ask for a budget, a purchase or a physical card, their requests show up here with what came of them.
            </EmptyState>
          ) : (
            <EmptyState title="No requests yet" action={<Button variant="primary" onClick={o.onNew}>New request</Button>}>
              Ask before you spend: a budget on a virtual card, a purchase from a vendor with a purchase order, or a physical card.
              Your request works offline too and is sent for approval when you’re back online.
            </EmptyState>
          ),
        }),
    waitingText: 'Opening your saved requests…',
    loadingWhat: 'requests',
    keyHint: KEY_HINT,
  };
}
