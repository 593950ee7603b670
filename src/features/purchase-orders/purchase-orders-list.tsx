import type { ReactNode } from 'react';
import { PURCHASE_ORDER_STATUSES, type PurchaseOrder } from '../../../schema/entities/purchase-order.ts';
import type { MarkedReferenceRow } from '../../../workers/contracts/views.ts';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { formatMoney } from '../../lib/format.ts';
import { listKeyHint } from '../../lib/list/key-hint.ts';
import type { ListColumn, ListFilter, ListSpec } from '../../lib/list/list-spec.ts';
import { billsText, PO_STATUS_LABELS, PO_STATUS_TONES, receivedText } from './po-view.ts';

/** A PO as the list shows it: the mirror's row (with "Receive items" made offline applied) and its vendor's name. */
export type PoRow = MarkedReferenceRow<PurchaseOrder> & { vendorName: string };

/** A PO's outbox marks (a reference row may come without them). */
export const poMarks = (r: MarkedReferenceRow<PurchaseOrder>) => ({ pending: r.pending ?? null, failure: r.failure ?? null });

const KEY_HINT = listKeyHint({});
/** A PO as a card on a phone (`.grid-cards .po-row` in purchase-orders.css has this height). */
const PO_CARD_HEIGHT = 84;

const COLUMNS: readonly ListColumn<PoRow>[] = [
  {
    key: 'po', header: 'PO', className: 'cell-po', rowHeader: true, sorted: 'descending',
    cell: (r) => (
      <span className="po-name">
        <span className="po-number">{r.po_number}</span>
        <span className="muted po-vendor-sub">{r.vendorName || 'Vendor not on this device'}</span>
      </span>
    ),
  },
  { key: 'vendor', header: 'Vendor', className: 'cell-vendor', cell: (r) => r.vendorName || '—', muted: (r) => !r.vendorName },
  { key: 'amount', header: 'Amount', className: 'cell-amount', cell: (r) => formatMoney(r.amount, r.currency) },
  {
    key: 'status', header: 'Status', className: 'cell-status',
    cell: (r) => (
      <span className="marks">
        <StatusPill tone={PO_STATUS_TONES[r.status]}>{PO_STATUS_LABELS[r.status]}</StatusPill>
        <SyncMark row={poMarks(r)} />
      </span>
    ),
  },
  { key: 'received', header: 'Received', className: 'cell-received', cell: (r) => receivedText(r) },
  { key: 'bills', header: 'Bills', className: 'cell-bills', cell: (r) => billsText(r.bill_ids.length), muted: (r) => r.bill_ids.length === 0 },
];

export const STATUS_OPTIONS = PURCHASE_ORDER_STATUSES.map((s) => ({ value: s, label: PO_STATUS_LABELS[s] }));

export interface PoSpecOptions {
  q: string;
  setQ(q: string): void;
  status: ListFilter;
  filtered: boolean;
  clearFilters(): void;
  /** What the page says when there is no PO at all (the blank state). */
  blank: ReactNode;
}

/** The purchase orders list, declared: search by number or vendor, a status filter, cards on a phone. */
export function purchaseOrdersSpec(o: PoSpecOptions): ListSpec<PoRow> {
  return {
    label: 'Purchase orders',
    rowIdPrefix: 'po-row',
    rowClassName: 'po-row',
    gridClassName: 'grid-pos',
    rowHeight: 52,
    phone: { className: 'grid-cards', rowHeight: PO_CARD_HEIGHT },
    columns: COLUMNS,
    pending: (r) => r.pending ?? null,
    search: { id: 'po-search', label: 'Search purchase orders', placeholder: 'Search PO number, vendor…', value: o.q, onChange: o.setQ },
    filters: [o.status],
    ...(o.filtered ? { clearFilters: o.clearFilters } : {}),
    partialNouns: ['purchase order', 'purchase orders'],
    countText: (n) => `${n} ${n === 1 ? 'purchase order' : 'purchase orders'}`,
    emptyText: 'No purchase orders match.',
    emptyHint: 'Try another status or a shorter search.',
    blank: o.blank,
    waitingText: 'Opening your saved purchase orders…',
    loadingWhat: 'purchase orders',
    keyHint: KEY_HINT,
  };
}
