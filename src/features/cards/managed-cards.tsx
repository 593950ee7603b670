import { useCallback, useMemo, type Ref } from 'react';
import type { CardFilter } from '../../../schema/entities/card.ts';
import type { CardActor } from '../../../schema/card-rules.ts';
import type { DataClient } from '../../data-access/types.ts';
import type { CardView } from '../../lib/cards.ts';
import { formatCount } from '../../lib/format.ts';
import { ListPage } from '../../lib/list/list-page.tsx';
import { useListPage } from '../../lib/list/use-list-page.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { useInstantSearch } from '../../lib/use-instant-search.ts';
import { cardsSpec, lockCards } from './cards-list.tsx';
import { DEFAULT_SORT, filterFromSearch, hasStructuredFilter, queryKey, type CardsSearch } from './search-params.ts';
import { matchingCardIds, useCardRows, useLockChanges } from './use-cards.ts';

export interface ManagedCardsProps {
  /** "All cards" (admins) or "Team cards" (managers): the grid's name. */
  label: string;
  client: DataClient;
  /** The data and reference versions summed: the grid reads again on either. */
  version: number;
  /** The data version alone (what its empty answer is compared with once the first mirror completes). */
  dataVersion: number;
  actor: CardActor;
  reference: ReferenceView;
  search: CardsSearch;
  setSearch(patch: Partial<CardsSearch>): void;
  dialogOpen: boolean;
  gridRef: Ref<HTMLDivElement>;
}

/**
 * Every card the viewer manages (an admin's business, a manager's team), as the declarative list
 * (cards-list.tsx): search and filters in the URL, multi-select (x, shift-click ranges, "select
 * all N matching") and bulk Lock / Unlock (buttons, or l / u on the selection else the current
 * row; `card.bulkLock`, split above 1,000 by the command), with how many cards still wait to sync.
 */
export function ManagedCards(props: ManagedCardsProps) {
  const { label, client, version, dataVersion, actor, reference, search, setSearch, dialogOpen, gridRef } = props;
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  const filter: CardFilter = useMemo(() => filterFromSearch({ ...search, q }), [search, q]);
  const sort = search.sort ?? DEFAULT_SORT;
  const key = queryKey(filter, sort);
  const rows = useCardRows(client, filter, sort, version, dataVersion);
  const locks = useLockChanges(client, version);
  const openRow = useCallback((row: CardView) => setSearch({ open: row.id }), [setSearch]);
  const closeRow = useCallback(() => setSearch({ open: undefined }), [setSearch]);
  const matchingIds = useCallback(() => matchingCardIds(client, filter, sort), [client, filter, sort]);
  const list = useListPage({ key, rows, openId: search.open, onOpen: openRow, onClose: closeRow, dialogOpen, matchingIds });
  const { targets, selection } = list;

  /** The selection, else the current row: what the bulk buttons, l and u act on. */
  const onLock = useCallback(
    async (lock: boolean) => {
      const ids = targets();
      if (ids.length === 0) return toastInfo(`Select cards to ${lock ? 'lock' : 'unlock'}`);
      if (await lockCards(client, ids, lock, filter, sort)) selection.clear();
    },
    [targets, selection, client, filter, sort],
  );
  const holders = useMemo(() => {
    const team = actor.team;
    return team === 'all' ? reference.options.users : reference.options.users.filter((o) => team.includes(o.value));
  }, [actor.team, reference.options.users]);
  const notices = locks && (locks.waiting > 0 || locks.failed > 0) && (
    <p className="lock-status" role="status" data-testid="lock-status">
      {locks.waiting > 0 && `${formatCount(locks.waiting)} ${locks.waiting === 1 ? 'card' : 'cards'} locked or unlocked here, waiting to sync.`}
      {locks.failed > 0 && ` ${formatCount(locks.failed)} refused by the server: see the cards marked Failed.`}
    </p>
  );
  const spec = cardsSpec({
    label, client, names: reference.names, holders, departments: reference.options.departments, q, setQ, filter, sort, setSearch,
    onLock: (lock) => void onLock(lock), notices,
  });

  return (
    <div className="managed-cards" ref={gridRef}>
      <ListPage spec={spec} list={list} filtered={filter.q !== undefined || hasStructuredFilter(filter)} quiet={dialogOpen} />
    </div>
  );
}
