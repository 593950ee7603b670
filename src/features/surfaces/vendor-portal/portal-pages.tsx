import { useState } from 'react';
import { useRouterState } from '@tanstack/react-router';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import type { NetworkPayer, PortalPayment, PortalPaymentFilter, VendorEditProposal } from '../../../../workers/api.ts';
import { errorText } from '../../../lib/error-text.ts';
import { formatDay, formatLocalDateTime, formatMoney } from '../../../lib/format.ts';
import { usePagedQuery, type PagedList } from '../../../lib/use-paged-query.ts';
import { Pager } from '../../../components/pager.tsx';
import { ApplyCard } from './portal-apply.tsx';
import { ProfilePage } from './profile-page.tsx';
import { paymentStatusText } from './portal-rules.ts';
import { ReadNote, usePortalRead } from './portal-read.tsx';
import './vendor-portal.css';

/** The vendor portal's page for the address (surface-pages.ts lists them); null: the shell's "not found". */
export function VendorPortalPage() {
  const pathname = useRouterState({ select: (s) => s.location.pathname }).replace(/\/+$/, '');
  if (pathname === '/vendor-portal/profile') return <ProfilePage />;
  if (pathname === '/vendor-portal/payers') return <PayersPage />;
  if (pathname === '/vendor-portal/changes') return <ChangesPage />;
  return <PaymentsPage />;
}

const STATUSES = [
  { value: '', label: 'All' }, { value: 'UNPAID', label: 'Not paid yet' }, { value: 'SCHEDULED', label: 'Scheduled' },
  { value: 'PAID', label: 'Paid' }, { value: 'FAILED', label: 'Payment failed' },
] as const;

/** The worker's page of payments (handlers/vendor-portal.ts PORTAL_PAGE_SIZE). */
const PORTAL_PAGE_SIZE = 25;

function PaymentsPage() {
  const client = useDataClient();
  const [filter, setFilter] = useState<PortalPaymentFilter>({});
  const [payers] = usePortalRead(() => client.portalPayers(), []);
  const online = useAppState((s) => s.online);
  // A page at a time (`usePagedQuery`); offline the worker answers its last copy of the page.
  const paged = usePagedQuery<PortalPayment>({
    search: filter,
    pageSize: PORTAL_PAGE_SIZE,
    online,
    readOffline: true,
    load: async ({ business_id, status, start }) => {
      const r = await client.portalPayments({ ...(business_id ? { business_id } : {}), ...(status ? { status: status as PortalPaymentFilter['status'] } : {}), ...(start ? { cursor: start } : {}) });
      return r.ok ? { ok: true, rows: r.data.rows, next: r.data.next, ...(r.offline ? { readAt: r.read_at } : {}) } : r;
    },
  });
  const state = paged.list;
  const rows = state.state === 'ready' ? state.rows : [];
  const choose = (patch: PortalPaymentFilter) => setFilter((f) => ({ ...f, ...patch }));
  return (
    <section className="surface-page portal-page" aria-labelledby="portal-title">
      <h1 id="portal-title">Payments</h1>
      <p className="muted">What your payers owe and paid you, and when each payment is expected to arrive.</p>
      <div className="portal-filters">
        <SelectField label="Payer" value={filter.business_id ?? ''} onChange={(v) => choose({ business_id: v || undefined })}
          options={[{ value: '', label: 'All payers' }, ...(payers.kind === 'read' ? payers.data.map((p) => ({ value: p.business_id, label: p.business_name })) : [])]} />
        <SelectField label="Status" value={filter.status ?? ''} onChange={(v) => choose({ status: (v || undefined) as PortalPaymentFilter['status'] })}
          options={STATUSES.map((s) => ({ value: s.value, label: s.label }))} />
      </div>
      <PagedReadNote list={state} onRetry={paged.reload} />
      {state.state === 'ready' && rows.length === 0 && paged.pageIndex === 0 && (
        <p className="empty-state">{filter.business_id || filter.status ? 'No payments match these filters.' : 'No bills from your payers yet. When a payer adds a bill from you, it shows here.'}</p>
      )}
      {rows.length > 0 && (
        <ul className="portal-list" aria-label="Payments">
          {rows.map((p) => (
            <li key={p.bill_id} className="portal-row">
              <div className="portal-row-main">
                <strong>{p.payer_name}</strong>
                <span className="muted">Invoice {p.invoice_number}</span>
              </div>
              <div className="portal-row-side">
                <strong>{formatMoney(p.amount.amount, p.amount.currency)}</strong>
                <span className={`badge portal-status-${(p.payment_status ?? p.bill_status).toLowerCase()}`}>{paymentStatusText(p)}</span>
              </div>
              <div className="portal-row-dates muted">
                {p.expected_settlement_date
                  ? `Expected ${formatDay(p.expected_settlement_date)}${p.rail ? ` by ${p.rail === 'CHECK' ? 'check' : p.rail}` : ''}`
                  : `Due ${formatDay(p.due_date)}`}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager paged={paged} what="Payments" disabled={!online} />
    </section>
  );
}

/** The payments page's state when it is not (only) rows: loading, refused, offline, or an offline copy's time. */
function PagedReadNote({ list, onRetry }: { list: PagedList<PortalPayment>; onRetry(): void }) {
  if (list.state === 'loading') return <p className="muted" role="status">Loading your payments…</p>;
  if (list.state === 'offline') return <p className="notice notice-warn" role="status">You’re offline and this page was not read on this device yet.</p>;
  if (list.state === 'error') {
    return (
      <div className="notice notice-error" role="alert">
        <span>{list.message}</span>
        <span><Button size="sm" onClick={onRetry}>Try again</Button></span>
      </div>
    );
  }
  if (typeof list.readAt === 'string') return <p className="notice notice-warn" role="status">You’re offline. Showing what was read at {formatLocalDateTime(list.readAt)}.</p>;
  return null;
}

const FIELD_NAMES = { address: 'address', bank: 'bank account', tin: 'tax ID' } as const;

function PayersPage() {
  const client = useDataClient();
  const [state] = usePortalRead(() => client.portalPayers(), []);
  return (
    <section className="surface-page portal-page" aria-labelledby="portal-title">
      <h1 id="portal-title">Payers</h1>
      <p className="muted">The businesses that pay you through Ledgerline.</p>
      <ReadNote state={state} what="your payers" />
      {state.kind === 'read' && state.data.length === 0 && (
        <p className="empty-state">No payers yet. When a business that pays you invites you to the vendor network, it shows here.</p>
      )}
      {state.kind === 'read' && state.data.length > 0 && (
        <ul className="portal-list" aria-label="Payers">
          {state.data.map((p: NetworkPayer) => (
            <li key={p.vendor_id} className="portal-row">
              <div className="portal-row-main">
                <strong>{p.business_name}</strong>
                <span className="muted">{p.status === 'ACTIVE' ? `Joined ${p.joined_at ? formatDay(p.joined_at) : ''}` : p.status === 'INVITED' ? 'Invited' : 'Declined'}</span>
              </div>
              <div className="portal-row-dates muted">
                {p.verified_fields.length ? `Verified by you: ${p.verified_fields.map((f) => FIELD_NAMES[f]).join(', ')}` : 'None of your details verified here yet'}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ApplyCard />
    </section>
  );
}

function changeText(p: VendorEditProposal): string {
  const f = p.fields;
  const parts: string[] = [];
  if (f.legal_name) parts.push(`legal name “${f.legal_name}”`);
  if (f.address) parts.push(`address ${f.address.line1}, ${f.address.city}`);
  if (f.bank) parts.push(`bank account ending ${f.bank.account_last_four}`);
  if (f.tin) parts.push(`${f.tin.type} ending ${f.tin.last_four}`);
  return parts.join('; ') || 'details';
}

const DECIDED = { ACCEPTED: 'Accepted', REJECTED: 'Rejected', WITHDRAWN: 'Withdrawn', PENDING: 'Waiting for the payer' } as const;

function ChangesPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const [state, reload] = usePortalRead(() => client.portalChanges(), []);
  const [withdrawing, setWithdrawing] = useState<VendorEditProposal | null>(null);
  const [withdrawError, setWithdrawError] = useState<string | null>(null);
  const rows = state.kind === 'read' ? state.data : [];
  const list = (items: VendorEditProposal[], label: string) => (
    <ul className="portal-list" aria-label={label}>
      {items.map((p) => (
        <li key={p.id} className="portal-row">
          <div className="portal-row-main">
            <strong>{p.business_name}</strong>
            <span>{changeText(p)}</span>
          </div>
          <div className="portal-row-side">
            <span className="badge">{DECIDED[p.status]}</span>
            {p.status === 'PENDING' && (
              <Button size="sm" disabled={!online} onClick={() => setWithdrawing(p)}>{online ? 'Withdraw' : 'Withdraw (needs a connection)'}</Button>
            )}
          </div>
          <div className="portal-row-dates muted">Sent {formatDay(p.created_at)}{p.decided_at ? ` · decided ${formatDay(p.decided_at)}` : ''}</div>
        </li>
      ))}
    </ul>
  );
  const pending = rows.filter((p) => p.status === 'PENDING');
  const decided = rows.filter((p) => p.status !== 'PENDING');
  return (
    <section className="surface-page portal-page" aria-labelledby="portal-title">
      <h1 id="portal-title">Changes</h1>
      <p className="muted">Changes to your details that a payer already held differently: each payer accepts or rejects them.</p>
      <ReadNote state={state} what="your changes" />
      {state.kind === 'read' && (
        <>
          <h2>Waiting for a payer</h2>
          {pending.length ? list(pending, 'Waiting for a payer') : <p className="empty-state">Nothing is waiting.</p>}
          <h2>Decided</h2>
          {decided.length ? list(decided, 'Decided') : <p className="empty-state">No decided changes yet.</p>}
        </>
      )}
      {withdrawing && (
        <ConfirmDialog
          title="Withdraw this change?"
          description={`${withdrawing.business_name} will no longer be asked to accept your ${changeText(withdrawing)}. They keep the details they have.`}
          confirmLabel="Withdraw change"
          tone="danger"
          onConfirm={async () => {
            const r = await client.withdrawPortalChange(withdrawing.id);
            setWithdrawError(r.ok ? null : errorText(r.error));
            if (r.ok) reload();
            return r.ok;
          }}
          onClose={() => {
            setWithdrawing(null);
            setWithdrawError(null);
          }}
        >
          <FormError message={withdrawError} />
        </ConfirmDialog>
      )}
    </section>
  );
}
