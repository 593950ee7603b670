import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from './error-text.ts';
import type { OnlineList } from './use-online-list.ts';
import type { PageAnswer, PagedPosition } from './paged-query.ts';
import { afterAnswer, backAfterRefusal, firstPage, goTo, hasNextPage, pageParams, searchKey, withSearch } from './paged-query.ts';

/** The list as a page shows it: `OnlineList` (use `ListStatus`), a ready page maybe read earlier (`readAt`). */
export type PagedList<T> = Exclude<OnlineList<T>, { state: 'ready' }> | { state: 'ready'; rows: T[]; refreshing: boolean; readAt?: string | number };

export interface PagedQuery<T> {
  list: PagedList<T>;
  /** 0-based. */
  pageIndex: number;
  pageSize: number;
  total?: number;
  hasPrev: boolean;
  hasNext: boolean;
  /** A page is on its way (the pager's buttons wait). */
  busy: boolean;
  /** §8's "That page is no longer available; showing page N", until the reader moves. */
  notice: string | null;
  next(): void;
  prev(): void;
  setPageSize(size: number): void;
  reload(): void;
}

export interface PagedQueryOptions<T> {
  /** The search/filters (flat; `pageParams` strips, joins and ISO-formats them); a change starts again at page 1. */
  search: Record<string, unknown>;
  pageSize: number;
  /** Whether the server can be reached: offline nothing is asked (`offline`), and the page is read again when it comes back. */
  online: boolean;
  /** Read offline too: the worker answers from its copy of the page (a ready page with `readAt`) or `offline`; read again when the connection comes back. */
  readOffline?: boolean;
  /** Reads one page: `params` holds the search, `page_size` and `start` (absent on the first page). */
  load(params: Record<string, string>): Promise<PageAnswer<T>>;
}

type Answer<T> = { key: string; value: PageAnswer<T> };

/**
 * The one helper of every server-paged list (§5, §8): the page index, page size and the cursor
 * of each page read so far; Previous/Next move through them, a new search or page size goes back
 * to the first page, a 422 past the first page goes back one page and says so. While a page is on
 * its way the list is `loading` — never an empty answer.
 */
export function usePagedQuery<T>({ search, pageSize: initialSize, online, readOffline = false, load }: PagedQueryOptions<T>): PagedQuery<T> {
  const key = searchKey(search);
  const [size, setSize] = useState(initialSize);
  const [pos, setPos] = useState<PagedPosition>(() => firstPage(key, initialSize));
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [turn, setTurn] = useState(0);
  const latest = useRef({ load, search });
  useEffect(() => {
    latest.current = { load, search };
  });

  // §5: another search or page size is read from the first page.
  const current = withSearch(pos, key, size);
  if (current !== pos) {
    setPos(current);
    if (notice) setNotice(null);
  }
  const start = current.cursors[current.index];
  const readKey = `${turn}|${current.search}|${current.pageSize}|${current.index}|${start ?? ''}`;

  const reads = online || readOffline;
  useEffect(() => {
    if (!reads) return;
    let live = true;
    const params = pageParams(latest.current.search, current.pageSize, start);
    latest.current.load(params).then(
      (value) => {
        if (!live) return;
        if (value.ok) setPos((p) => (p === current ? afterAnswer(p, value.next) : p));
        else {
          const back = backAfterRefusal(current, value.error);
          if (back) {
            setPos((p) => (p === current ? back.pos : p));
            setNotice(back.notice);
            setAnswer(null); // the page before is read again: its rows may have changed too
            return;
          }
        }
        setAnswer({ key: readKey, value });
      },
      (err: unknown) => live && setAnswer({ key: readKey, value: { ok: false, error: { error_code: '', message: err instanceof Error ? err.message : String(err) } } }),
    );
    return () => {
      live = false;
    };
    // `readKey` names the read (search, size, index, cursor, turn); `current` is that render's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [readKey, online, reads]);

  const move = useCallback((to: (p: PagedPosition) => PagedPosition) => {
    setNotice(null);
    setPos(to);
  }, []);
  const next = useCallback(() => move((p) => (hasNextPage(p) ? goTo(p, p.index + 1) : p)), [move]);
  const prev = useCallback(() => move((p) => goTo(p, p.index - 1)), [move]);
  const setPageSize = useCallback((n: number) => {
    setNotice(null);
    setSize(n);
  }, []);
  const reload = useCallback(() => setTurn((n) => n + 1), []);

  const mine = answer && answer.key === readKey ? answer.value : null;
  const ready = answer?.value.ok ? answer.value : null;
  let list: PagedList<T>;
  if (!reads && !mine) list = { state: 'offline' };
  else if (!mine) list = { state: 'loading' };
  else if (mine.ok) list = { state: 'ready', rows: mine.rows, refreshing: false, ...(mine.readAt === undefined ? {} : { readAt: mine.readAt }) };
  else if (mine.offline) list = { state: 'offline' };
  else list = { state: 'error', message: errorText(mine.error) };
  return {
    list,
    pageIndex: current.index,
    pageSize: current.pageSize,
    ...(ready?.total === undefined ? {} : { total: ready.total }),
    hasPrev: current.index > 0,
    hasNext: hasNextPage(current),
    busy: reads && !mine,
    notice,
    next,
    prev,
    setPageSize,
    reload,
  };
}
