import { SearchBox } from '../../components/search-box.tsx';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { useRowPointer } from '../../lib/list/use-row-pointer.ts';
import { usePageShortcuts } from '../../lib/list/use-page-shortcuts.ts';
import { useCallback, useMemo, useRef, type Ref } from 'react';
import { CARD_STATUSES, type CardFilter, type CardSort } from '../../../schema/entities/card.ts';
import type { CardActor } from '../../../schema/card-rules.ts';
import { Button } from '../../components/button.tsx';
import { SelectField, type SelectOption } from '../../components/select-field.tsx';
import { TableFooter } from '../../components/table-footer.tsx';
import type { DataClient } from '../../data-access/types.ts';
import type { CardView } from '../../lib/cards.ts';
import { formatCount } from '../../lib/format.ts';
import { headerCheckState } from '../../lib/list/selection.ts';
import { useSelection, type SelectionApi } from '../../lib/list/use-selection.ts';
import { useTableKeys } from '../../lib/list/use-table-keys.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { footerHint, SHORTCUTS } from '../../lib/shortcuts.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { useInstantSearch } from '../../lib/use-instant-search.ts';
import { statusText } from './card-view.ts';
import { runCardCommand } from './commands.ts';
import { CardsTable } from './cards-table.tsx';
import { DEFAULT_SORT, filterFromSearch, hasStructuredFilter, isPhysicalOf, kindValue, queryKey, type CardsSearch } from './search-params.ts';
import { matchingCardIds, useCardRows, useLockChanges } from './use-cards.ts';

/** The list's keys minus coding (cards have none), plus l / u and the global ones. */
const KEY_HINT = footerHint(['list', 'cards', 'global'], SHORTCUTS.filter((s) => s.id !== 'list.code'));

const ALL: readonly SelectOption[] = [{ value: '', label: 'All' }];
const STATUS_OPTIONS = CARD_STATUSES.map((s) => ({ value: s, label: statusText(s) }));
const KIND_OPTIONS = [{ value: 'virtual', label: 'Virtual' }, { value: 'physical', label: 'Physical' }];
const SORT_OPTIONS = [
  { value: 'name_asc', label: 'Name A–Z' },
  { value: 'created_desc', label: 'Newest first' },
  { value: 'limit_desc', label: 'Highest limit' },
];

export interface ManagedCardsProps {
  /** "All cards" (admins) or "Team cards" (managers): the grid's name. */
  label: string;
  client: DataClient;
  version: number;
  actor: CardActor;
  reference: ReferenceView;
  search: CardsSearch;
  setSearch(patch: Partial<CardsSearch>): void;
  /** The first mirror still runs: the list holds what has arrived. */
  partialText: (shown: number, filtered: boolean) => string | null;
  dialogOpen: boolean;
  gridRef: Ref<HTMLDivElement>;
}

/**
 * Every card the viewer manages (an admin's business, a manager's team), as a virtualised grid:
 * search and filters in the URL, multi-select (x, shift-click ranges, "select all N matching")
 * and bulk Lock / Unlock (buttons, or l / u on the selection else the current row; `card.bulkLock`,
 * split above 1,000 by the command), with how many
 * cards still wait to sync.
 */
export function ManagedCards(props: ManagedCardsProps) {
  const { label, client, version, actor, reference, search, setSearch, partialText, dialogOpen, gridRef } = props;
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  const filter: CardFilter = useMemo(() => filterFromSearch({ ...search, q }), [search, q]);
  const sort = search.sort ?? DEFAULT_SORT;
  const key = queryKey(filter, sort);
  const rows = useCardRows(client, filter, sort, version);
  const total = rows.total ?? 0;
  const filtered = filter.q !== undefined || hasStructuredFilter(filter);
  const selection = useSelection(key, rows, () => matchingCardIds(client, filter, sort));
  const locks = useLockChanges(client, version);
  const scrollRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const gridElement = useCallback(() => scrollRef.current?.closest<HTMLElement>('[role="grid"]'), []);
  const openRow = useCallback((row: CardView) => setSearch({ open: row.id }), [setSearch]);
  const closeDrawer = useCallback(() => {
    setSearch({ open: undefined });
    gridElement()?.focus();
  }, [setSearch, gridElement]);

  const active = useTableKeys({
    key,
    total,
    rows,
    selection,
    drawerOpen: search.open !== undefined,
    dialogOpen,
    onOpen: openRow,
    onCloseDrawer: closeDrawer,
    onFocusSearch: () => searchRef.current?.focus(),
  });
  const { onRowClick, onToggle } = useRowPointer<CardView>(active, selection, openRow);

  /** The selection, else the current row: what the bulk buttons, l and u act on. */
  const lockTargets = useCallback(
    async (lock: boolean) => {
      const current = active.index >= 0 ? rows.row(active.index) : undefined;
      const ids = selection.ids.size > 0 ? [...selection.ids] : current ? [current.id] : [];
      if (ids.length === 0) return toastInfo(`Select cards to ${lock ? 'lock' : 'unlock'}`);
      if (await lockCards(client, ids, lock, filter, sort)) selection.clear();
    },
    [active.index, rows, selection, client, filter, sort],
  );
  usePageShortcuts(!dialogOpen, 'cards', ['cards.lock', 'cards.unlock'], (id) => void lockTargets(id === 'cards.lock'));

  const holders = useMemo(() => {
    const team = actor.team;
    return team === 'all' ? reference.options.users : reference.options.users.filter((o) => team.includes(o.value));
  }, [actor.team, reference.options.users]);
  const partial = rows.total === null ? null : partialText(total, filtered);
  const single = (ids: readonly string[] | undefined) => ids?.[0] ?? '';

  return (
    <div className="managed-cards" ref={gridRef}>
      <div className="cards-toolbar">
        <SearchBox id="card-search" label="Search cards" placeholder="Search card name, last four, cardholder…" ref={searchRef} value={q} onChange={setQ} onLeave={() => gridElement()?.focus()} />
        <div className="filters" role="group" aria-label="Filters">
          <SelectField variant="filter" label="Status" value={single(filter.statuses)} options={STATUS_OPTIONS} leading={ALL}
            onChange={(v) => setSearch({ statuses: v ? [v as (typeof CARD_STATUSES)[number]] : undefined })} />
          <SelectField variant="filter" label="Cardholder" value={single(filter.user_ids)} options={holders} leading={ALL}
            onChange={(v) => setSearch({ user_ids: v ? [v] : undefined })} />
          <SelectField variant="filter" label="Department" value={single(filter.department_ids)} options={reference.options.departments} leading={ALL}
            onChange={(v) => setSearch({ department_ids: v ? [v] : undefined })} />
          <SelectField variant="filter" label="Type" value={kindValue(filter.is_physical)} options={KIND_OPTIONS} leading={ALL}
            onChange={(v) => setSearch({ is_physical: isPhysicalOf(v) })} />
          <SelectField variant="filter" label="Sort" value={sort} options={SORT_OPTIONS}
            onChange={(v) => setSearch({ sort: v === DEFAULT_SORT ? undefined : (v as CardsSearch['sort']) })} />
          {hasStructuredFilter(filter) && (
            <Button variant="ghost" size="sm" onClick={() => setSearch({ statuses: undefined, user_ids: undefined, department_ids: undefined, is_physical: undefined })}>
              Clear filters
            </Button>
          )}
          <ExportCsvButton collection="cards" filter={filter} sort={sort} noun="cards" />
        </div>
      </div>
      <p className="list-totals" data-testid="card-count">
        {rows.total === null ? '\u00a0' : `${formatCount(total)} ${total === 1 ? 'card' : 'cards'}${filtered ? ' match' : ''}`}
      </p>
      {partial && (
        <p className="partial-notice" role="note" data-testid="partial-results">
          {partial}
        </p>
      )}
      {locks && (locks.waiting > 0 || locks.failed > 0) && (
        <p className="lock-status" role="status" data-testid="lock-status">
          {locks.waiting > 0 && `${formatCount(locks.waiting)} ${locks.waiting === 1 ? 'card' : 'cards'} locked or unlocked here, waiting to sync.`}
          {locks.failed > 0 && ` ${formatCount(locks.failed)} refused by the server: see the cards marked Failed.`}
        </p>
      )}
      {selection.ids.size > 0 && <BulkLockBar selection={selection} total={total} onLock={(lock) => void lockTargets(lock)} />}
      <CardsTable
        label={label}
        rows={rows}
        total={total}
        loaded={rows.total !== null}
        filtered={filtered}
        selected={selection.ids}
        headerState={headerCheckState(selection.ids.size, total)}
        active={active.index}
        openId={search.open}
        queryKey={key}
        userName={reference.names.user}
        departmentName={reference.names.department}
        scrollRef={scrollRef}
        onHeaderToggle={() => (selection.ids.size > 0 ? selection.clear() : void selection.selectAllMatching())}
        onToggle={onToggle}
        onRowClick={onRowClick}
        onKeyDown={active.onGridKeyDown}
        onFocus={active.onGridFocus}
        onVisibleRange={() => undefined}
      />
      <TableFooter hint={KEY_HINT} />
    </div>
  );
}

/**
 * Locks or unlocks cards by id. Only cards whose status allows the move are sent (active cards
 * lock, locked ones unlock; the server refuses a whole batch over one wrong card), and the toast
 * says how many were left out and why. True when something was queued.
 */
async function lockCards(client: DataClient, ids: readonly string[], lock: boolean, filter: CardFilter, sort: CardSort): Promise<boolean> {
  const eligible = new Set(await matchingCardIds(client, { ...filter, statuses: [lock ? 'ACTIVE' : 'LOCKED'] }, sort));
  const chosen = ids.filter((id) => eligible.has(id));
  const skipped = ids.length - chosen.length;
  const why = lock ? 'only active cards can be locked' : 'only locked cards can be unlocked';
  const noun = (n: number) => `${formatCount(n)} ${n === 1 ? 'card' : 'cards'}`;
  if (chosen.length === 0) {
    toastInfo(ids.length === 1 ? `This card was not changed: ${why}.` : `None of the selected cards changed: ${why}.`);
    return false;
  }
  const done = `${lock ? 'Locked' : 'Unlocked'} ${noun(chosen.length)} here; waiting to sync.${skipped > 0 ? ` ${noun(skipped)} left as they were (${why}).` : ''}`;
  return runCardCommand(client, 'card.bulkLock', { card_ids: chosen, lock }, done);
}

/** The selection's bulk actions: how many are selected, "select all N matching", Lock / Unlock. */
function BulkLockBar({ selection, total, onLock }: { selection: SelectionApi; total: number; onLock(lock: boolean): void }) {
  const count = selection.ids.size;
  return (
    <div className="bulk-bar" role="region" aria-label="Selection">
      <strong data-testid="selection-count">{formatCount(count)} selected</strong>
      {count < total && (
        <button type="button" className="btn-link" onClick={() => void selection.selectAllMatching()}>
          Select all {formatCount(total)} matching
        </button>
      )}
      <span className="spacer" />
      <Button size="sm" variant="primary" onClick={() => onLock(true)}>
        Lock {formatCount(count)}
      </Button>
      <Button size="sm" onClick={() => onLock(false)}>
        Unlock {formatCount(count)}
      </Button>
      <Button variant="ghost" size="sm" onClick={selection.clear}>
        Clear selection
      </Button>
    </div>
  );
}



