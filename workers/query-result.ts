import type { SortedOrder } from './sorted-order.ts';

// The query engine's cached result and the two ways it is put in order (workers/query-engine.ts):
// few text matches by their ranks in the sort, many by a walk of the order that stops once a
// page is filled (issue 33's early exit) and resumes when more is asked.

/** A text query matching fewer than 1 / this of the rows is ordered by rank (k log k) rather than by a walk of the order (n). */
const RANK_SORT_SHARE = 8;

export interface CachedResult {
  key: string;
  version: number;
  slots: ArrayLike<number>;
  /** The exact number of matches (known before `slots` is complete). */
  total: number;
  /** A walk of the order stopped once the page was filled: where to resume (null: complete). */
  walk: { order: readonly number[]; next: number; gen: number; out: Int32Array; predicate: ((slot: number) => boolean) | null } | null;
}

/** Walks on through the order until `need` matches are in place (or all `total` are). */
export function walkOn(result: CachedResult, need: number, marks: Uint32Array): void {
  const walk = result.walk!;
  const { order, gen, out, predicate } = walk;
  const stop = Math.min(need, result.total);
  let n = result.slots.length;
  let i = walk.next;
  while (n < stop && i < order.length) {
    const slot = order[i++]!;
    if (marks[slot] !== gen) continue;
    if (predicate && !predicate(slot)) continue;
    out[n++] = slot;
  }
  walk.next = i;
  result.slots = out.subarray(0, n);
  // The order holds every live slot, so the walk finds them all; were one missing, the total
  // would shrink to what the order holds rather than promise rows it cannot give.
  if (i === order.length) result.total = n;
  if (n === result.total) result.walk = null;
}

function inOrder(slots: Uint32Array, sorted: SortedOrder, predicate: ((slot: number) => boolean) | null): Int32Array {
  const rank = sorted.ranks();
  const ranks = new Uint32Array(slots.length);
  let n = 0;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    if (predicate && !predicate(slot)) continue;
    ranks[n++] = rank[slot]!;
  }
  const order = sorted.view();
  const picked = ranks.subarray(0, n).sort();
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = order[picked[i]!]!;
  return out;
}

/**
 * A query's result from its sort's order, its text matches (marked with `found.gen`, or null: no
 * text) and its structural predicate, with at least `need` slots in place: the order itself (no
 * filter), few matches by rank, many by a walk that stops at `need`, or a filter's scan into the
 * engine's reused `scratch` buffer.
 */
export function resultOf(
  id: { key: string; version: number }, sorted: SortedOrder, found: { gen: number; slots: Uint32Array } | null,
  predicate: ((slot: number) => boolean) | null, need: number, marks: Uint32Array, scratch: (n: number) => Int32Array,
): CachedResult {
  const order = sorted.view();
  // The unfiltered result is the order itself: valid until the next change bumps the version.
  const all: CachedResult = { ...id, slots: order, total: order.length, walk: null };
  if (found && found.slots.length * RANK_SORT_SHARE < order.length) {
    // Few matches: put them in order by their rank in the sort instead of walking all of it.
    const slots = inOrder(found.slots, sorted, predicate);
    return { ...all, slots, total: slots.length };
  }
  if (found) {
    let total = found.slots.length;
    if (predicate) for (const slot of found.slots) if (!predicate(slot)) total--;
    const walk = { order, next: 0, gen: found.gen, out: new Int32Array(total), predicate };
    const result = { ...all, slots: walk.out.subarray(0, 0), total, walk };
    walkOn(result, need, marks);
    return result;
  }
  if (!predicate) return all;
  const out = scratch(order.length);
  let n = 0;
  for (let i = 0; i < order.length; i++) {
    const slot = order[i]!;
    if (predicate(slot)) out[n++] = slot;
  }
  return { ...all, slots: out.slice(0, n), total: n };
}
