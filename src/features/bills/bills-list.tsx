import type { ReactNode } from 'react';
import type { BillFilter, BillSort } from '../../../schema/entities/bill.ts';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { PaymentApprovalMark } from './payment-approval.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { BILL_STATUS_LABELS, BILL_STATUS_TONES, dueText, isOverdue } from '../../lib/bill-labels.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';
import { listKeyHint } from '../../lib/list/key-hint.ts';
import type { ListColumn, ListSpec } from '../../lib/list/list-spec.ts';
import { DEFAULT_SORT, SORT_OPTIONS, type BillsSearch } from './search-params.ts';
import type { BillView } from './use-bills.ts';

/** A bill as a card on a phone (`.grid-cards .bill-row` in bills.css has this height). */
const CARD_HEIGHT = 76;
/** The list's keys minus coding (bills are coded in their form), plus the global ones. */
const KEY_HINT = listKeyHint({ select: true });

/**
 * The bills grid's columns: vendor, invoice number, invoice and due dates (overdue ones marked in
 * words, not colour alone), amount, status with its sync mark. `today` is the local calendar day.
 */
function billColumns(vendorName: (id: string) => string, today: string): ListColumn<BillView>[] {
  return [
    { key: 'vendor', header: 'Vendor', className: 'cell-vendor', cell: (row) => vendorName(row.vendor_id) || 'Vendor not on this device yet' },
    { key: 'invoice', header: 'Invoice', className: 'cell-invoice', cell: (row) => row.invoice_number },
    { key: 'invoice-date', header: 'Invoice date', className: 'cell-invoice-date', cell: (row) => formatDay(row.invoice_date) },
    {
      key: 'due', header: 'Due', className: 'cell-due',
      cell: (row) => {
        const overdue = isOverdue(row, today);
        const due = dueText(row, today);
        return (
          <>
            <span>{formatDay(row.due_date)}</span>
            {due && <span className={overdue ? 'bill-due bill-overdue' : 'bill-due'}>{due}</span>}
          </>
        );
      },
    },
    { key: 'amount', header: 'Amount', className: 'cell-amount', cell: (row) => formatMoney(row.amount, row.currency) },
    {
      key: 'status', header: 'Status', className: 'cell-status',
      cell: (row) => (
        <span className="marks">
          <StatusPill tone={BILL_STATUS_TONES[row.status]}>{BILL_STATUS_LABELS[row.status]}</StatusPill>
          <PaymentApprovalMark bill={row} />
          <SyncMark row={row} />
        </span>
      ),
    },
  ];
}

export interface BillsSpecOptions {
  q: string;
  setQ(q: string): void;
  filter: BillFilter;
  sort: BillSort;
  setSearch(patch: Partial<BillsSearch>): void;
  today: string;
  vendorName(id: string): string;
  matchingIds(): Promise<string[]>;
  /** No bill at all and no search: the blank state with New bill. */
  nothingYet: boolean;
  onNew(): void;
  /** The selection's actions (bulk-bar.tsx), and the last bulk answer above the list. */
  bar: ReactNode;
  notices: ReactNode;
}

/**
 * The bills list, declared (issue 26): search, sort and export in the toolbar, multi-select with
 * the bills' own bulk actions, the first-mirror notice, the blank state, cards on a phone.
 */
export function billsSpec(o: BillsSpecOptions): ListSpec<BillView> {
  const filtered = o.filter.q !== undefined || o.filter.statuses !== undefined;
  return {
    label: 'Bills',
    rowIdPrefix: 'bill-row',
    rowClassName: 'bill-row',
    gridClassName: 'grid-bills',
    phone: { className: 'grid-cards', rowHeight: CARD_HEIGHT },
    columns: billColumns(o.vendorName, o.today),
    pending: (row) => row.pending,
    search: { id: 'bill-search', label: 'Search bills', placeholder: 'Search vendor, invoice no., memo…', value: o.q, onChange: o.setQ },
    sort: { value: o.sort, options: SORT_OPTIONS, onChange: (v) => o.setSearch({ sort: v === DEFAULT_SORT ? undefined : (v as BillSort) }) },
    toolbarExtra: <ExportCsvButton collection="bills" filter={o.filter} sort={o.sort} noun="bills" />,
    select: {
      label: (row) => `Select ${o.vendorName(row.vendor_id) || 'bill'} invoice ${row.invoice_number}, ${formatMoney(row.amount, row.currency)}`,
      allLabel: 'Select all bills',
      matchingIds: o.matchingIds,
      actions: [],
      bar: o.bar,
    },
    partialNouns: ['bill', 'bills'],
    notices: o.notices,
    emptyText: filtered ? 'No bills match.' : 'No bills yet',
    emptyHint: filtered ? 'Try a shorter search or another tab.' : 'Add a vendor’s invoice with New bill.',
    ...(o.nothingYet
      ? {
          blank: (
            <EmptyState title="No bills yet" action={<Button variant="primary" onClick={o.onNew}>New bill</Button>}>
              Enter a vendor’s invoice to route it for approval and pay it on time. Bills you add offline are kept here and sync when you reconnect.
            </EmptyState>
          ),
        }
      : {}),
    waitingText: 'Opening your saved bills…',
    loadingWhat: 'bills',
    keyHint: KEY_HINT,
  };
}
