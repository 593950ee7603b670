import type { Transaction } from '../schema/entities/transaction.ts';
import { grownTo } from '../workers/typed-arrays.ts';

/**
 * The IndexedDB stand-in: rows as JSON bytes in one buffer (outside the JS heap), found by the
 * number their test uuid encodes (bench/engine-rows.ts: row i has id testUuid(1, i + 1)).
 */
export class BodyStore {
  private bytes = new Uint8Array(1 << 20);
  private used = 0;
  private start = new Float64Array(1024);
  private end = new Float64Array(1024);
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  put(rows: readonly Transaction[]): void {
    for (const row of rows) {
      const i = indexOf(row.id);
      const data = this.encoder.encode(JSON.stringify(row));
      if (this.used + data.length > this.bytes.length) this.bytes = grownTo(this.bytes, Math.max(this.used + data.length, this.bytes.length * 2));
      if (i >= this.start.length) {
        this.start = grownTo(this.start, Math.max(i + 1, this.start.length * 2));
        this.end = grownTo(this.end, this.start.length);
      }
      this.bytes.set(data, this.used);
      this.start[i] = this.used;
      this.end[i] = this.used += data.length;
    }
  }

  /** Stored rows by id, as a bulk read answers (fresh objects). */
  get(ids: readonly string[]): Map<string, Transaction> {
    const out = new Map<string, Transaction>();
    for (const id of ids) {
      const i = indexOf(id);
      out.set(id, JSON.parse(this.decoder.decode(this.bytes.subarray(this.start[i]!, this.end[i]!))) as Transaction);
    }
    return out;
  }

  /** One stored row (a fresh object). */
  one(id: string): Transaction {
    const i = indexOf(id);
    return JSON.parse(this.decoder.decode(this.bytes.subarray(this.start[i]!, this.end[i]!))) as Transaction;
  }

  get megabytes(): number {
    return (this.bytes.byteLength + this.start.byteLength + this.end.byteLength) / 1e6;
  }
}
const indexOf = (id: string) => Number.parseInt(id.slice(24), 16) - 1;
