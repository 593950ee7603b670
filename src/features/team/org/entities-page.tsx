import { useCallback, useMemo, useState } from 'react';
import type { BusinessEntity } from '../../../../schema/api/calls-admin.ts';
import type { BusinessEntityRow } from '../../../../schema/entities/business-entity.ts';
import { Button } from '../../../components/button.tsx';
import { DeleteDialog } from '../../../components/confirm-dialog.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import type { Command } from '../../../lib/commands.ts';
import { usePageCommands } from '../../../lib/page-commands.ts';
import { toastInfo } from '../../../lib/toast-store.ts';
import { TeamNav } from '../team-nav.tsx';
import { EntityDialog } from './entity-dialog.tsx';
import { countryName } from './org-choices.ts';
import { ListLoading, OfflineNote, OwnersDialog } from './org-dialogs.tsx';
import { entityRows, noAnswers, withAnswers, type Answers, type EntityRowView } from './org-view.ts';
import { useOrgData } from './use-org-data.ts';
import { nameColumn, OrgList, ownersColumn } from './org-list.tsx';
import type { ListColumn } from '../../../lib/list/list-spec.ts';
import { usePageKeys } from './use-page-keys.ts';

type Dialog = { kind: 'create' } | { kind: 'edit' | 'owners' | 'delete'; row: EntityRowView } | null;

const ENTITY_COLUMNS: readonly ListColumn<EntityRowView>[] = [
  nameColumn(),
  { key: 'country', header: 'Country', cell: (r) => r.country },
  { key: 'currency', header: 'Currency', className: 'mono', cell: (r) => r.currency },
  ownersColumn(),
];

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
        { id: 'team.entities.search', label: 'Search entities', group: 'Entities', keywords: ['find'], run: () => document.getElementById('entities-search')?.focus() },
      ],
      [openCreate],
    ),
  );

  usePageKeys(openCreate, online);

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
        {newButton}
      </div>
      {!online && <OfflineNote what="entities" />}
      {!entities && <ListLoading what="entities" />}
      {entities && total === 0 && (
        <EmptyState title="No entities yet" action={newButton}>
          Add the legal entities your business operates through (a UK subsidiary, a German GmbH). People and bills can then be assigned to the entity they belong to.
        </EmptyState>
      )}
      {entities && total > 0 && (
        <OrgList
          label="Entities" what="entities" placeholder="Search name, country, owner…" q={q} setQ={setQ} items={rows} columns={ENTITY_COLUMNS}
          online={online} dialogOpen={dialog !== null}
          actions={[
            ['Edit details', (r) => setDialog({ kind: 'edit', row: r })],
            ['Set owners', (r) => setDialog({ kind: 'owners', row: r })],
            ['Delete', (r) => setDialog({ kind: 'delete', row: r })],
          ]}
        />
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
