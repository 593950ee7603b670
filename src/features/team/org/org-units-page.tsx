import { useCallback, useMemo, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { DeleteDialog } from '../../../components/confirm-dialog.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import type { OrgUnit, OrgUnitResult } from '../../../data-access/types.ts';
import type { Command } from '../../../lib/commands.ts';
import { usePageCommands } from '../../../lib/page-commands.ts';
import { toastInfo } from '../../../lib/toast-store.ts';
import { TeamNav } from '../team-nav.tsx';
import { ListLoading, NameDialog, OfflineNote, OwnersDialog } from './org-dialogs.tsx';
import { OwnersField } from './owners-field.tsx';
import { nameColumn, OrgList, ownersColumn } from './org-list.tsx';
import type { ListColumn } from '../../../lib/list/list-spec.ts';
import {
  deleteImpact, nameError, noAnswers, ORG_WORDS, orgUnitRows, peopleText, withAnswers, type Answers, type OrgUnitKind, type OrgUnitRow,
} from './org-view.ts';
import { useOrgData } from './use-org-data.ts';
import { usePageKeys } from './use-page-keys.ts';

type Dialog = { kind: 'create' } | { kind: 'rename' | 'owners' | 'delete'; row: OrgUnitRow } | null;

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const UNIT_COLUMNS: readonly ListColumn<OrgUnitRow>[] = [
  nameColumn(),
  { key: 'people', header: 'People', className: 'num', cell: (r) => peopleText(r.people) },
  ownersColumn(),
];

/**
 * Issue 14: /team/departments and /team/locations (admins). The list is the mirror's (offline
 * too), with how many people are in each (the mirrored users) and its owners; create, rename,
 * delete and owners are direct calls, so offline the page says they need a connection. The
 * server's answer shows at once; the feed then brings the same row.
 */
export function OrgUnitsPage({ kind }: { kind: OrgUnitKind }) {
  const { client, data, names, online } = useOrgData();
  const words = ORG_WORDS[kind];
  const [answers, setAnswers] = useState<Answers<OrgUnit>>(noAnswers);
  const [q, setQ] = useState('');
  const [dialog, setDialog] = useState<Dialog>(null);
  const units = useMemo(() => (data ? withAnswers<OrgUnit>(data[kind], answers) : null), [data, kind, answers]);
  const rows = useMemo(() => (units && data ? orgUnitRows(units, data.users, kind, q) : []), [units, data, kind, q]);

  const remember = useCallback((r: OrgUnitResult) => {
    if (!r.ok) return r;
    const unit = r.unit;
    setAnswers((prev) => ({
      rows: new Map(prev.rows).set(unit.id, unit),
      removed: unit.deleted ? new Set([...prev.removed, unit.id]) : prev.removed,
    }));
    return null;
  }, []);
  const openCreate = useCallback(() => setDialog({ kind: 'create' }), []);
  usePageCommands(
    useMemo<Command[]>(
      () => [
        { id: `team.${kind}.new`, label: `New ${words.one}`, group: words.title, keywords: ['add', 'create', 'team'], run: openCreate },
        { id: `team.${kind}.search`, label: `Search ${kind}`, group: words.title, keywords: ['find'], run: () => document.getElementById(`${kind}-search`)?.focus() },
      ],
      [kind, words, openCreate],
    ),
  );

  usePageKeys(openCreate, online);

  const newButton = (
    <Button variant="primary" onClick={openCreate} disabled={!online}>
      New {words.one}
    </Button>
  );
  const total = units?.length ?? 0;

  return (
    <div className="org-page">
      <TeamNav current={kind === 'departments' ? '/team/departments' : '/team/locations'} />
      <div className="page-header org-header">
        <h1>{words.title}</h1>
        {units && total > 0 && <span className="page-label">{total.toLocaleString()}</span>}
        <span className="spacer" />
        {newButton}
      </div>
      {!online && <OfflineNote what={kind} />}
      {!units && <ListLoading what={kind} />}
      {units && total === 0 && (
        <EmptyState title={`No ${kind} yet`} action={newButton}>
          {kind === 'departments'
            ? 'Departments group people and their spend for coding, reports and approval rules. Add your first one and choose who owns it.'
            : 'Locations (offices, sites) are used in coding and reports. Add your first one and choose who owns it.'}
        </EmptyState>
      )}
      {units && total > 0 && (
        <OrgList
          label={words.title} what={kind} placeholder="Search name or owner…" q={q} setQ={setQ} items={rows} columns={UNIT_COLUMNS}
          online={online} dialogOpen={dialog !== null}
          actions={[
            ['Rename', (r) => setDialog({ kind: 'rename', row: r })],
            ['Set owners', (r) => setDialog({ kind: 'owners', row: r })],
            ['Delete', (r) => setDialog({ kind: 'delete', row: r })],
          ]}
        />
      )}
      {dialog?.kind === 'create' && data && (
        <CreateDialog kind={kind} data={data} names={names} onClose={() => setDialog(null)} onSaved={remember} client={client} />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={`Rename ${dialog.row.name}`} label="Name" initial={dialog.row.name} confirmLabel="Rename"
          check={(n) => nameError(n, words.one)} onClose={() => setDialog(null)}
          onSave={async (name) => {
            const failure = remember(await client.renameOrgUnit(kind, dialog.row.id, name));
            if (!failure) toastInfo(`${capital(words.one)} renamed to ${name}.`);
            return failure;
          }}
        />
      )}
      {dialog?.kind === 'owners' && data && (
        <OwnersDialog
          title={`Owners of ${dialog.row.name}`}
          description={`The people responsible for this ${words.one}. Saving replaces the whole list.`}
          initial={dialog.row.row.owner_ids} users={data.users} names={names} onClose={() => setDialog(null)}
          onSave={async (ids) => {
            const failure = remember(await client.setOrgUnitOwners(kind, dialog.row.id, ids));
            if (!failure) toastInfo(`Owners of ${dialog.row.name} saved.`);
            return failure;
          }}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          title={`Delete ${dialog.row.name}?`}
          description={deleteImpact(kind, dialog.row.name, dialog.row.people)}
          confirmLabel={`Delete ${words.one}`}
          onClose={() => setDialog(null)}
          onDelete={async () => {
            const r = await client.deleteOrgUnit(kind, dialog.row.id);
            const failure = remember(r);
            if (failure) return failure.error;
            toastInfo(`${dialog.row.name} deleted.`);
            return null;
          }}
        />
      )}
    </div>
  );
}

interface CreateDialogProps {
  kind: OrgUnitKind;
  data: NonNullable<ReturnType<typeof useOrgData>['data']>;
  names: ReadonlyMap<string, string>;
  client: ReturnType<typeof useOrgData>['client'];
  onSaved(r: OrgUnitResult): unknown;
  onClose(): void;
}

/** A new department or location, with its owners chosen at once (two calls: create, then owners). */
function CreateDialog({ kind, data, names, client, onSaved, onClose }: CreateDialogProps) {
  const words = ORG_WORDS[kind];
  const [owners, setOwners] = useState<string[]>([]);
  return (
    <NameDialog
      title={`New ${words.one}`} label="Name" initial="" confirmLabel={`Create ${words.one}`}
      check={(n) => nameError(n, words.one)} onClose={onClose}
      onSave={async (name) => {
        const created = await client.createOrgUnit(kind, name);
        if (!created.ok) return created;
        onSaved(created);
        if (owners.length === 0) {
          toastInfo(`${capital(words.one)} ${name} created.`);
          return null;
        }
        const withOwners = await client.setOrgUnitOwners(kind, created.unit.id, owners);
        onSaved(withOwners);
        // The row exists either way: a refused owner list is said, not retried behind the admin's back.
        toastInfo(withOwners.ok ? `${capital(words.one)} ${name} created.` : `${capital(words.one)} ${name} created, but its owners were not saved: ${withOwners.error.message}`);
        return null;
      }}
    >
      <OwnersField value={owners} onChange={setOwners} users={data.users} names={names} />
    </NameDialog>
  );
}
