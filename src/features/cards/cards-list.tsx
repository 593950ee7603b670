import type { ReactNode } from 'react';
import { CARD_STATUSES, type CardFilter, type CardSort } from '../../../schema/entities/card.ts';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import type { SelectOption } from '../../components/select-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import type { CardView } from '../../lib/cards.ts';
import { cardName } from '../../lib/card-labels.ts';
import { formatCount } from '../../lib/format.ts';
import { listKeyHint } from '../../lib/list/key-hint.ts';
import type { ListColumn, ListSpec } from '../../lib/list/list-spec.ts';
import type { ReferenceNames } from '../../lib/reference-data.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { chipText, limitText, STATUS_TONES, statusText } from './card-view.ts';
import { runCardCommand } from './commands.ts';
import { DEFAULT_SORT, hasStructuredFilter, isPhysicalOf, kindValue, type CardsSearch } from './search-params.ts';
import { matchingCardIds } from './use-cards.ts';

/** A card as a card on a phone (`.grid-cards .cardlist-row` in cards.css has this height). */
const CARD_HEIGHT = 88;
/** The list's keys minus coding (cards have none), plus l / u and the global ones. */
const KEY_HINT = listKeyHint({ select: true, scopes: ['cards'] });
const ALL: readonly SelectOption[] = [{ value: '', label: 'All' }];
const STATUS_OPTIONS = CARD_STATUSES.map((s) => ({ value: s, label: statusText(s) }));
const KIND_OPTIONS = [{ value: 'virtual', label: 'Virtual' }, { value: 'physical', label: 'Physical' }];
const SORT_OPTIONS = [
  { value: 'name_asc', label: 'Name A–Z' },
  { value: 'created_desc', label: 'Newest first' },
  { value: 'limit_desc', label: 'Highest limit' },
];
const FAILED_MARKS = new Set(['failed', 'conflict', 'needs_step_up']);

/** The managed cards grid's columns: the card (name ••last four), cardholder, status, limit, department. */
function cardColumns(names: ReferenceNames): ListColumn<CardView>[] {
  return [
    {
      key: 'card', header: 'Card', className: 'cell-card',
      cell: (row) => (
        <>
          <span className="cardlist-name">{row.display_name}</span>
          <span className="cardlist-four">{row.last_four ? `••${row.last_four}` : 'No number yet'}</span>
          <span className="cardlist-kind muted">{row.is_physical ? 'Physical' : 'Virtual'}</span>
        </>
      ),
    },
    { key: 'holder', header: 'Cardholder', className: 'cell-cardholder', cell: (row) => names.user(row.user_id) || '—' },
    {
      key: 'status', header: 'Status', className: 'cell-status',
      cell: (row) => (
        <span className="marks">
          <StatusPill tone={STATUS_TONES[row.status]}>{chipText(row)}</StatusPill>
          {row.pending && FAILED_MARKS.has(row.pending) && <SyncMark row={row} />}
        </span>
      ),
    },
    { key: 'limit', header: 'Limit', className: 'cell-limit', cell: (row) => limitText(row.limit) },
    { key: 'department', header: 'Department', className: 'cell-department', cell: (row) => names.department(row.department_id) || '—' },
  ];
}

export interface CardsSpecOptions {
  /** "All cards" or "Team cards". */
  label: string;
  client: DataClient;
  names: ReferenceNames;
  /** The cardholders the viewer may filter by (their team, or everyone). */
  holders: readonly SelectOption[];
  departments: readonly SelectOption[];
  q: string;
  setQ(q: string): void;
  filter: CardFilter;
  sort: CardSort;
  setSearch(patch: Partial<CardsSearch>): void;
  /** Lock (true) or unlock the selection, else the current card. */
  onLock(lock: boolean): void;
  notices: ReactNode;
}

/**
 * The managed cards list, declared: search, filters and sort in the URL, multi-select with bulk
 * Lock / Unlock (buttons, or l / u), the first-mirror notice, cards on a phone.
 */
export function cardsSpec(o: CardsSpecOptions): ListSpec<CardView> {
  const { filter, sort, setSearch, client } = o;
  const filtered = filter.q !== undefined || hasStructuredFilter(filter);
  const single = (ids: readonly string[] | undefined) => ids?.[0] ?? '';
  return {
    label: o.label,
    rowIdPrefix: 'card-row',
    rowClassName: 'cardlist-row',
    gridClassName: 'grid-cardlist',
    phone: { className: 'grid-cards', rowHeight: CARD_HEIGHT },
    columns: cardColumns(o.names),
    pending: (row) => row.pending,
    search: { id: 'card-search', label: 'Search cards', placeholder: 'Search card name, last four, cardholder…', value: o.q, onChange: o.setQ },
    filters: [
      { key: 'status', label: 'Status', value: single(filter.statuses), options: STATUS_OPTIONS, leading: ALL,
        onChange: (v) => setSearch({ statuses: v ? [v as (typeof CARD_STATUSES)[number]] : undefined }) },
      { key: 'holder', label: 'Cardholder', value: single(filter.user_ids), options: o.holders, leading: ALL, onChange: (v) => setSearch({ user_ids: v ? [v] : undefined }) },
      { key: 'department', label: 'Department', value: single(filter.department_ids), options: o.departments, leading: ALL,
        onChange: (v) => setSearch({ department_ids: v ? [v] : undefined }) },
      { key: 'kind', label: 'Type', value: kindValue(filter.is_physical), options: KIND_OPTIONS, leading: ALL, onChange: (v) => setSearch({ is_physical: isPhysicalOf(v) }) },
    ],
    sort: { value: sort, options: SORT_OPTIONS, onChange: (v) => setSearch({ sort: v === DEFAULT_SORT ? undefined : (v as CardsSearch['sort']) }) },
    ...(hasStructuredFilter(filter)
      ? { clearFilters: () => setSearch({ statuses: undefined, user_ids: undefined, department_ids: undefined, is_physical: undefined }) }
      : {}),
    toolbarExtra: <ExportCsvButton collection="cards" filter={filter} sort={sort} noun="cards" />,
    select: {
      label: (row) => {
        const holder = o.names.user(row.user_id);
        return `Select ${cardName(row)}${holder ? `, ${holder}` : ''}`;
      },
      matchingIds: () => matchingCardIds(client, filter, sort),
      actions: [
        { key: 'lock', label: (n) => `Lock ${formatCount(n)}`, variant: 'primary', run: () => o.onLock(true) },
        { key: 'unlock', label: (n) => `Unlock ${formatCount(n)}`, run: () => o.onLock(false) },
      ],
    },
    shortcuts: { scope: 'cards', ids: ['cards.lock', 'cards.unlock'], run: (id) => o.onLock(id === 'cards.lock') },
    countText: (total) => `${formatCount(total)} ${total === 1 ? 'card' : 'cards'}${filtered ? ' match' : ''}`,
    countTestId: 'card-count',
    partialNouns: ['card', 'cards'],
    notices: o.notices,
    emptyText: filtered ? 'No cards match.' : 'No cards yet',
    emptyHint: filtered ? 'Try a shorter search or fewer filters.' : 'Issue a card to get started.',
    waitingText: 'Opening your saved cards…',
    loadingWhat: 'cards',
    keyHint: KEY_HINT,
  };
}

/**
 * Locks or unlocks cards by id. Only cards whose status allows the move are sent (active cards
 * lock, locked ones unlock; the server refuses a whole batch over one wrong card), and the toast
 * says how many were left out and why. True when something was queued.
 */
export async function lockCards(client: DataClient, ids: readonly string[], lock: boolean, filter: CardFilter, sort: CardSort): Promise<boolean> {
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
