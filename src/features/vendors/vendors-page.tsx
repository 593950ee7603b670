import { useCallback, useMemo, useRef, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { SearchBox } from '../../components/search-box.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { listVersion } from '../../lib/list/list-version.ts';
import { ListSkeleton } from '../../components/skeleton.tsx';
import { TableFooter } from '../../components/table-footer.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { SelectionApi } from '../../lib/list/use-selection.ts';
import { useRows } from '../../lib/list/use-rows.ts';
import { useTableKeys } from '../../lib/list/use-table-keys.ts';
import type { Command } from '../../lib/commands.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { footerHint, SHORTCUTS } from '../../lib/shortcuts.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { useInstantSearch } from '../../lib/use-instant-search.ts';
import { MergeDialog } from './merge-dialog.tsx';
import { STATUS_FILTERS, type StatusFilter, type VendorsSearch } from './search-params.ts';
import { UploadDialog } from './upload-dialog.tsx';
import { useVendors } from './use-vendors.ts';
import { VendorDrawer } from './vendor-drawer.tsx';
import { VendorFormDialog } from './vendor-form-dialog.tsx';
import { endSentence, filterVendors, NO_ANSWERS, vendorCount, type Answers } from './vendor-view.ts';
import { VendorsTable } from './vendors-table.tsx';

const routeApi = getRouteApi('/_app/vendors');
/** The list's keys minus selection and coding (vendors have no bulk action in the table). */
const KEY_HINT = footerHint(['list', 'global'], SHORTCUTS.filter((s) => s.id !== 'list.toggle' && s.id !== 'list.code'));

const NO_SELECTION: SelectionApi = {
  ids: new Set<string>(),
  toggle: () => undefined,
  range: async () => undefined,
  add: () => undefined,
  selectAllMatching: async () => undefined,
  clear: () => undefined,
};

type Dialog = { kind: 'add' } | { kind: 'edit'; vendor: Vendor } | { kind: 'upload' } | { kind: 'merge' } | null;

/**
 * Issue 11: /vendors, for those who manage bill pay (§6). The list is the mirror's reference
 * data, searched on every keystroke; every change is a direct call to the server (vendors have
 * no outbox command), so offline the page says changes need a connection and keeps what was
 * typed. The server's answer shows at once; the feed then brings the same row.
 */
export function VendorsPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const client = useDataClient();
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const [answers, setAnswers] = useState<Answers>(NO_ANSWERS);
  const vendors = useVendors(client, referenceVersion, answers);
  const [dialog, setDialog] = useState<Dialog>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const setSearch = useCallback(
    (patch: Partial<VendorsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  const status: StatusFilter = search.status ?? 'active';
  const shown = useMemo(() => (vendors ? filterVendors(vendors, { q, status }) : []), [vendors, q, status]);
  const key = JSON.stringify([q.trim().toLowerCase(), status]);
  const rows = useRows<Vendor>({
    key,
    // Every new list (the mirror's answer, a call's answer) re-reads the visible rows.
    version: listVersion(shown),
    what: 'Vendors',
    read: async (offset, limit) => ({ rows: shown.slice(offset, offset + limit), total: shown.length }),
  });
  const total = shown.length;

  const remember = useCallback((vendor: Vendor, removed: readonly string[] = []) => {
    setAnswers((prev) => ({
      vendors: new Map(prev.vendors).set(vendor.id, vendor),
      removed: new Set([...prev.removed, ...removed]),
    }));
  }, []);
  const openRow = useCallback((row: Vendor) => setSearch({ open: row.id }), [setSearch]);
  const gridElement = useCallback(() => scrollRef.current?.closest<HTMLElement>('[role="grid"]'), []);
  const closeDrawer = useCallback(() => {
    setSearch({ open: undefined });
    gridElement()?.focus();
  }, [setSearch, gridElement]);
  const focusSearch = useCallback(() => searchRef.current?.focus(), []);

  // ⌘K on this page: the header's actions, by name.
  usePageCommands(
    useMemo<Command[]>(
      () => [
        { id: 'vendors.add', label: 'Add vendor', group: 'Vendors', keywords: ['new', 'payee', 'create'], run: () => setDialog({ kind: 'add' }) },
        { id: 'vendors.upload', label: 'Upload vendors from CSV', group: 'Vendors', keywords: ['bulk', 'import', 'spreadsheet'], run: () => setDialog({ kind: 'upload' }) },
        { id: 'vendors.merge', label: 'Merge vendors', group: 'Vendors', keywords: ['duplicate', 'payee'], run: () => setDialog({ kind: 'merge' }) },
        { id: 'vendors.search', label: 'Search vendors', group: 'Vendors', keywords: ['find'], run: focusSearch },
      ],
      [focusSearch],
    ),
  );

  const active = useTableKeys({
    key,
    total,
    rows,
    selection: NO_SELECTION,
    drawerOpen: search.open !== undefined,
    dialogOpen: dialog !== null,
    onOpen: openRow,
    onCloseDrawer: closeDrawer,
    onFocusSearch: focusSearch,
  });
  const onRowClick = useCallback(
    (index: number, row: Vendor) => {
      active.set(index);
      openRow(row);
    },
    [active, openRow],
  );

  const none = vendors !== null && vendors.filter((v) => !v.deleted).length === 0;
  const filtered = q.trim() !== '' || status !== 'active';
  const openVendor = search.open ? (vendors?.find((v) => v.id === search.open) ?? null) : undefined;

  return (
    <div className="vendors">
      <div className="page-header">
        <h1>Vendors</h1>
        {vendors !== null && total > 0 && (
          <span className="page-label" data-testid="vendor-count">{vendorCount(total)}</span>
        )}
        <span className="spacer" />
        <SearchBox id="vendor-search" label="Search vendors" placeholder="Search name, email, contact…" ref={searchRef} value={q} onChange={setQ} onLeave={() => gridElement()?.focus()} />
        <SelectField
          variant="filter"
          label="Status"
          value={status}
          options={STATUS_FILTERS.map((f) => ({ value: f.key, label: f.label }))}
          onChange={(next) => setSearch({ status: next === 'active' ? undefined : (next as VendorsSearch['status']) })}
        />
        <Button onClick={() => setDialog({ kind: 'upload' })}>Upload CSV</Button>
        <Button onClick={() => setDialog({ kind: 'merge' })} disabled={(vendors?.length ?? 0) < 2}>
          Merge vendors
        </Button>
        <Button variant="primary" onClick={() => setDialog({ kind: 'add' })}>
          Add vendor
        </Button>
      </div>
      {!online && (
        <p className="notice notice-warn" role="note">
          You’re offline. You can look vendors up, but adding or changing one needs a connection.
        </p>
      )}
      {vendors === null ? (
        <ListSkeleton what="vendors" />
      ) : none ? (
        <EmptyState
          title="No vendors yet"
          action={
            <div className="vendor-empty-actions">
              <Button variant="primary" onClick={() => setDialog({ kind: 'add' })}>Add vendor</Button>
              <Button onClick={() => setDialog({ kind: 'upload' })}>Upload CSV</Button>
            </div>
          }
        >
          Vendors are the businesses you pay by bill. Add one, or upload a spreadsheet of them at once.
        </EmptyState>
      ) : (
        <VendorsTable
          rows={rows}
          total={total}
          active={active.index}
          openId={search.open}
          queryKey={key}
          scrollRef={scrollRef}
          emptyText={q.trim() ? `No vendors match “${q.trim()}”` : status === 'archived' ? 'No archived vendors' : 'No vendors here'}
          emptyHint={
            filtered ? (
              <Button
                size="sm"
                onClick={() => {
                  setQ('');
                  setSearch({ q: undefined, status: undefined });
                  focusSearch();
                }}
              >
                Clear search and filters
              </Button>
            ) : undefined
          }
          onRowClick={onRowClick}
          onKeyDown={active.onGridKeyDown}
          onFocus={active.onGridFocus}
        />
      )}
      <TableFooter hint={KEY_HINT} />
      {search.open && openVendor !== undefined && (
        <VendorDrawer
          vendor={openVendor}
          client={client}
          online={online}
          onAnswer={remember}
          onEdit={(vendor) => setDialog({ kind: 'edit', vendor })}
          onClose={closeDrawer}
          returnFocus={gridElement}
        />
      )}
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <VendorFormDialog
          vendor={dialog.kind === 'edit' ? dialog.vendor : null}
          client={client}
          online={online}
          onAnswer={remember}
          onClose={() => setDialog(null)}
          onSaved={(vendor, created) => {
            setDialog(null);
            toastInfo(`${vendor.name} ${created ? 'added' : 'saved'}.`);
            setSearch({ open: vendor.id });
          }}
          returnFocus={gridElement}
        />
      )}
      {dialog?.kind === 'upload' && <UploadDialog client={client} online={online} onClose={() => setDialog(null)} returnFocus={gridElement} />}
      {dialog?.kind === 'merge' && vendors && (
        <MergeDialog
          vendors={vendors}
          initial={search.open}
          client={client}
          online={online}
          onClose={() => setDialog(null)}
          onMerged={(vendor, merged) => {
            remember(vendor, merged);
            setDialog(null);
            toastInfo(`Merged ${vendorCount(merged.length)} into ${endSentence(vendor.name)}`);
            setSearch({ open: vendor.id });
          }}
          returnFocus={gridElement}
        />
      )}
    </div>
  );
}


