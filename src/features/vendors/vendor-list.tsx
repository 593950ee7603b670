import type { Vendor } from '../../../schema/entities/vendor.ts';
import { StatusPill } from '../../components/status-pill.tsx';
import { formatShortDay } from '../../lib/format.ts';
import type { ListColumn, ListSpec } from '../../lib/list/list-spec.ts';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { listKeyHint } from '../../lib/list/key-hint.ts';
import { STATUS_FILTERS, type StatusFilter, type VendorsSearch } from './search-params.ts';
import { bankText, contactEmail, placeText } from './vendor-view.ts';

/** The vendors grid's columns: name, contact email, place, masked bank, updated. */
export const VENDOR_COLUMNS: readonly ListColumn<Vendor>[] = [
  {
    key: 'name',
    header: 'Name',
    className: 'vendor-name',
    sorted: 'ascending',
    cell: (row) => (
      <>
        <span className="vendor-name-text">{row.name}</span>
        {row.status === 'ARCHIVED' && <StatusPill tone="neutral">Archived</StatusPill>}
        {row.payee_approval && (
          <StatusPill tone={row.payee_approval.status === 'PENDING' ? 'info' : 'danger'}>
            {row.payee_approval.status === 'PENDING' ? 'Waiting for payee approval' : 'Payee not approved'}
          </StatusPill>
        )}
      </>
    ),
  },
  { key: 'email', header: 'Contact email', cell: (row) => contactEmail(row) ?? '—', muted: (row) => !contactEmail(row) },
  { key: 'place', header: 'State, country', cell: (row) => placeText(row.address) },
  {
    key: 'bank',
    header: 'Bank account',
    className: 'vendor-bank',
    cell: (row) => bankText(row.bank_account),
    muted: (row) => !row.bank_account,
  },
  {
    key: 'updated',
    header: 'Updated',
    cell: (row) => <time dateTime={row.updated_at}>{formatShortDay(row.updated_at)}</time>,
    muted: () => true,
  },
];

/** The list's keys minus selection and coding (vendors have no bulk action in the table). */
const KEY_HINT = listKeyHint({});
const STATUS_OPTIONS = STATUS_FILTERS.map((f) => ({ value: f.key, label: f.label }));

export interface VendorsSpecOptions {
  q: string;
  setQ(q: string): void;
  status: StatusFilter;
  setSearch(patch: Partial<VendorsSearch>): void;
  focusSearch(): void;
  /** No vendor at all: the blank state with its two ways in. */
  none: boolean;
  onAdd(): void;
  onUpload(): void;
}

/** The vendors list, declared: search, the status filter, the empty words and the blank state. */
export function vendorsSpec(o: VendorsSpecOptions): ListSpec<Vendor> {
  const { q, status, setSearch } = o;
  const filtered = q.trim() !== '' || status !== 'active';
  return {
    label: 'Vendors',
    rowIdPrefix: 'vendor-row',
    rowClassName: 'vendor-row',
    gridClassName: 'grid-vendors',
    columns: VENDOR_COLUMNS,
    search: { id: 'vendor-search', label: 'Search vendors', placeholder: 'Search name, email, contact…', value: q, onChange: o.setQ },
    filters: [
      {
        key: 'status', label: 'Status', value: status, options: STATUS_OPTIONS,
        onChange: (next) => setSearch({ status: next === 'active' ? undefined : (next as VendorsSearch['status']) }),
      },
    ],
    emptyText: q.trim() ? `No vendors match “${q.trim()}”` : status === 'archived' ? 'No archived vendors' : 'No vendors here',
    emptyHint: filtered ? (
      <Button size="sm" onClick={() => {
        o.setQ('');
        setSearch({ q: undefined, status: undefined });
        o.focusSearch();
      }}>Clear search and filters</Button>
    ) : undefined,
    ...(o.none
      ? {
          blank: (
            <EmptyState
              title="No vendors yet"
              action={
                <div className="vendor-empty-actions">
                  <Button variant="primary" onClick={o.onAdd}>Add vendor</Button>
                  <Button onClick={o.onUpload}>Upload CSV</Button>
                </div>
              }
            >
              Vendors are the businesses you pay by bill. Add one, or upload a spreadsheet of them at once.
            </EmptyState>
          ),
        }
      : {}),
    waitingText: 'Opening your vendors…',
    loadingWhat: 'vendors',
    keyHint: KEY_HINT,
  };
}
