import type { OutboxEntry, OutboxStore } from '../sync/ports.ts';
import { byAge } from '../sync/outbox-machine.ts';
import type { MirrorDatabase } from './db.ts';
import { queryDocs, stripMeta } from './bulk-write.ts';

/**
 * The durable outbox (sync engine's OutboxStore port) in the RxDB `outbox` collection. Every
 * tab writes here; RxDB's multi-instance events carry the writes to the leader, which sends.
 */
export class RxOutboxStore implements OutboxStore {
  constructor(private readonly db: Pick<MirrorDatabase, 'outbox'>) {}

  async list(): Promise<OutboxEntry[]> {
    return (await this.opening()).live;
  }

  /**
   * Every stored entry in one read, as a runtime opens: the live ones (`list`) and the delivered
   * ones (`delivered`). The cold start's first page waits for the outbox, so it is read once.
   */
  async opening(): Promise<{ live: OutboxEntry[]; delivered: OutboxEntry[] }> {
    const docs = (await queryDocs(this.db.outbox, { selector: {}, sort: [{ id: 'asc' }] } as never)) as OutboxEntry[];
    return { live: docs.filter((e) => e.state !== 'done').sort(byAge), delivered: docs.filter((e) => e.state === 'done').sort(byAge) };
  }

  /**
   * Entries the service worker delivered with no tab open (issue 26): `done`, with the server's
   * answer, until the feed has brought their change (workers/delivered-commands.ts).
   */
  async delivered(): Promise<OutboxEntry[]> {
    const docs = await queryDocs(this.db.outbox, { selector: { state: 'done' } } as never);
    return (docs as OutboxEntry[]).sort(byAge);
  }

  async put(entry: OutboxEntry): Promise<void> {
    await this.db.outbox.upsert(clean(entry));
  }

  /** Several entries in one IndexedDB transaction (a bulk coding split in chunks). */
  async putMany(entries: readonly OutboxEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const result = await this.db.outbox.bulkUpsert(entries.map(clean));
    if (result.error.length > 0) throw new Error(`outbox write failed: ${result.error.length} entries`);
  }

  async remove(id: string): Promise<void> {
    const doc = await this.db.outbox.findOne(id).exec();
    await doc?.remove();
  }

  async get(id: string): Promise<OutboxEntry | null> {
    const doc = await this.db.outbox.findOne(id).exec();
    return doc ? stripMeta(doc.toMutableJSON() as OutboxEntry) : null;
  }
}

/** RxDB stores JSON: optional fields must be absent, not undefined. */
function clean(entry: OutboxEntry): OutboxEntry {
  const out = { ...entry };
  if (out.idempotency_key === undefined) delete out.idempotency_key;
  if (out.base_seq === undefined) delete out.base_seq;
  if (out.answer === undefined) delete out.answer;
  return out;
}
