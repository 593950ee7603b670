import type { ReactNode } from 'react';
import { Button, buttonClass } from '../../../components/button.tsx';
import { Menu, MenuItem } from '../../../components/menu.tsx';
import { listKeyHint } from '../../../lib/list/key-hint.ts';
import type { ListColumn } from '../../../lib/list/list-spec.ts';
import { LocalList } from '../../../lib/list/local-list.tsx';

const KEY_HINT = listKeyHint({ open: false });

/** A row of the organisation lists: a name and its owners' names. */
export interface OwnedView {
  id: string;
  name: string;
  owners: string[];
}

/** The name, with the owners under it on a phone (where the owners column is hidden). */
export function nameColumn<T extends OwnedView>(): ListColumn<T> {
  return {
    key: 'name', header: 'Name', rowHeader: true, className: 'org-name', sorted: 'ascending',
    cell: (r) => (
      <>
        {r.name}
        <span className="org-sub org-phone-only">{r.owners.length > 0 ? `Owners: ${r.owners.join(', ')}` : 'No owners'}</span>
      </>
    ),
  };
}

export function ownersColumn<T extends OwnedView>(): ListColumn<T> {
  return {
    key: 'owners', header: 'Owners', className: 'org-owners-col',
    cell: (r) => (r.owners.length > 0 ? r.owners.join(', ') : 'None'), muted: (r) => r.owners.length === 0,
  };
}

export interface OrgListProps<T extends OwnedView> {
  /** "Departments", "Locations", "Entities": the grid's name. */
  label: string;
  /** What the list is called in the search box and its empty words ("departments"). */
  what: string;
  placeholder: string;
  q: string;
  setQ(q: string): void;
  items: readonly T[];
  columns: readonly ListColumn<T>[];
  /** The row's menu items: [label, action]; disabled offline. */
  actions: readonly (readonly [string, (row: T) => void])[];
  online: boolean;
  dialogOpen: boolean;
}

/**
 * An organisation list (departments, locations, entities) as the declarative list: searched by
 * name and owner, each row's "Edit" menu in its last cell, '/' to search, j/k to move.
 */
export function OrgList<T extends OwnedView>(p: OrgListProps<T>) {
  const emptyHint: ReactNode = <Button size="sm" onClick={() => p.setQ('')}>Clear search</Button>;
  return (
    <LocalList
      queryKey={p.q.trim().toLowerCase()}
      items={p.items}
      dialogOpen={p.dialogOpen}
      filtered={p.q.trim() !== ''}
      spec={{
        label: p.label,
        rowIdPrefix: 'org-row',
        rowClassName: `org-row org-row-${p.columns.length}`,
        gridClassName: 'grid-org',
        rowHeight: 44,
        phone: { className: 'grid-org-phone', rowHeight: 56 },
        columns: p.columns,
        search: { id: `${p.what}-search`, label: `Search ${p.what}`, placeholder: p.placeholder, value: p.q, onChange: p.setQ },
        rowActions: (r) => (
          <Menu label={`Actions for ${r.name}`} trigger={<>Edit<span className="sr-only"> {r.name}</span></>} triggerClassName={buttonClass({ variant: 'ghost', size: 'sm' })}>
            {p.actions.map(([label, run]) => (
              <MenuItem key={label} disabled={!p.online} onSelect={() => run(r)}>{label}</MenuItem>
            ))}
          </Menu>
        ),
        emptyText: `No ${p.what} match “${p.q.trim()}”`,
        emptyHint,
        waitingText: `Opening ${p.what}…`,
        loadingWhat: p.what,
        keyHint: KEY_HINT,
      }}
    />
  );
}
