import { ListPage } from './list-page.tsx';
import type { ListSpec } from './list-spec.ts';
import { useListPage, useLocalRows } from './use-list-page.ts';

export interface LocalListProps<T extends { id: string }> {
  spec: ListSpec<T>;
  /** What the list holds now (the server's or the mirror's rows, already searched). */
  items: readonly T[];
  /** Changes with what is asked (a search, a filter): the list starts over. */
  queryKey: string;
  /** Enter or a click on a row; rows open nothing without it. */
  onOpen?(row: T): void;
  /** A dialog of the page is open: the list's keys are quiet. */
  dialogOpen: boolean;
  /** A search or filter narrows the list. */
  filtered?: boolean;
}

/**
 * A short list held in memory (a server-only list, a page of the mirror's reference data) as the
 * declarative list page: no URL state, no drawer, each row's buttons in its last cell.
 */
export function LocalList<T extends { id: string }>(p: LocalListProps<T>) {
  const rows = useLocalRows(p.queryKey, p.items, p.spec.label);
  const list = useListPage({ key: p.queryKey, rows, dialogOpen: p.dialogOpen, ...(p.onOpen ? { onOpen: p.onOpen } : {}) });
  return <ListPage spec={p.spec} list={list} filtered={p.filtered ?? false} quiet={p.dialogOpen} />;
}
