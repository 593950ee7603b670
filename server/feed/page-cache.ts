import type { FeedPage, FeedPageQuery, FeedPages, SeqAnnouncements } from '../core/deps.ts';

type Entry = { businessId: string; query: string; page: Promise<FeedPage | null>; timer: ReturnType<typeof setTimeout> };

/** One key per distinct page: a backfill page by its cursor, a forward page by `after`. */
const queryKey = (q: FeedPageQuery): string =>
  q.backfill ? `b/${q.limit}/${q.top ?? ''}/${q.stage ?? ''}/${q.before ?? ''}` : `f/${q.limit}/${q.after}`;

/**
 * The walk's next page, prepared while the client writes the current one (issue 13): the first
 * mirror asks for ~70 pages in a row and each request needs the previous page's cursor, so
 * without this the database sat idle while the page travelled and the worker parsed it, and the
 * worker then waited for the next query.
 *
 * A cache, not state: at most one prepared page per user (the one after the last page it was
 * sent), only for `ttlMs`, dropped on any change the business announces, and a miss computes the
 * page as if there were none. A prepared page is what the database answered a moment before the
 * request, which the feed's consistency argument already allows: a row changed after it was read
 * has a newer seq and comes with the forward pull (see readBackfill). Authentication and the
 * scope gate run for every request before this is asked.
 */
export class FeedPageCache implements FeedPages {
  private readonly entries = new Map<string, Entry>();
  private readonly watches = new Map<string, Promise<(() => void) | null>>();

  constructor(
    private readonly announcements: SeqAnnouncements,
    private readonly ttlMs = 30_000,
    private readonly maxUsers = 32,
  ) {}

  async read(user: { business_id: string; id: string }, query: FeedPageQuery, compute: (q: FeedPageQuery) => Promise<FeedPage>): Promise<string> {
    const who = `${user.business_id}/${user.id}`;
    const hit = this.entries.get(who);
    let page: FeedPage | null = null;
    if (hit?.query === queryKey(query)) {
      this.drop(who, hit);
      page = await hit.page; // null if preparing it failed: compute it now
    }
    page ??= await compute(query);
    if (page.next) this.prepare(who, user.business_id, page.next, compute);
    return page.text;
  }

  close(): void {
    for (const [who, entry] of [...this.entries]) this.drop(who, entry);
  }

  private prepare(who: string, businessId: string, query: FeedPageQuery, compute: (q: FeedPageQuery) => Promise<FeedPage>): void {
    const old = this.entries.get(who);
    if (old) this.drop(who, old);
    // Watch the business before reading, so a change committed after the read began drops it.
    const page = this.watch(businessId)
      .then((off) => (off ? compute(query) : null)) // not watched, not prepared
      .catch(() => null);
    const entry: Entry = { businessId, query: queryKey(query), page, timer: setTimeout(() => this.drop(who, entry), this.ttlMs) };
    entry.timer.unref?.();
    this.entries.set(who, entry);
    const oldest = this.entries.keys().next().value;
    if (this.entries.size > this.maxUsers && oldest !== undefined) this.drop(oldest, this.entries.get(oldest)!);
  }

  private drop(who: string, entry: Entry): void {
    clearTimeout(entry.timer);
    if (this.entries.get(who) !== entry) return;
    this.entries.delete(who);
    if (![...this.entries.values()].some((e) => e.businessId === entry.businessId)) this.unwatch(entry.businessId);
  }

  private dropBusiness(businessId: string): void {
    for (const [who, entry] of [...this.entries]) if (entry.businessId === businessId) this.drop(who, entry);
  }

  private watch(businessId: string): Promise<(() => void) | null> {
    let w = this.watches.get(businessId);
    if (!w) {
      const forget = () => this.dropBusiness(businessId);
      w = this.announcements.subscribe(businessId, { onSeq: forget, onClose: forget }).catch(() => null);
      this.watches.set(businessId, w);
    }
    return w;
  }

  private unwatch(businessId: string): void {
    const w = this.watches.get(businessId);
    this.watches.delete(businessId);
    void w?.then((off) => off?.());
  }
}
