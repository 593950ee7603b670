import { useCallback, useMemo, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import { Button } from '../../components/button.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import type { Command } from '../../lib/commands.ts';
import { ListPage } from '../../lib/list/list-page.tsx';
import { useListPage, useLocalRows } from '../../lib/list/use-list-page.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { useInstantSearch } from '../../lib/use-instant-search.ts';
import { MergeDialog } from './merge-dialog.tsx';
import type { StatusFilter, VendorsSearch } from './search-params.ts';
import { UploadDialog } from './upload-dialog.tsx';
import { useVendors } from './use-vendors.ts';
import { VendorDrawer } from './vendor-drawer.tsx';
import { VendorFormDialog } from './vendor-form-dialog.tsx';
import { vendorsSpec } from './vendor-list.tsx';
import { endSentence, filterVendors, NO_ANSWERS, vendorCount, type Answers } from './vendor-view.ts';
import { SavedViewsBar } from '../../components/saved-views/saved-views-bar.tsx';

const routeApi = getRouteApi('/_app/vendors');

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

  const setSearch = useCallback(
    (patch: Partial<VendorsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  const status: StatusFilter = search.status ?? 'active';
  const shown = useMemo(() => (vendors ? filterVendors(vendors, { q, status }) : null), [vendors, q, status]);
  const key = JSON.stringify([q.trim().toLowerCase(), status]);
  const rows = useLocalRows(key, shown, 'Vendors');
  const openRow = useCallback((row: Vendor) => setSearch({ open: row.id }), [setSearch]);
  const closeRow = useCallback(() => setSearch({ open: undefined }), [setSearch]);
  const list = useListPage({ key, rows, openId: search.open, onOpen: openRow, onClose: closeRow, dialogOpen: dialog !== null });
  const { focusSearch, gridElement } = list;
  const remember = useCallback((vendor: Vendor, removed: readonly string[] = []) => {
    setAnswers((prev) => ({ vendors: new Map(prev.vendors).set(vendor.id, vendor), removed: new Set([...prev.removed, ...removed]) }));
  }, []);

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

  const none = vendors !== null && vendors.filter((v) => !v.deleted).length === 0;
  const total = shown?.length ?? 0;
  const openVendor = search.open ? (vendors?.find((v) => v.id === search.open) ?? null) : undefined;
  const spec = vendorsSpec({
    q, setQ, status, setSearch, focusSearch, none, onAdd: () => setDialog({ kind: 'add' }), onUpload: () => setDialog({ kind: 'upload' }),
  });

  return (
    <div className="vendors">
      <div className="page-header">
        <h1>Vendors</h1>
        <SavedViewsBar list="vendors" />
        {vendors !== null && total > 0 && <span className="page-label" data-testid="vendor-count">{vendorCount(total)}</span>}
        <span className="spacer" />
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
      <ListPage spec={spec} list={list} loading={vendors === null} filtered={q.trim() !== '' || status !== 'active'} quiet={dialog !== null} />
      {search.open && openVendor !== undefined && (
        <VendorDrawer vendor={openVendor} client={client} online={online} onAnswer={remember} onEdit={(vendor) => setDialog({ kind: 'edit', vendor })}
          onClose={() => {
            closeRow();
            gridElement()?.focus();
          }}
          returnFocus={gridElement} />
      )}
      <VendorDialogs dialog={dialog} vendors={vendors} openId={search.open} client={client} online={online} remember={remember}
        onClose={() => setDialog(null)} onShow={(id) => setSearch({ open: id })} returnFocus={gridElement} />
    </div>
  );
}

interface VendorDialogsProps {
  dialog: Dialog;
  vendors: Vendor[] | null;
  openId: string | undefined;
  client: DataClient;
  online: boolean;
  remember(vendor: Vendor, removed?: readonly string[]): void;
  onClose(): void;
  /** After a save or merge: open the vendor in the drawer. */
  onShow(id: string): void;
  returnFocus(): HTMLElement | null | undefined;
}

/** The page's dialogs: add / edit, upload, merge. */
function VendorDialogs({ dialog, vendors, openId, client, online, remember, onClose, onShow, returnFocus }: VendorDialogsProps) {
  if (dialog?.kind === 'add' || dialog?.kind === 'edit') {
    return (
      <VendorFormDialog vendor={dialog.kind === 'edit' ? dialog.vendor : null} client={client} online={online} onAnswer={remember} onClose={onClose}
        onSaved={(vendor, created) => {
          onClose();
          toastInfo(`${vendor.name} ${created ? 'added' : 'saved'}.`);
          onShow(vendor.id);
        }}
        returnFocus={returnFocus} />
    );
  }
  if (dialog?.kind === 'upload') return <UploadDialog client={client} online={online} onClose={onClose} returnFocus={returnFocus} />;
  if (dialog?.kind === 'merge' && vendors) {
    return (
      <MergeDialog vendors={vendors} initial={openId} client={client} online={online} onClose={onClose}
        onMerged={(vendor, merged) => {
          remember(vendor, merged);
          onClose();
          toastInfo(`Merged ${vendorCount(merged.length)} into ${endSentence(vendor.name)}`);
          onShow(vendor.id);
        }}
        returnFocus={returnFocus} />
    );
  }
  return null;
}
