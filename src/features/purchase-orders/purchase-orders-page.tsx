import { useCallback, useMemo, useState } from 'react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { mayManageBills } from '../../../schema/bill-rules.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { ListPage } from '../../lib/list/list-page.tsx';
import type { ListFilter } from '../../lib/list/list-spec.ts';
import { useListPage, useLocalRows } from '../../lib/list/use-list-page.ts';
import { useReferenceAnswer } from '../../lib/reference-data.ts';
import { mirrorProgress } from '../../lib/sync-status-text.ts';
import { useInstantSearch } from '../../lib/use-instant-search.ts';
import { MatchingRulesDialog } from './matching-rules-dialog.tsx';
import { filterPurchaseOrders } from './po-view.ts';
import { purchaseOrdersSpec, STATUS_OPTIONS, type PoRow } from './purchase-orders-list.tsx';
import type { PurchaseOrdersSearch } from './search-params.ts';
import { SavedViewsBar } from '../../components/saved-views/saved-views-bar.tsx';

const routeApi = getRouteApi('/_app/purchase-orders');

/**
 * Issue 28: /purchase-orders, the POs this device holds (reference data: bill managers see every
 * one, anyone else their own), searched by number or vendor and filtered by status; a row opens
 * the PO. Admins set the three-way match's tolerances here ("Matching rules"; bill pay has no
 * settings page). The blank state says why the list is empty: still downloading, or none yet.
 */
export function PurchaseOrdersPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const go = useNavigate();
  const client = useDataClient();
  const user = useAppState((s) => s.session?.user ?? null);
  const status = useAppState((s) => s.status);
  const online = useAppState((s) => s.online);
  const data = useReferenceAnswer(client, useAppState((s) => s.referenceVersion));
  const [rules, setRules] = useState(false);

  const setSearch = useCallback(
    (patch: Partial<PurchaseOrdersSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const [q, setQ] = useInstantSearch(search.q, useCallback((next: string | undefined) => setSearch({ q: next }), [setSearch]));

  const items = useMemo<PoRow[] | null>(() => {
    if (!data) return null;
    const vendors = new Map(data.vendors.map((v) => [v.id, v.name]));
    const name = (id: string) => vendors.get(id) ?? '';
    return filterPurchaseOrders(data.purchase_orders, name, { q, status: search.status }).map((po) => ({ ...po, vendorName: name(po.vendor_id) }));
  }, [data, q, search.status]);

  const key = JSON.stringify([q.trim().toLowerCase(), search.status ?? '']);
  const rows = useLocalRows(key, items, 'Purchase orders');
  const open = useCallback((row: PoRow) => void go({ to: '/purchase-orders/$poId', params: { poId: row.id } }), [go]);
  const list = useListPage({ key, rows, onOpen: open, dialogOpen: rules });

  const manager = user ? mayManageBills(user) : false;
  const progress = mirrorProgress(status);
  const downloading = status !== null && !status.mirrored;
  const filtered = q.trim() !== '' || search.status !== undefined;
  const statusFilter = useMemo<ListFilter>(
    () => ({
      key: 'status', label: 'Status', value: search.status ?? '', options: STATUS_OPTIONS, leading: [{ value: '', label: 'All statuses' }],
      onChange: (v) => setSearch({ status: (v || undefined) as PurchaseOrdersSearch['status'] }),
    }),
    [search.status, setSearch],
  );
  const blank = downloading ? (
    <EmptyState title="Downloading purchase orders">
      {progress ? `This device is still downloading your data (${progress.percent}%): ` : 'This device is still downloading your data: '}
      purchase orders show here as they arrive.
    </EmptyState>
  ) : (
    <EmptyState title="No purchase orders yet">
      {manager
        ? 'An approved product or service request becomes a purchase order here, ready to send to the vendor, receive against and match bills to.'
        : 'When a product or service request of yours is approved, its purchase order shows here.'}
    </EmptyState>
  );
  const spec = useMemo(
    () => purchaseOrdersSpec({ q, setQ, status: statusFilter, filtered, clearFilters: () => { setQ(''); setSearch({ q: undefined, status: undefined }); }, blank }),
    // `blank` changes with the download's progress only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [q, setQ, statusFilter, filtered, setSearch, downloading, progress?.percent, manager],
  );

  return (
    <div className="purchase-orders">
      <div className="page-header">
        <h1>Purchase orders</h1>
        <SavedViewsBar list="purchase_orders" />
        <span className="spacer" />
        {user && isAdmin(user) && (
          <Button onClick={() => setRules(true)}>Matching rules</Button>
        )}
      </div>
      <ListPage spec={spec} list={list} loading={data === null} filtered={filtered} quiet={rules} />
      {rules && <MatchingRulesDialog client={client} online={online} onClose={() => setRules(false)} />}
    </div>
  );
}
