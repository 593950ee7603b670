/**
 * Money sums over the query engine's slots (issue 25's totals), apart from the engine itself
 * (workers/query-engine.ts), which keeps one `MoneyColumns` per pair of money fields it was asked
 * for and re-exports the types below.
 */
import { grownTo } from './typed-arrays.ts';

/** Keys of R whose values are of type V (the fields a totals request may name). */
export type FieldOf<R, V> = { [K in keyof R]-?: R[K] extends V ? K : never }[keyof R] & string;

/** Which fields of a row hold its money: integer minor units and their ISO 4217 currency. */
export interface MoneyFields<R> {
  amount: FieldOf<R, number>;
  currency: FieldOf<R, string>;
  /**
   * Issue 25: only rows whose `field` is one of `values` are summed (a card's spend: PENDING and
   * CLEARED, never DECLINED or REVERSED). The others still count in the result's `count` and are
   * told apart per currency as `excluded`, so a total never hides what it left out.
   */
  only?: { field: FieldOf<R, string>; values: readonly string[] };
}

/**
 * How many rows, and the sum of their amounts per currency (minor units), most rows first. With
 * `only`: each currency's `amount` and `count` cover the rows `only` admits, `excluded` the rest.
 */
export interface Totals {
  count: number;
  sums: { currency: string; amount: number; count: number; excluded?: number }[];
  /** With `only`: rows of the result it left out of every sum. */
  excluded?: number;
}

export const EMPTY_TOTALS: Totals = { count: 0, sums: [] };

/** One pair of money fields' columns in an engine snapshot (issue 33). */
export interface MoneySnapshot {
  key: string;
  amount: Float64Array<ArrayBuffer>;
  currency: Uint16Array<ArrayBuffer>;
  counted: Uint8Array<ArrayBuffer>;
  codes: string[];
}


/**
 * The money of every slot as columns, for one pair of fields: amounts in a Float64Array (integer
 * minor units are exact up to 2^53) and currencies as small ids, so a sum over 100k slots is a
 * typed-array loop (well under a millisecond) instead of 200k keyed property reads. Built on the
 * first totals request, then kept up to date by every upsert.
 */
export class MoneyColumns<R> {
  amount = new Float64Array(0);
  currency = new Uint16Array(0);
  /** 1 where the slot's row is summed (always, without `only`). */
  counted = new Uint8Array(0);
  private readonly admitted: ReadonlySet<string> | null;
  readonly codes: string[] = [];
  private readonly ids = new Map<string, number>();

  constructor(
    readonly key: string,
    private readonly fields: MoneyFields<R>,
  ) {
    this.admitted = fields.only ? new Set(fields.only.values) : null;
  }

  set(slot: number, row: R): void {
    if (slot >= this.amount.length) this.grow(slot + 1);
    const code = row[this.fields.currency] as string;
    let id = this.ids.get(code);
    if (id === undefined) {
      id = this.codes.push(code) - 1;
      this.ids.set(code, id);
    }
    this.currency[slot] = id;
    this.amount[slot] = row[this.fields.amount] as number;
    const only = this.fields.only;
    this.counted[slot] = only && !this.admitted!.has(row[only.field] as string) ? 0 : 1;
  }

  /** Issue 33: the first `slots` slots' columns, copied, and the currency codes. */
  snapshot(slots: number): MoneySnapshot {
    const size = Math.min(slots, this.amount.length);
    return { key: this.key, amount: this.amount.slice(0, size), currency: this.currency.slice(0, size), counted: this.counted.slice(0, size), codes: [...this.codes] };
  }

  /** The columns of `snapshot()` (its arrays taken as they are). */
  restore(s: MoneySnapshot): void {
    this.amount = s.amount;
    this.currency = s.currency;
    this.counted = s.counted;
    this.codes.length = 0;
    this.ids.clear();
    for (const code of s.codes) this.ids.set(code, this.codes.push(code) - 1);
  }

  /** Sums the given slots (a negative slot is skipped: an unknown id). */
  sum(slots: ArrayLike<number>): Totals {
    const n = slots.length;
    const k = this.codes.length;
    const sums = new Float64Array(k);
    const counts = new Uint32Array(k);
    const left = new Uint32Array(k);
    const { amount, currency, counted } = this;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const slot = slots[i]!;
      if (slot < 0) continue;
      const c = currency[slot]!;
      count++;
      if (counted[slot] === 0) {
        left[c]!++;
        continue;
      }
      sums[c]! += amount[slot]!;
      counts[c]!++;
    }
    const only = this.fields.only !== undefined;
    const out: Totals['sums'] = [];
    let excluded = 0;
    for (let c = 0; c < k; c++) {
      if (counts[c]! === 0 && left[c]! === 0) continue;
      excluded += left[c]!;
      out.push({ currency: this.codes[c]!, amount: sums[c]!, count: counts[c]!, ...(only ? { excluded: left[c]! } : {}) });
    }
    out.sort((a, b) => b.count - a.count || (b.excluded ?? 0) - (a.excluded ?? 0) || (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
    return only ? { count, sums: out, excluded } : { count, sums: out };
  }

  private grow(min: number): void {
    const size = Math.max(1024, min * 2);
    this.amount = grownTo(this.amount, size);
    this.currency = grownTo(this.currency, size);
    this.counted = grownTo(this.counted, size);
  }
}

/**
 * An engine's money columns by fields: the declared ones (EngineSpec `money`) kept from the first
 * row; others built on first use from every body, which only an engine keeping them all has.
 */
export class MoneyByFields<R> {
  private map: Map<string, MoneyColumns<R>>;

  constructor(private readonly declared: readonly MoneyFields<R>[] = []) {
    this.map = this.fresh();
  }

  set(slot: number, row: R): void {
    for (const money of this.map.values()) money.set(slot, row);
  }

  clear(): void {
    this.map = this.fresh();
  }

  /** Issue 33: every kept pair of fields' columns over the first `slots` slots. */
  snapshot(slots: number): MoneySnapshot[] {
    return [...this.map.values()].map((money) => money.snapshot(slots));
  }

  /** The declared fields' columns from a snapshot (others are built again on first use, as after a load). */
  restore(snapshots: readonly MoneySnapshot[]): void {
    this.map = this.fresh();
    for (const s of snapshots) this.map.get(s.key)?.restore(s);
    for (const key of this.map.keys()) if (!snapshots.some((s) => s.key === key)) throw new Error(`money snapshot: no columns for ${key}`);
  }

  /** The columns for `fields`; `rows` walks every body to build undeclared ones (null: none in memory, refused). */
  of(fields: MoneyFields<R>, rows: ((each: (slot: number, row: R) => void) => void) | null): MoneyColumns<R> {
    const key = moneyKey(fields);
    const kept = this.map.get(key);
    if (kept) return kept;
    if (!rows) throw new Error(`totals over ${key}: not among the engine's money columns (spec.money), and the row bodies are not in memory`);
    const money = new MoneyColumns(key, fields);
    rows((slot, row) => money.set(slot, row));
    this.map.set(key, money);
    return money;
  }

  private fresh(): Map<string, MoneyColumns<R>> {
    return new Map(this.declared.map((f) => [moneyKey(f), new MoneyColumns(moneyKey(f), f)]));
  }
}

function moneyKey<R>(fields: MoneyFields<R>): string {
  return `${String(fields.amount)}|${String(fields.currency)}|${fields.only ? `${String(fields.only.field)}=${fields.only.values.join(',')}` : ''}`;
}
