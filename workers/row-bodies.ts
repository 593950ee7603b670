import { grownTo } from './typed-arrays.ts';

/**
 * The query engine's row bodies by slot (issue 33). Without a capacity every body is kept (an
 * array: the small collections). With one, the engine keeps columns only and this holds at most
 * `capacity` bodies in an LRU (Map order = use order: the visible pages, the open drawer) plus
 * the held ones, never evicted: those `keep` says (the mirror: rows with outbox entries, which
 * commands show and re-derive synchronously) and those pinned (rows whose IndexedDB copy is not
 * there yet, a command's rows while it is checked). The rest are read back from the store by the
 * caller and handed in with a ticket: a read older than the row's last store is dropped.
 */
export class RowBodies<R extends { id: string }> {
  /** Every body, when no capacity was given. */
  private all: (R | undefined)[] = [];
  private readonly lru: Map<number, R> | null;
  private readonly held = new Map<number, R>();
  private keep: (row: R) => boolean = () => false;
  private readonly pins = new Map<string, number>();
  /** slot → the store count when its row was last stored. */
  private written = new Float64Array(1024);
  private stores = 0;

  constructor(readonly capacity: number | undefined) {
    this.lru = capacity === undefined ? null : new Map();
  }

  get keepsAll(): boolean {
    return this.lru === null;
  }

  /** Bodies in memory (cached and held); `live` when every body is kept. */
  inMemory(live: number): number {
    return this.lru ? this.lru.size + this.held.size : live;
  }

  /** The slot's body, or undefined; `touch`: counts as a use (moves it to the LRU's newest end). */
  at(slot: number, touch: boolean): R | undefined {
    const lru = this.lru;
    if (!lru) return this.all[slot];
    const held = this.held.get(slot);
    if (held) return held;
    const row = lru.get(slot);
    if (row && touch) {
      lru.delete(slot);
      lru.set(slot, row);
    }
    return row;
  }

  /** Whether the slot's body is in memory (no use counted). */
  has(slot: number): boolean {
    return this.lru ? this.held.has(slot) || this.lru.has(slot) : this.all[slot] !== undefined;
  }

  /** A row stored by the engine: its body kept (array, held, or the LRU's newest) and its store stamped. */
  store(slot: number, row: R): void {
    if (slot >= this.written.length) this.written = grownTo(this.written, Math.max(slot + 1, this.written.length * 2));
    this.written[slot] = ++this.stores;
    this.put(slot, row);
  }

  /** A body read back from the store: kept unless the slot's row was stored since `ticket` or its body is in memory. */
  readBack(slot: number, row: R, ticket: number): void {
    if (!this.lru || this.newerThan(slot, ticket) || this.has(slot)) return;
    this.put(slot, row);
  }

  /** Whether the slot's row was stored after `ticket` (a read started before is older). */
  newerThan(slot: number, ticket: number): boolean {
    return this.written[slot]! > ticket;
  }

  ticket(): number {
    return this.stores;
  }

  drop(slot: number): void {
    if (this.lru) {
      this.lru.delete(slot);
      this.held.delete(slot);
    } else this.all[slot] = undefined;
  }

  clear(): void {
    this.all = [];
    this.lru?.clear();
    this.held.clear();
    this.written = new Float64Array(1024);
  }

  /** Ids of the pinned rows (not in IndexedDB yet, or a command's while it is checked): issue 33's snapshot re-derives them on restore. */
  pinnedIds(): string[] {
    return [...this.pins.keys()];
  }

  /** Which bodies are held, decided each time a row is stored or read back. */
  keepWhen(keep: (row: R) => boolean): void {
    this.keep = keep;
  }

  /** Holds these rows' bodies until the returned release runs; `slotOf` finds a row's slot (undefined: not in the engine). */
  pin(ids: readonly string[], slotOf: (id: string) => number | undefined): () => void {
    for (const id of ids) {
      this.pins.set(id, (this.pins.get(id) ?? 0) + 1);
      const slot = slotOf(id);
      const row = slot === undefined || !this.lru ? undefined : this.lru.get(slot);
      if (row) {
        this.lru!.delete(slot!);
        this.held.set(slot!, row);
      }
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const id of ids) {
        const n = (this.pins.get(id) ?? 1) - 1;
        if (n > 0) {
          this.pins.set(id, n);
          continue;
        }
        this.pins.delete(id);
        const slot = slotOf(id);
        const row = slot === undefined ? undefined : this.held.get(slot);
        if (row && !this.keep(row)) this.cache(slot!, row);
      }
    };
  }

  private put(slot: number, row: R): void {
    if (!this.lru) {
      this.all[slot] = row;
      return;
    }
    if (this.keep(row) || this.pins.has(row.id)) {
      this.lru.delete(slot);
      this.held.set(slot, row);
      return;
    }
    this.cache(slot, row);
  }

  private cache(slot: number, row: R): void {
    const lru = this.lru!;
    this.held.delete(slot);
    lru.delete(slot);
    lru.set(slot, row);
    if (lru.size > this.capacity!) lru.delete(lru.keys().next().value!);
  }
}
