/**
 * Row windows of a virtualised result, fetched on demand as the user scrolls.
 *
 * Rows live in fixed pages of `pageSize`. Each query (filter + sort) and each data refresh is a
 * new generation: answers from an older generation are dropped, so a slow answer never paints
 * over a newer one. On a data refresh the old rows stay visible until their page is fetched
 * again (no blank flash); on a new query they are cleared. The cache is bounded: pages far from
 * the viewport are evicted first.
 */
export class RowCache<T> {
  private pages = new Map<number, { rows: readonly T[]; gen: number }>();
  private inflight = new Map<number, number>();
  private generation = 0;

  constructor(
    readonly pageSize = 100,
    private readonly maxPages = 200,
  ) {}

  get gen(): number {
    return this.generation;
  }

  /** Starts a new generation; `keepRows` keeps stale rows on screen until refetched. */
  reset(keepRows: boolean): number {
    this.generation++;
    this.inflight.clear();
    if (!keepRows) this.pages.clear();
    return this.generation;
  }

  get(index: number): T | undefined {
    const page = this.pages.get(Math.floor(index / this.pageSize));
    return page?.rows[index % this.pageSize];
  }

  /** Pages overlapping rows [start, end] (inclusive) that need fetching for this generation. */
  missing(start: number, end: number): number[] {
    if (end < start) return [];
    const out: number[] = [];
    const first = Math.floor(Math.max(0, start) / this.pageSize);
    const last = Math.floor(Math.max(0, end) / this.pageSize);
    for (let p = first; p <= last; p++) {
      if (this.pages.get(p)?.gen === this.generation) continue;
      if (this.inflight.get(p) === this.generation) continue;
      out.push(p);
    }
    return out;
  }

  markInFlight(page: number): void {
    this.inflight.set(page, this.generation);
  }

  /** Stores a fetched page; false (and ignored) when it answers an older generation. */
  put(page: number, rows: readonly T[], gen: number): boolean {
    if (gen !== this.generation) return false;
    this.inflight.delete(page);
    this.pages.set(page, { rows, gen });
    this.evictAround(page);
    return true;
  }

  /** A fetch failed: forget it was in flight so the next scroll asks again. */
  fail(page: number, gen: number): void {
    if (this.inflight.get(page) === gen) this.inflight.delete(page);
  }

  /** Row indexes [start, end] that are loaded, with their rows (for range selection). */
  slice(start: number, end: number): (T | undefined)[] {
    const out: (T | undefined)[] = [];
    for (let i = start; i <= end; i++) out.push(this.get(i));
    return out;
  }

  get size(): number {
    return this.pages.size;
  }

  private evictAround(center: number): void {
    if (this.pages.size <= this.maxPages) return;
    const byDistance = [...this.pages.keys()].sort((a, b) => Math.abs(b - center) - Math.abs(a - center));
    for (const p of byDistance.slice(0, this.pages.size - this.maxPages)) this.pages.delete(p);
  }
}
