import { z } from 'zod';
import type { SeqAnnouncements, SeqListener } from '../core/deps.ts';
import { CHANGES_CHANNEL } from '../db/change-seq.ts';
import type { Db } from '../db/db.ts';

const announcementSchema = z.object({ business_id: z.uuid(), seq: z.number().int().nonnegative() });

/**
 * Fans the database's change announcements out to this process's live SSE streams. Any
 * process's commit NOTIFYs; PostgreSQL delivers it to every process LISTENing (PGlite delivers
 * within its single process), so streams on every node hear every write. The only state kept
 * here is the set of open streams.
 */
export class ChangeNotifier implements SeqAnnouncements {
  private readonly subscribers = new Map<string, Set<SeqListener>>();
  private unlisten: (() => Promise<void>) | null = null;
  private starting: Promise<void> | null = null;

  constructor(private readonly db: Db) {}

  /** Subscribes to one business's announcements; returns the unsubscribe function. */
  async subscribe(businessId: string, cb: SeqListener): Promise<() => void> {
    await this.start();
    let set = this.subscribers.get(businessId);
    if (!set) {
      set = new Set();
      this.subscribers.set(businessId, set);
    }
    set.add(cb);
    return () => {
      set.delete(cb);
      if (set.size === 0) this.subscribers.delete(businessId);
    };
  }

  private start(): Promise<void> {
    this.starting ??= this.db
      .listen(CHANGES_CHANNEL, (payload) => this.dispatch(payload))
      .then(
        (off) => {
          this.unlisten = off;
        },
        (err: unknown) => {
          // Let the next stream try again rather than failing forever.
          this.starting = null;
          throw err;
        },
      );
    return this.starting;
  }

  private dispatch(payload: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    const msg = announcementSchema.safeParse(parsed);
    if (!msg.success) return;
    for (const sub of this.subscribers.get(msg.data.business_id) ?? []) sub.onSeq(msg.data.seq);
  }

  /** Stops listening and ends every open stream (graceful shutdown must not wait on them). */
  async close(): Promise<void> {
    const subs = [...this.subscribers.values()].flatMap((set) => [...set]);
    this.subscribers.clear();
    for (const sub of subs) sub.onClose();
    const off = this.unlisten;
    this.unlisten = null;
    this.starting = null;
    if (off) await off();
  }
}
