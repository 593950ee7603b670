import { grownTo } from './typed-arrays.ts';

/** A slot's body: not in memory, in the LRU, or held (never evicted). */
const OUT = 0;
const CACHED = 1;
const HELD = 2;
/** No slot: the ends of the LRU's list. */
const NONE = -1;

/**
 * The query engine's row bodies by slot (issue 33). Without a capacity every body is kept (the
 * small collections). With one, the engine keeps columns only and this holds at most `capacity`
 * bodies in an LRU (the visible pages, the open drawer, what a report or a command read) plus the
 * held ones, never evicted: those `keep` says (the mirror: rows with outbox entries, which
 * commands show and re-derive synchronously; the signed-in person's own rows) and those pinned
 * (rows whose IndexedDB copy is not there yet, a command's rows while it is checked). The rest are
 * read back from the store by the caller and handed in with a ticket: a read older than the row's
 * last store is dropped.
 *
 * The LRU is a doubly linked list over slots in two Int32Arrays (oldest at `head`): a use, an
 * insertion and an eviction are O(1) whatever the capacity. (A Map in use order was quadratic at
 * 150k bodies: V8's ordered hash map keeps deleted entries at its front until it rehashes, so each
 * eviction's `keys().next()` walked them.)
 */
export class RowBodies<R extends { id: string }> {
  /** Every body in memory by slot: all of them, or the cached and the held. */
  private body: (R | undefined)[] = [];
  private state = new Uint8Array(1024);
  private prev = new Int32Array(1024).fill(NONE);
  private next = new Int32Array(1024).fill(NONE);
  private head = NONE;
  private tail = NONE;
  private cached = 0;
  private held = 0;
  private keep: (row: R) => boolean = () => false;
  private readonly pins = new Map<string, number>();
  /** slot → the store count when its row was last stored. */
  private written = new Float64Array(1024);
  private stores = 0;

  constructor(readonly capacity: number | undefined) {}

  get keepsAll(): boolean {
    return this.capacity === undefined;
  }

  /** Bodies in memory (cached and held); `live` when every body is kept. */
  inMemory(live: number): number {
    return this.keepsAll ? live : this.cached + this.held;
  }

  /** The slot's body, or undefined; `touch`: counts as a use (moves it to the LRU's newest end). */
  at(slot: number, touch: boolean): R | undefined {
    const row = this.body[slot];
    if (row !== undefined && touch && this.state[slot] === CACHED && this.tail !== slot) {
      this.unlink(slot);
      this.append(slot);
    }
    return row;
  }

  /** Whether the slot's body is in memory (no use counted). */
  has(slot: number): boolean {
    return this.body[slot] !== undefined;
  }

  /** A row stored by the engine: its body kept (all, held, or the LRU's newest) and its store stamped. */
  store(slot: number, row: R): void {
    this.room(slot);
    this.written[slot] = ++this.stores;
    this.put(slot, row);
  }

  /** A body read back from the store: kept unless the slot's row was stored since `ticket` or its body is in memory. */
  readBack(slot: number, row: R, ticket: number): void {
    if (this.keepsAll || this.newerThan(slot, ticket) || this.has(slot)) return;
    this.put(slot, row);
  }

  /** Whether the slot's row was stored after `ticket` (a read started before is older). */
  newerThan(slot: number, ticket: number): boolean {
    return slot < this.written.length && this.written[slot]! > ticket;
  }

  ticket(): number {
    return this.stores;
  }

  drop(slot: number): void {
    if (slot >= this.body.length) return;
    this.out(slot);
  }

  clear(): void {
    this.body = [];
    this.state = new Uint8Array(1024);
    this.prev = new Int32Array(1024).fill(NONE);
    this.next = new Int32Array(1024).fill(NONE);
    this.head = this.tail = NONE;
    this.cached = this.held = 0;
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
      if (slot !== undefined && !this.keepsAll && this.state[slot] === CACHED) this.hold(slot, this.body[slot]!);
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
        if (slot === undefined || this.keepsAll || this.state[slot] !== HELD) continue;
        const row = this.body[slot]!;
        if (!this.keep(row)) this.cache(slot, row);
      }
    };
  }

  private put(slot: number, row: R): void {
    if (this.keepsAll) this.body[slot] = row;
    else if (this.keep(row) || this.pins.has(row.id)) this.hold(slot, row);
    else this.cache(slot, row);
  }

  private hold(slot: number, row: R): void {
    this.place(slot, row, HELD);
    this.held++;
  }

  private cache(slot: number, row: R): void {
    this.place(slot, row, CACHED);
    this.cached++;
    this.append(slot);
    if (this.cached > this.capacity!) this.out(this.head);
  }

  /** The slot's body, replacing however it was kept before. */
  private place(slot: number, row: R, state: typeof HELD | typeof CACHED): void {
    this.room(slot);
    this.out(slot);
    this.body[slot] = row;
    this.state[slot] = state;
  }

  /** The slot's body out of memory, whichever way it was kept. */
  private out(slot: number): void {
    const state = this.state[slot];
    if (state === CACHED) {
      this.unlink(slot);
      this.cached--;
    } else if (state === HELD) this.held--;
    this.state[slot] = OUT;
    if (slot < this.body.length) this.body[slot] = undefined;
  }

  /** Links the slot at the newest end. */
  private append(slot: number): void {
    this.prev[slot] = this.tail;
    this.next[slot] = NONE;
    if (this.tail === NONE) this.head = slot;
    else this.next[this.tail] = slot;
    this.tail = slot;
  }

  private unlink(slot: number): void {
    const p = this.prev[slot]!;
    const n = this.next[slot]!;
    if (p === NONE) this.head = n;
    else this.next[p] = n;
    if (n === NONE) this.tail = p;
    else this.prev[n] = p;
    this.prev[slot] = this.next[slot] = NONE;
  }

  /** Grows the per-slot arrays (and the body array, densely) to hold `slot`. */
  private room(slot: number): void {
    if (slot >= this.written.length) {
      const size = Math.max(slot + 1, this.written.length * 2);
      this.written = grownTo(this.written, size);
      this.state = grownTo(this.state, size);
      const from = this.prev.length;
      this.prev = grownTo(this.prev, size);
      this.next = grownTo(this.next, size);
      this.prev.fill(NONE, from);
      this.next.fill(NONE, from);
    }
    while (this.body.length <= slot) this.body.push(undefined);
  }
}
