import { pageLabel } from '../../schema/paging.ts';
import { formatCount } from '../lib/format.ts';
import type { PagedQuery } from '../lib/use-paged-query.ts';
import { Button } from './button.tsx';
import './pager.css';

export interface PagerProps {
  /** The helper's state (`usePagedQuery`). */
  paged: Pick<PagedQuery<unknown>, 'pageIndex' | 'pageSize' | 'total' | 'hasPrev' | 'hasNext' | 'busy' | 'notice' | 'next' | 'prev' | 'setPageSize'>;
  /** What the pages hold ("Runs", "Clients"): names the navigation landmark. */
  what: string;
  /** Offer these page sizes (only where the worker's call takes one). */
  pageSizes?: readonly number[];
  /** Offline: nothing can be read, so the buttons wait. */
  disabled?: boolean;
}

/**
 * Under a server-paged list: Previous · "Page 2" (or "51-100 of 240" when the total is known) ·
 * Next, the page size when offered, and §8's "That page is no longer available…" as a status.
 * A list of one page shows only the status line.
 */
export function Pager({ paged, what, pageSizes, disabled = false }: PagerProps) {
  const { pageIndex, pageSize, total, hasPrev, hasNext, busy, notice } = paged;
  const single = !hasPrev && !hasNext && (!pageSizes || pageSize === pageSizes[0]);
  const where = total === undefined ? `Page ${formatCount(pageIndex + 1)}` : pageLabel(pageIndex, pageSize, total, formatCount);
  return (
    <>
      <p className="notice pager-notice" role="status">
        {notice ?? ''}
      </p>
      {!single && (
        <nav className="pager" aria-label={`${what} pages`}>
          <Button size="sm" disabled={!hasPrev || busy || disabled} onClick={paged.prev}>
            <span aria-hidden="true">‹</span> Previous
          </Button>
          <span className="pager-where" aria-live="polite">
            {where}
          </span>
          <Button size="sm" disabled={!hasNext || busy || disabled} onClick={paged.next}>
            Next <span aria-hidden="true">›</span>
          </Button>
          {pageSizes && (
            <label className="pager-size">
              <span>Per page</span>
              <select value={pageSize} disabled={disabled} onChange={(e) => paged.setPageSize(Number(e.target.value))}>
                {pageSizes.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
          )}
        </nav>
      )}
    </>
  );
}
