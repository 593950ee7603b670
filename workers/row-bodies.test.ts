import { describe, expect, it } from 'vitest';
import { RowBodies } from './row-bodies.ts';
import { seededRandom } from './test-fixtures.ts';

type Row = { id: string; v: number };
const row = (slot: number, v = 0): Row => ({ id: `r${slot}`, v });

/** A model of what RowBodies keeps: an ordered list of cached slots (oldest first), a set of held ones. */
class Model {
  lru: number[] = [];
  held = new Set<number>();
  bodies = new Map<number, Row>();
  constructor(private readonly capacity: number, private readonly keep: (r: Row) => boolean, private readonly pinned: Set<string>) {}
  put(slot: number, r: Row): void {
    this.lru = this.lru.filter((s) => s !== slot);
    this.held.delete(slot);
    this.bodies.set(slot, r);
    if (this.keep(r) || this.pinned.has(r.id)) this.held.add(slot);
    else this.cache(slot);
  }
  cache(slot: number): void {
    this.held.delete(slot);
    this.lru = this.lru.filter((s) => s !== slot);
    this.lru.push(slot);
    if (this.lru.length > this.capacity) this.bodies.delete(this.lru.shift()!);
  }
  touch(slot: number): void {
    if (!this.lru.includes(slot)) return;
    this.lru = this.lru.filter((s) => s !== slot);
    this.lru.push(slot);
  }
  drop(slot: number): void {
    this.lru = this.lru.filter((s) => s !== slot);
    this.held.delete(slot);
    this.bodies.delete(slot);
  }
}

describe('RowBodies (issue 33): an LRU over slots plus the held bodies', () => {
  it('evicts the least recently used body, counting uses, and never a held one', () => {
    const bodies = new RowBodies<Row>(3);
    bodies.keepWhen((r) => r.v < 0);
    for (const s of [0, 1, 2]) bodies.store(s, row(s));
    bodies.store(9, row(9, -1));
    expect(bodies.at(0, true)).toEqual(row(0)); // 0 is now the newest: 1 goes next
    bodies.store(3, row(3));
    expect([0, 1, 2, 3, 9].map((s) => bodies.has(s))).toEqual([true, false, true, true, true]);
    expect(bodies.at(2, false)).toEqual(row(2)); // no use counted: 2 goes next
    bodies.store(4, row(4));
    expect(bodies.has(2)).toBe(false);
    expect(bodies.inMemory(0)).toBe(4);
  });

  it('pins move a cached body to held until released, then back to the LRU unless kept', () => {
    const bodies = new RowBodies<Row>(2);
    for (const s of [0, 1]) bodies.store(s, row(s));
    const slotOf = (id: string) => Number(id.slice(1));
    const release = bodies.pin(['r0'], slotOf);
    for (const s of [2, 3, 4]) bodies.store(s, row(s));
    expect(bodies.has(0)).toBe(true);
    expect(bodies.pinnedIds()).toEqual(['r0']);
    release();
    release();
    expect(bodies.pinnedIds()).toEqual([]);
    bodies.store(5, row(5));
    // 0 went back as the newest: 3 and 4 were older.
    expect([0, 3, 4, 5].map((s) => bodies.has(s))).toEqual([true, false, false, true]);
  });

  it('drops a read back older than the row last stored, and keeps a newer one', () => {
    const bodies = new RowBodies<Row>(2);
    bodies.store(0, row(0, 1));
    const before = bodies.ticket();
    for (const s of [1, 2]) bodies.store(s, row(s));
    bodies.store(0, row(0, 2));
    bodies.store(3, row(3));
    bodies.store(4, row(4)); // 0 evicted
    expect(bodies.has(0)).toBe(false);
    bodies.readBack(0, row(0, 1), before);
    expect(bodies.has(0)).toBe(false);
    bodies.readBack(0, row(0, 2), bodies.ticket());
    expect(bodies.at(0, false)).toEqual(row(0, 2));
  });

  it('agrees with a model through random stores, uses, reads back, pins and drops', () => {
    const rand = seededRandom(5);
    const pinned = new Set<string>();
    const keep = (r: Row) => r.v % 7 === 0;
    const bodies = new RowBodies<Row>(16);
    bodies.keepWhen(keep);
    const model = new Model(16, keep, pinned);
    const slotOf = (id: string) => Number(id.slice(1));
    const releases: { ids: string[]; release: () => void }[] = [];
    for (let step = 0; step < 4000; step++) {
      const slot = Math.floor(rand() * 80);
      const op = rand();
      if (op < 0.45) {
        const r = row(slot, Math.floor(rand() * 100));
        bodies.store(slot, r);
        model.put(slot, r);
      } else if (op < 0.65) {
        bodies.at(slot, true);
        model.touch(slot);
      } else if (op < 0.75) {
        if (!model.bodies.has(slot)) {
          const r = row(slot, 1 + Math.floor(rand() * 5) * 7 + 1);
          bodies.readBack(slot, r, bodies.ticket());
          model.put(slot, r);
        }
      } else if (op < 0.85) {
        bodies.drop(slot);
        model.drop(slot);
      } else if (op < 0.93) {
        const id = `r${slot}`;
        const count = releases.filter((p) => p.ids.includes(id)).length;
        releases.push({ ids: [id], release: bodies.pin([id], slotOf) });
        if (count === 0) {
          pinned.add(id);
          if (model.lru.includes(slot)) {
            model.lru = model.lru.filter((s) => s !== slot);
            model.held.add(slot);
          }
        }
      } else if (releases.length > 0) {
        const [p] = releases.splice(Math.floor(rand() * releases.length), 1);
        p!.release();
        const id = p!.ids[0]!;
        if (!releases.some((q) => q.ids.includes(id))) {
          pinned.delete(id);
          const s = slotOf(id);
          const body = model.bodies.get(s);
          if (model.held.has(s) && body && !keep(body)) model.cache(s);
        }
      }
      expect(bodies.inMemory(0)).toBe(model.bodies.size);
    }
    for (let s = 0; s < 80; s++) expect(bodies.at(s, false), `slot ${s}`).toEqual(model.bodies.get(s));
  });

  it('keeps every body without a capacity', () => {
    const bodies = new RowBodies<Row>(undefined);
    for (let s = 0; s < 3000; s++) bodies.store(s, row(s));
    bodies.drop(7);
    expect(bodies.keepsAll).toBe(true);
    expect(bodies.has(2999) && !bodies.has(7)).toBe(true);
    expect(bodies.inMemory(2999)).toBe(2999);
  });
});
