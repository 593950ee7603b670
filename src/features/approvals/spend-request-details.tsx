import { Facts, syncFact, type Fact } from '../../components/facts.tsx';
import { LineItemsTable } from '../../components/request-line-items.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { INTERVAL_WORDS } from '../../lib/card-labels.ts';
import { formatClaimDate } from '../../lib/claim-labels.ts';
import { formatCount, formatLocalDateTime } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import {
  approvalOutcomeText, budgetLeftText, REQUEST_STATUS_LABELS, REQUEST_STATUS_TONES, REQUEST_TYPE_LABELS, requestAmountText, type RequestNames,
} from '../../lib/spend-request-labels.ts';
import type { SpendRequestRow } from './approval-rows.ts';

/** The names a spend request shows, from the reviewer's reference data (offline too). */
export function spendRequestNames(reference: ReferenceView): RequestNames {
  const vendors = new Map(reference.data.vendors.map((v) => [v.id, v.name]));
  const budgets = new Map(reference.data.spend_allocations.map((a) => [a.id, a.name]));
  return { user: reference.names.user, vendor: (id) => vendors.get(id) ?? '', budget: (id) => budgets.get(id) ?? '' };
}

/**
 * Issue 28: a spend request as its approver reads it — type, amount, who it is for (and who asked),
 * the vendor and lines or the budget, when it is needed, why, its documents — and, while it
 * waits, what approving will do ("Approving issues a $500.00 virtual card to Ana Ruiz").
 */
export function SpendRequestDetails({ request, reference }: { request: SpendRequestRow; reference: ReferenceView }) {
  const names = spendRequestNames(reference);
  const budget = request.spend_allocation_id ? reference.data.spend_allocations.find((a) => a.id === request.spend_allocation_id) : undefined;
  const rows: Fact[] = [
    ['Type', REQUEST_TYPE_LABELS[request.type]],
    ['For', names.user(request.user_id) || '—'],
    ...(request.requested_by !== request.user_id ? [['Requested by', names.user(request.requested_by) || '—'] as Fact] : []),
    ...(request.type === 'PRODUCT_OR_SERVICE' ? [['Vendor', (request.vendor_id && names.vendor(request.vendor_id)) || '—'] as Fact] : []),
    ...(request.spend_allocation_id ? [['Budget', budget ? `${budget.name} · ${budgetLeftText(budget)}` : 'Not on this device'] as Fact] : []),
    ...(request.type !== 'PRODUCT_OR_SERVICE' && !request.spend_allocation_id ? [['Limit interval', INTERVAL_WORDS[request.interval]] as Fact] : []),
    ['Needed by', request.needed_by ? formatClaimDate(request.needed_by) : 'Not said'],
    ['Description', request.description],
    ['Documents', request.document_ids.length === 0 ? 'None' : formatCount(request.document_ids.length)],
    ...(request.submitted_at ? [['Submitted', <time key="t" dateTime={request.submitted_at}>{formatLocalDateTime(request.submitted_at)}</time>] as Fact] : []),
    syncFact(request),
  ];
  return (
    <>
      <div className="drawer-amount">{requestAmountText(request)}</div>
      <div className="marks">
        <StatusPill tone={REQUEST_STATUS_TONES[request.status]}>{REQUEST_STATUS_LABELS[request.status]}</StatusPill>
        <SyncMark row={request} />
      </div>
      {request.status === 'PENDING_APPROVAL' && (
        <p className="notice request-next" role="note" data-testid="approval-outcome">{approvalOutcomeText(request, names)}</p>
      )}
      <Facts rows={rows} />
      {request.type === 'PRODUCT_OR_SERVICE' && request.line_items.length > 0 && (
        <LineItemsTable lines={request.line_items} currency={request.amount.currency} caption="Line items" />
      )}
    </>
  );
}
