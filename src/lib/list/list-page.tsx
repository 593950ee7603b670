import { Button } from '../../components/button.tsx';
import { SearchBox } from '../../components/search-box.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { ListSkeleton } from '../../components/skeleton.tsx';
import { TableFooter } from '../../components/table-footer.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import { formatCount } from '../format.ts';
import { partialResultsText } from '../sync-status-text.ts';
import { ListGrid } from './list-grid.tsx';
import type { ListSpec } from './list-spec.ts';
import type { ListPageState } from './use-list-page.ts';
import { usePageShortcuts } from './use-page-shortcuts.ts';

export interface ListPageProps<T extends { id: string }> {
  spec: ListSpec<T>;
  list: ListPageState<T>;
  /** The list's source has not answered yet: skeleton rows instead of the grid. */
  loading?: boolean;
  /** A search or filter narrows the list (the notice's and the blank state's words). */
  filtered: boolean;
  /** The page's keys are quiet (a dialog is open). */
  quiet?: boolean;
}

/**
 * A list page's body from its spec (list-spec.ts): the toolbar (search, filters, sort), the count,
 * the first-mirror notice, the bulk bar, the grid (or its skeleton, or the blank state) and the
 * keyboard hint. The page keeps its header, drawer and dialogs.
 */
export function ListPage<T extends { id: string }>({ spec, list, loading = false, filtered, quiet = false }: ListPageProps<T>) {
  const shortcuts = spec.shortcuts;
  usePageShortcuts(!quiet && shortcuts !== undefined, shortcuts?.scope ?? 'list', shortcuts?.ids ?? [], (id) => shortcuts?.run(id));
  const nouns = spec.partialNouns;
  const answered = list.rows.total !== null;
  const partial = useAppState((s) => (nouns && answered ? partialResultsText(s.status, list.total, filtered, nouns) : null));
  const blank = spec.blank !== undefined && !loading && answered && list.total === 0 && !filtered;
  return (
    <div className={`list-page ${spec.gridClassName}-page`}>
      {spec.toolbar ?? <ListToolbar spec={spec} list={list} />}
      {spec.countLine}
      {!spec.countLine && spec.countText && (
        <p className="list-totals" data-testid={spec.countTestId}>
          {answered ? spec.countText(list.total) : '\u00a0'}
        </p>
      )}
      {partial && (
        <p className="partial-notice" role="note" data-testid="partial-results">
          {partial}
        </p>
      )}
      {spec.notices}
      {spec.select && (list.selection.ids.size > 0 || spec.select.idleText) && <BulkBar spec={spec} list={list} />}
      {loading ? <ListSkeleton what={spec.loadingWhat} /> : blank ? spec.blank : <ListGrid spec={spec} list={list} />}
      <TableFooter hint={spec.keyHint} />
    </div>
  );
}

function ListToolbar<T extends { id: string }>({ spec, list }: { spec: ListSpec<T>; list: ListPageState<T> }) {
  const { search, filters = [], sort } = spec;
  const { searchRef, gridElement } = list;
  if (!search && filters.length === 0 && !sort && !spec.toolbarExtra) return null;
  return (
    <div className="list-toolbar">
      {search && (
        <SearchBox id={search.id} label={search.label} placeholder={search.placeholder} ref={searchRef} value={search.value}
          onChange={search.onChange} onLeave={() => gridElement()?.focus()} />
      )}
      {(filters.length > 0 || sort || spec.toolbarExtra) && (
        <div className="filters" role="group" aria-label="Filters">
          {filters.map((f) => (
            <SelectField key={f.key} variant="filter" label={f.label} value={f.value} options={f.options} leading={f.leading ?? []} onChange={f.onChange} />
          ))}
          {sort && <SelectField variant="filter" label="Sort" value={sort.value} options={sort.options} onChange={sort.onChange} />}
          {spec.clearFilters && (
            <Button variant="ghost" size="sm" onClick={spec.clearFilters}>
              Clear filters
            </Button>
          )}
          {spec.toolbarExtra}
        </div>
      )}
    </div>
  );
}

/** The selection's bar: how many (else the spec's idle words), "Select all N matching", the spec's bulk actions (or its own `bar`), Clear. */
function BulkBar<T extends { id: string }>({ spec, list }: { spec: ListSpec<T>; list: ListPageState<T> }) {
  const { selection, total, rows } = list;
  const count = selection.ids.size;
  const idle = spec.select?.idleText;
  return (
    <div className={idle ? 'bulk-bar bulk-bar-idle' : 'bulk-bar'} role="region" aria-label="Selection">
      {count > 0 && spec.select?.summary ? spec.select.summary(selection.ids) : (
        <strong data-testid="selection-count">
          {count > 0 || !idle ? `${formatCount(count)} selected` : idle(rows.total === null || rows.waiting ? null : total)}
        </strong>
      )}
      {count < total && (
        <button type="button" className="btn-link" onClick={() => void selection.selectAllMatching()}>
          Select all {formatCount(total)} matching
        </button>
      )}
      <span className="spacer" />
      {spec.select?.bar ??
        spec.select?.actions.map((a) => (
          <Button key={a.key} size="sm" variant={a.variant ?? 'secondary'} disabled={idle !== undefined && total === 0} onClick={() => a.run([...selection.ids])}>
            {a.label(count)}
          </Button>
        ))}
      {count > 0 && (
        <Button variant="ghost" size="sm" onClick={selection.clear}>
          Clear selection
        </Button>
      )}
    </div>
  );
}
