import type { ReimbursementType } from '../../../schema/entities/reimbursement.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { formatClaimDate } from '../../lib/claim-labels.ts';
import { formatMoney } from '../../lib/format.ts';
import { listKeyHint } from '../../lib/list/key-hint.ts';
import type { ListColumn, ListSpec } from '../../lib/list/list-spec.ts';
import { ClaimIcon } from './claim-icon.tsx';
import { claimDescription, STATUS_LABELS, STATUS_TONES, TYPE_LABELS, type ClaimView } from './claim-labels.ts';
import { NewClaimMenu } from './new-claim-menu.tsx';

/** A claim as a card on a phone (`.grid-cards .reimb-row` in phone.css has this height). */
export const CARD_HEIGHT = 72;
/** The list's keys minus selection and coding (claims have no bulk action), plus 'n' and the global ones. */
const KEY_HINT = listKeyHint({ scopes: ['reimbursements'] });

/** The claims grid's columns: type, description, date (newest first), amount, status with its sync mark. */
export const CLAIM_COLUMNS: readonly ListColumn<ClaimView>[] = [
  {
    key: 'type',
    header: 'Type',
    className: 'cell-type',
    cell: (row) => (
      <>
        <ClaimIcon type={row.type} />
        <span className="claim-type-label">{TYPE_LABELS[row.type]}</span>
      </>
    ),
  },
  {
    key: 'description',
    header: 'Description',
    className: 'cell-merchant',
    // The memo on hover: the description shows it only when there is nothing better.
    cell: (row) => <span title={row.memo ?? undefined}>{claimDescription(row)}</span>,
  },
  { key: 'date', header: 'Date', className: 'cell-date', sorted: 'descending', cell: (row) => formatClaimDate(row.transaction_date) },
  { key: 'amount', header: 'Amount', className: 'cell-amount', cell: (row) => formatMoney(row.amount, row.currency) },
  {
    key: 'status',
    header: 'Status',
    className: 'cell-status',
    cell: (row) => (
      <span className="marks">
        <StatusPill tone={STATUS_TONES[row.status]}>{STATUS_LABELS[row.status]}</StatusPill>
        <SyncMark row={row} />
      </span>
    ),
  },
];

export interface ClaimsSpecOptions {
  q: string;
  setQ(q: string): void;
  /** A search or a status tab narrows the list (the empty words say so). */
  filtered: boolean;
  /** The first answer for this query is still to come: no blank state yet (it would flash). */
  waiting: boolean;
  /** 'n', the blank state's menu: open a new claim's form. */
  onNew(type: ReimbursementType): void;
}

/**
 * The claims list, declared (20k claims scroll like 20): the search, the columns, the
 * first-mirror notice, "No reimbursements yet" with the New menu, 'n', cards on a phone.
 * The status tabs, the export and the New menu are the page's (reimbursements-page.tsx).
 */
export function claimsSpec(o: ClaimsSpecOptions): ListSpec<ClaimView> {
  return {
    label: 'Reimbursements',
    rowIdPrefix: 'reimb-row',
    rowClassName: 'reimb-row',
    gridClassName: 'grid-reimb',
    phone: { className: 'grid-cards', rowHeight: CARD_HEIGHT },
    columns: CLAIM_COLUMNS,
    pending: (row) => row.pending,
    search: { id: 'reimb-search', label: 'Search reimbursements', placeholder: 'Search merchant, memo…', value: o.q, onChange: o.setQ },
    shortcuts: { scope: 'reimbursements', ids: ['reimbursements.new'], run: () => o.onNew('OUT_OF_POCKET') },
    partialNouns: ['reimbursement', 'reimbursements'],
    emptyText: o.filtered ? 'No reimbursements match.' : 'No reimbursements yet',
    ...(o.filtered ? { emptyHint: 'Try a shorter search or another status.' } : {}),
    ...(o.waiting
      ? {}
      : {
          blank: (
            <EmptyState title="No reimbursements yet" icon={<ClaimIcon type="OUT_OF_POCKET" size={32} />} action={<NewClaimMenu label="New reimbursement" onChoose={o.onNew} />}>
              Claim back what you paid yourself: a purchase, the miles you drove, or a trip’s per diem.
            </EmptyState>
          ),
        }),
    waitingText: 'Opening your saved reimbursements…',
    loadingWhat: 'reimbursements',
    keyHint: KEY_HINT,
  };
}
