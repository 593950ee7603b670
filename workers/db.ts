import { createRxDatabase, type RxCollection, type RxDatabase, type RxJsonSchema, type RxStorage } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { MIRRORED_COLLECTIONS, type MirroredCollection } from '../schema/sync-feed.ts';
import { mirrorJsonSchemas, type MirroredTransaction } from '../schema/mirror.ts';
import type { OutboxEntry } from '../sync/ports.ts';

/**
 * The mirror database: one RxDB database (Dexie storage, i.e. IndexedDB) per signed-in user and
 * business, so signing out and in as someone else never mixes mirrors. Nine collections: the
 * seven mirrored ones, the outbox and a small key-value `meta` (checkpoint, epoch, identity).
 * RxDB's open-source build allows 13 open collections per JS context, so this leaves room.
 *
 * Dev-mode is never added here: it injects an iframe in browsers and must not ship.
 */
export type MirrorDoc = Record<string, unknown> & { id: string };

export interface MetaDoc {
  id: string;
  value: unknown;
}

export type MirrorCollections = {
  [K in MirroredCollection]: RxCollection<K extends 'transactions' ? MirroredTransaction : MirrorDoc>;
} & {
  outbox: RxCollection<OutboxEntry>;
  meta: RxCollection<MetaDoc>;
};
export type MirrorDatabase = RxDatabase<MirrorCollections>;

const outboxSchema: RxJsonSchema<OutboxEntry> = {
  title: 'outbox',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 36 },
    command: { type: 'string' },
    args: { type: 'object' },
    entity_ids: { type: 'array', items: { type: 'string' } },
    created_at: { type: 'number' },
    attempts: { type: 'number' },
    state: { type: 'string' },
    not_before: { type: 'number' },
    maybe_sent: { type: 'boolean' },
    last_error: { type: ['object', 'null'] },
    step_up_scope: { type: ['string', 'null'] },
    idempotency_key: { type: 'string' },
  },
  required: ['id', 'command', 'args', 'entity_ids', 'created_at', 'attempts', 'state', 'not_before', 'maybe_sent'],
  additionalProperties: false,
};

const metaSchema: RxJsonSchema<MetaDoc> = {
  title: 'meta',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: { id: { type: 'string', maxLength: 64 }, value: {} },
  required: ['id'],
  additionalProperties: false,
};

/** RxDB database names allow [a-z0-9_$-] after a leading letter. */
export function mirrorDbName(businessId: string, userId: string): string {
  const clean = (s: string) => s.toLowerCase().replace(/[^a-z0-9-]/g, '');
  return `ledgerline-${clean(businessId)}-${clean(userId)}`;
}

export interface OpenOptions {
  name: string;
  /** Dexie over the browser's IndexedDB by default; tests pass fake-indexeddb or memory. */
  storage?: RxStorage<unknown, unknown>;
  /** Tabs share the database; RxDB propagates their writes over BroadcastChannel. */
  multiInstance?: boolean;
}

export async function openMirrorDatabase(opts: OpenOptions): Promise<MirrorDatabase> {
  const db = await createRxDatabase<MirrorCollections>({
    name: opts.name,
    storage: opts.storage ?? getRxStorageDexie(),
    multiInstance: opts.multiInstance ?? true,
    eventReduce: true,
    // Collections are closed with the database on sign-out; a re-open in the same worker is
    // legitimate (sign out, sign back in), so duplicates are closed rather than refused.
    closeDuplicates: true,
  });
  const schemas = mirrorJsonSchemas();
  const mirrored = Object.fromEntries(
    MIRRORED_COLLECTIONS.map((c) => [c, { schema: schemas[c] as unknown as RxJsonSchema<MirrorDoc> }]),
  );
  await db.addCollections({
    ...mirrored,
    outbox: { schema: outboxSchema },
    meta: { schema: metaSchema },
  } as unknown as Parameters<typeof db.addCollections>[0]);
  return db;
}
