/**
 * A list of row slots kept in one sort order, maintained incrementally so a query never sorts
 * 100k rows. Additions are buffered and merged on the next read: a few are binary-inserted,
 * a large batch (the first mirror arrives 2,000 rows at a time) is sorted on its own and
 * merged in O(n + k log k). Removal binary-searches the row's position, which is unique because
 * every comparator ends with a tie-break on the id.
 */
export type SlotCompare = (a: number, b: number) => number;

const MERGE_THRESHOLD = 64;

export class SortedOrder {
  private slots: number[] = [];
  private adds: number[] = [];
  /** slot → its position in `slots`, rebuilt on demand after a change (null: stale). */
  private rank: Uint32Array | null = null;
  private rankBuffer = new Uint32Array(0);

  constructor(private cmp: SlotCompare) {}

  /** Issue 33, an engine snapshot's order: `slots` already in `cmp`'s order (no sort). */
  static of(cmp: SlotCompare, slots: ArrayLike<number>): SortedOrder {
    const order = new SortedOrder(cmp);
    order.slots = Array.from(slots);
    return order;
  }

  /** Swaps in an equivalent comparator (the engine's key arrays grew and were replaced). */
  setCompare(cmp: SlotCompare): void {
    this.cmp = cmp;
  }

  get length(): number {
    return this.slots.length + this.adds.length;
  }

  add(slot: number): void {
    this.adds.push(slot);
    this.rank = null;
  }

  /** Removes a slot. Call it while the row still holds the values it was added with. */
  remove(slot: number): void {
    this.rank = null;
    const pending = this.adds.indexOf(slot);
    if (pending >= 0) {
      this.adds.splice(pending, 1);
      return;
    }
    const i = lowerBound(this.slots, slot, this.cmp);
    if (this.slots[i] === slot) this.slots.splice(i, 1);
    else {
      // Defensive: a comparator that changed under us; fall back to a linear find.
      const j = this.slots.indexOf(slot);
      if (j >= 0) this.slots.splice(j, 1);
    }
  }

  /** The slots in order (merging buffered additions first). Do not mutate. */
  view(): readonly number[] {
    if (this.adds.length > 0) this.flush();
    return this.slots;
  }

  /**
   * Each slot's position in the order (a slot not in it reads a stale or zero value): what sorts a
   * few matches into the order without walking it. O(n) after a change, then free.
   */
  ranks(): Uint32Array {
    const slots = this.view();
    if (this.rank) return this.rank;
    let max = -1;
    for (let i = 0; i < slots.length; i++) if (slots[i]! > max) max = slots[i]!;
    if (this.rankBuffer.length <= max) this.rankBuffer = new Uint32Array(Math.max(1024, (max + 1) * 2));
    const rank = this.rankBuffer;
    for (let i = 0; i < slots.length; i++) rank[slots[i]!] = i;
    return (this.rank = rank);
  }

  private flush(): void {
    const adds = this.adds;
    this.adds = [];
    if (adds.length < MERGE_THRESHOLD) {
      for (const slot of adds) this.slots.splice(lowerBound(this.slots, slot, this.cmp), 0, slot);
      return;
    }
    adds.sort(this.cmp);
    const merged = new Array<number>(this.slots.length + adds.length);
    let i = 0;
    let j = 0;
    let k = 0;
    const a = this.slots;
    while (i < a.length && j < adds.length) {
      merged[k++] = this.cmp(a[i]!, adds[j]!) <= 0 ? a[i++]! : adds[j++]!;
    }
    while (i < a.length) merged[k++] = a[i++]!;
    while (j < adds.length) merged[k++] = adds[j++]!;
    this.slots = merged;
  }
}

function lowerBound(arr: readonly number[], slot: number, cmp: SlotCompare): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(arr[mid]!, slot) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
