import { useCallback, useMemo, useRef, useState } from 'react';
import type { BusinessEntity } from '../../../../schema/api/calls-admin.ts';
import type { BusinessEntityRow } from '../../../../schema/entities/business-entity.ts';
import { Button, buttonClass } from '../../../components/button.tsx';
import { DeleteDialog } from '../../../components/confirm-dialog.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { Menu, MenuItem } from '../../../components/menu.tsx';
import { SearchBox } from '../../../components/search-box.tsx';
import type { Command } from '../../../lib/commands.ts';
import { usePageCommands } from '../../../lib/page-commands.ts';
import { toastInfo } from '../../../lib/toast-store.ts';
import { TeamNav } from '../team-nav.tsx';
import { EntityDialog } from './entity-dialog.tsx';
import { countryName } from './org-choices.ts';
import { ListLoading, OfflineNote, OwnersDialog } from './org-dialogs.tsx';
import { entityRows, noAnswers, withAnswers, type Answers, type EntityRowView } from './org-view.ts';
import { useOrgData } from './use-org-data.ts';
import { usePageKeys } from './use-page-keys.ts';

type Dialog = { kind: 'create' } | { kind: 'edit' | 'owners' | 'delete'; row: EntityRowView } | null;

/** An admin call's entity as the mirror holds it (the feed brings the same row a moment later). */
const asRow = (e: BusinessEntity): BusinessEntityRow => ({ ...e, change_seq: 0, deleted: false });

/**
 * Issue 14: /team/entities (admins). The business's legal entities with country, currency and
 * owners, from the mirror (offline too: entities are reference data, so a bill names its entity
 * on any device); create, edit, owners and delete are direct calls, online only. Deleting one that
 * people still belong to is refused by the server, in its words.
 */
export function EntitiesPage() {
  const { client, data, names, online } = useOrgData();
  const [answers, setAnswers] = useState<Answers<BusinessEntityRow>>(noAnswers);
  const [q, setQ] = useState('');
  const [dialog, setDialog] = useState<Dialog>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const entities = useMemo(() => (data ? withAnswers(data.entities, answers) : null), [data, answers]);
  const rows = useMemo(() => (entities && data ? entityRows(entities, data.users, q, countryName) : []), [entities, data, q]);
  const remember = useCallback((row: BusinessEntityRow, removed = false) => {
    setAnswers((prev) => ({
      rows: new Map(prev.rows).set(row.id, row),
      removed: removed ? new Set([...prev.removed, row.id]) : prev.removed,
    }));
  }, []);
  const openCreate = useCallback(() => setDialog({ kind: 'create' }), []);
  usePageCommands(
    useMemo<Command[]>(
      () => [
        { id: 'team.entities.new', label: 'New entity', group: 'Entities', keywords: ['add', 'create', 'subsidiary', 'legal'], run: openCreate },
        { id: 'team.entities.search', label: 'Search entities', group: 'Entities', keywords: ['find'], run: () => searchRef.current?.focus() },
      ],
      [openCreate],
    ),
  );

  const focusSearch = useCallback(() => searchRef.current?.focus(), []);
  usePageKeys(focusSearch, openCreate, online);

  const newButton = (
    <Button variant="primary" onClick={openCreate} disabled={!online}>
      New entity
    </Button>
  );
  const total = entities?.length ?? 0;

  return (
    <div className="org-page">
      <TeamNav current="/team/entities" />
      <div className="page-header org-header">
        <h1>Entities</h1>
        {entities && total > 0 && <span className="page-label">{total.toLocaleString()}</span>}
        <span className="spacer" />
        {entities && total > 0 && (
          <SearchBox
            id="entities-search" label="Search entities" placeholder="Search name, country, owner…" ref={searchRef} value={q} onChange={setQ}
            onLeave={() => tableRef.current?.querySelector<HTMLElement>('button')?.focus()}
          />
        )}
        {newButton}
      </div>
      {!online && <OfflineNote what="entities" />}
      {!entities && <ListLoading what="entities" />}
      {entities && total === 0 && (
        <EmptyState title="No entities yet" action={newButton}>
          Add the legal entities your business operates through (a UK subsidiary, a German GmbH). People and bills can then be assigned to the entity they belong to.
        </EmptyState>
      )}
      {entities && total > 0 && rows.length === 0 && (
        <EmptyState title={`No entities match “${q.trim()}”`} action={<Button onClick={() => setQ('')}>Clear search</Button>} />
      )}
      {rows.length > 0 && (
        <div className="org-table-wrap">
          <table className="org-table" ref={tableRef}>
            <caption className="sr-only">Entities</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Country</th>
                <th scope="col">Currency</th>
                <th scope="col" className="org-owners-col">Owners</th>
                <th scope="col"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-testid="org-row">
                  <th scope="row">
                    {r.name}
                    <span className="org-sub org-phone-only">{r.owners.length > 0 ? `Owners: ${r.owners.join(', ')}` : 'No owners'}</span>
                  </th>
                  <td>{r.country}</td>
                  <td className="mono">{r.currency}</td>
                  <td className="org-owners-col">{r.owners.length > 0 ? r.owners.join(', ') : <span className="muted">None</span>}</td>
                  <td className="org-actions">
                    <Menu label={`Actions for ${r.name}`} trigger={<>Edit<span className="sr-only"> {r.name}</span></>} triggerClassName={buttonClass({ variant: 'ghost', size: 'sm' })}>
                      <MenuItem disabled={!online} onSelect={() => setDialog({ kind: 'edit', row: r })}>Edit details</MenuItem>
                      <MenuItem disabled={!online} onSelect={() => setDialog({ kind: 'owners', row: r })}>Set owners</MenuItem>
                      <MenuItem disabled={!online} onSelect={() => setDialog({ kind: 'delete', row: r })}>Delete</MenuItem>
                    </Menu>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && data && (
        <EntityDialog
          entity={dialog.kind === 'edit' ? dialog.row.row : null} client={client} users={data.users} names={names}
          onAnswer={(e) => remember(asRow(e))} onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'owners' && data && (
        <OwnersDialog
          title={`Owners of ${dialog.row.name}`}
          description="The people responsible for this entity. Saving replaces the whole list."
          initial={dialog.row.row.owner_ids} users={data.users} names={names} onClose={() => setDialog(null)}
          onSave={async (ids) => {
            const r = await client.setEntityOwners(dialog.row.id, ids);
            if (!r.ok) return r;
            remember(asRow(r.entity));
            toastInfo(`Owners of ${dialog.row.name} saved.`);
            return null;
          }}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          title={`Delete ${dialog.row.name}?`}
          description={`People who belong to ${dialog.row.name} must be moved to another entity first. Bills already recorded under it keep it.`}
          confirmLabel="Delete entity"
          onClose={() => setDialog(null)}
          onDelete={async () => {
            const r = await client.deleteEntity(dialog.row.id);
            if (!r.ok) return r.error;
            remember(dialog.row.row, true);
            toastInfo(`${dialog.row.name} deleted.`);
            return null;
          }}
        />
      )}
    </div>
  );
}
