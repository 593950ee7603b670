import {
  addRxPlugin, createRxDatabase, getAllCollectionDocuments, removeCollectionStorages,
  type MigrationStrategies, type RxCollection, type RxDatabase, type RxJsonSchema, type RxStorage,
} from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import type { DexieSettings } from 'rxdb';
import { ENTITIES, LOCAL_COLLECTIONS, MIRRORED_COLLECTIONS, type MirroredCollection, type RowOf } from '../schema/collections.ts';
import { mirrorJsonSchemas, type MirroredTransaction } from '../schema/mirror.ts';
import type { OutboxEntry } from '../sync/ports.ts';
import { removeDocs, scanDocs } from './bulk-write.ts';
import { getMirrorStorage } from './mirror-storage.ts';

/**
 * The mirror database: one RxDB database (Dexie storage, i.e. IndexedDB) per signed-in user and
 * business, so signing out and in as someone else never mixes mirrors. The free RxDB build opens
 * at most 13 collections per JS context (RXDB_COLLECTION_LIMIT), so where each mirrored collection
 * lives follows its definition's `mirror.kind`: `own` collections get an RxDB collection each,
 * every `ref` collection shares the one `refs` collection (a row per reference row, keyed by
 * kind and id). Besides them: the outbox and a small key-value `meta` (checkpoint, epoch,
 * identity, layout). The budget, today and planned, is in docs/architecture.md.
 *
 * Dev-mode is never added here: it injects an iframe in browsers and must not ship.
 */
export type MirrorDoc = Record<string, unknown> & { id: string };

export interface MetaDoc {
  id: string;
  value: unknown;
}

type KindOf<C extends MirroredCollection> = (typeof ENTITIES)[C]['mirror']['kind'];
/** Mirrored collections stored in an RxDB collection of their own (named like the feed's). */
export type OwnCollection = { [C in MirroredCollection]: KindOf<C> extends 'own' ? C : never }[MirroredCollection];
/** Mirrored collections whose rows share the `refs` collection. */
export type RefKind = Exclude<MirroredCollection, OwnCollection>;

export const OWN_COLLECTIONS: readonly OwnCollection[] = MIRRORED_COLLECTIONS.filter(
  (c): c is OwnCollection => ENTITIES[c].mirror.kind === 'own',
);
export const REF_KINDS: readonly RefKind[] = MIRRORED_COLLECTIONS.filter((c): c is RefKind => ENTITIES[c].mirror.kind === 'ref');
const REFS = 'refs';
/** The RxDB collections holding mirrored rows (what a reset empties). */
const MIRROR_RX_COLLECTIONS: readonly (OwnCollection | typeof REFS)[] = [...OWN_COLLECTIONS, ...(REF_KINDS.length > 0 ? [REFS] as const : [])];
/** Every RxDB collection the mirror opens: this count is what RXDB_COLLECTION_LIMIT bounds. */
export const RX_COLLECTIONS: readonly string[] = [...MIRROR_RX_COLLECTIONS, ...LOCAL_COLLECTIONS];

/**
 * A reference row as stored in `refs`: the row (without `deleted`, like every stored row) under
 * `row`, its feed collection as `kind`, and the primary key `id` = `${kind}|${row_id}`, so ids
 * need not be unique across kinds. The key is RxDB's composite primary key over (kind, row_id).
 */
export interface RefDoc<K extends RefKind = RefKind> {
  id: string;
  kind: K;
  row_id: string;
  row: Omit<RowOf<K>, 'deleted'>;
}

const REF_SEPARATOR = '|';
const KIND_MAX = 32;
const UUID_LENGTH = 36;

export function refKey(kind: RefKind, id: string): string {
  return `${kind}${REF_SEPARATOR}${id}`;
}

/** The kind and row id a `refs` key names (deletes carry only the key). */
export function splitRefKey(key: string): { kind: RefKind; id: string } {
  const at = key.indexOf(REF_SEPARATOR);
  return { kind: key.slice(0, at) as RefKind, id: key.slice(at + 1) };
}

/**
 * Version 1: `kind` lost its enum (version 0 listed the kinds, so a new reference collection
 * changed the schema under the same version and RxDB refused to open the stored mirror, DB6).
 * Which kinds a mirror holds is part of MIRROR_LAYOUT instead: a new kind re-pulls the mirror.
 */
const refsSchema: RxJsonSchema<RefDoc> = {
  title: REFS,
  version: 1,
  primaryKey: { key: 'id', fields: ['kind', 'row_id'], separator: REF_SEPARATOR },
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: KIND_MAX + REF_SEPARATOR.length + UUID_LENGTH },
    kind: { type: 'string', maxLength: KIND_MAX },
    row_id: { type: 'string', maxLength: UUID_LENGTH },
    row: { type: 'object' },
  },
  required: ['id', 'kind', 'row_id', 'row'],
  additionalProperties: false,
};

export type MirrorCollections = {
  [K in OwnCollection]: RxCollection<K extends 'transactions' ? MirroredTransaction : MirrorDoc>;
} & {
  refs: RxCollection<RefDoc>;
  outbox: RxCollection<OutboxEntry>;
  meta: RxCollection<MetaDoc>;
};
export type MirrorDatabase = RxDatabase<MirrorCollections>;

const outboxSchema: RxJsonSchema<OutboxEntry> = {
  title: 'outbox',
  // 1 (issue 24): `base_seq`, the row version an edit was made against. 2 (issue 26): `answer`, the
  // server's answer kept on an entry the service worker delivered. Stored entries migrate as they are.
  version: 2,
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
    base_seq: { type: 'number' },
    answer: { type: ['object', 'null'] },
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

/** The RxDB schema of every collection the mirror opens, by name. */
export function rxSchemas(): Record<string, RxJsonSchema<unknown>> {
  const mirrored = mirrorJsonSchemas();
  return {
    ...Object.fromEntries(OWN_COLLECTIONS.map((c) => [c, mirrored[c]])),
    ...(REF_KINDS.length > 0 ? { [REFS]: refsSchema } : {}),
    outbox: outboxSchema,
    meta: metaSchema,
  } as Record<string, RxJsonSchema<unknown>>;
}

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

addRxPlugin(RxDBMigrationSchemaPlugin);

/** The schema version from which mirrored collections' stores are lean (schema/mirror.ts, 4). */
const LEAN_STORES_SINCE = 4;
/** The schema version from which they carry the floor's indexes only (schema/mirror.ts, 19; issue 33). */
const FLOOR_STORES_SINCE = 19;

/**
 * The mirror's storage: Dexie, with the mirrored collections' own stores at the floor's indexes
 * (the primary key and the negated-time field: workers/mirror-storage.ts; lean, no `_meta.lwt`
 * indexes, for the versions 4–18 RxDB's migration still opens). `settings`: Dexie's (tests pass fake-indexeddb).
 */
export function mirrorStorage(settings?: DexieSettings): RxStorage<unknown, unknown> {
  const own = OWN_COLLECTIONS as readonly string[];
  return getMirrorStorage((name, version) => {
    if (!own.includes(name)) return 'full';
    return version >= FLOOR_STORES_SINCE ? 'floor' : version >= LEAN_STORES_SINCE ? 'lean' : 'full';
  }, settings) as RxStorage<unknown, unknown>;
}

/**
 * A mirrored collection stored under an older schema version is a cache of the server: each
 * step drops its rows (RxDB refuses a changed schema under the same version, DB6), and
 * `reconcileLayout` then re-pulls, since the layout names the versions.
 */
function dropRows(version: number): Record<number, () => null> {
  const steps: Record<number, () => null> = {};
  for (let v = 1; v <= version; v++) steps[v] = () => null;
  return steps;
}

export async function openMirrorDatabase(opts: OpenOptions): Promise<MirrorDatabase> {
  const db = await createRxDatabase<MirrorCollections>({
    name: opts.name,
    storage: opts.storage ?? mirrorStorage(),
    multiInstance: opts.multiInstance ?? true,
    eventReduce: true,
    // Collections are closed with the database on sign-out; a re-open in the same worker is
    // legitimate (sign out, sign back in), so duplicates are closed rather than refused.
    closeDuplicates: true,
    // A floor store (mirror-storage.ts) has no `[_deleted+id]` index, so RxDB's `count()` is a
    // walk of the store (`mode: 'slow'`), which RxDB refuses unless allowed (QU14). The mirror
    // counts only as the first page's fallback when the checkpoint keeps no count.
    allowSlowCount: true,
  });
  const schemas = rxSchemas();
  await db.addCollections(
    Object.fromEntries(
      Object.entries(schemas).map(([name, schema]) => [name, { schema, migrationStrategies: MIGRATIONS[name] ?? dropRows(schema.version) }]),
    ) as unknown as Parameters<typeof db.addCollections>[0],
  );
  await reconcileLayout(db);
  return db;
}

/** The meta document holding the pull checkpoint (mirror-store.ts reads and writes it). */
export const CHECKPOINT_ID = 'checkpoint';
const LAYOUT_ID = 'layout';
const RESET_PAGE = 5_000;

/**
 * Stored documents of an older schema version, brought up to date when the collection opens
 * (RxDB's migration-schema plugin). Mirrored rows are a cache (a changed layout re-pulls them), so
 * these only need to let the collection open: refs 0 → 1 dropped the kind enum, the doc is the same.
 */
/** Collections whose older stored rows are kept (migrated) rather than dropped and pulled again. */
const MIGRATIONS: Record<string, MigrationStrategies> = {
  [REFS]: { 1: (doc: RefDoc) => doc },
  // An entry stored before issue 24 has no base_seq: it is sent without If-Match, as before.
  outbox: { 1: (doc: OutboxEntry) => doc, 2: (doc: OutboxEntry) => doc },
};

/** The outbox collection alone, as the mirror opens it (the service worker's background delivery opens only it). */
export const OUTBOX_COLLECTION = { schema: outboxSchema, migrationStrategies: MIGRATIONS.outbox! };

/**
 * The outbox's entries migrate in place (MIGRATIONS), so its schema version is not part of the
 * layout: a new outbox version must not empty and re-pull the mirror. Pinned to the version
 * layouts were first recorded with, so markers written before stay valid.
 */
const LAYOUT_VERSIONS: Record<string, number> = { outbox: 0 };

/**
 * The mirror's shape: which RxDB collections it opens, at which schema versions, and which
 * reference kinds share `refs` (a kind added later was never pulled into an existing mirror).
 */
export const MIRROR_LAYOUT = [
  ...Object.entries(rxSchemas()).map(([name, schema]) => `${name}@${LAYOUT_VERSIONS[name] ?? schema.version}`).sort(),
  ...(REF_KINDS.length > 0 ? [`${REFS}:${[...REF_KINDS].sort().join('+')}`] : []),
].join(',');

/**
 * Removes every mirrored row (own collections and `refs`) and rewinds the checkpoint, so the
 * next pull starts from the beginning. The outbox and the rest of `meta` stay.
 */
export async function clearMirroredRows(db: MirrorDatabase): Promise<void> {
  for (const name of MIRROR_RX_COLLECTIONS) {
    const collection = db[name] as unknown as RxCollection<MirrorDoc>;
    for (;;) {
      const page = await scanDocs(collection, RESET_PAGE).next();
      if (page.done || page.value.length === 0) break;
      await removeDocs(collection, page.value.map((d) => d.id));
    }
  }
  await db.meta.upsert({ id: CHECKPOINT_ID, value: { seq: 0, epoch: null, count: 0 } });
}

/**
 * A mirror written with another layout (a collection moved between its own RxDB collection and
 * `refs`, was added, or was retired) cannot be caught up from its checkpoint: rows of a new
 * place were never pulled there. The mirror is a cache of the server, so it is emptied and
 * pulled again rather than migrated; the outbox keeps its unsent commands. Collections no longer
 * opened are deleted from the device with their data. Unmarked databases (fresh ones, and those
 * written before layouts were recorded) take the same path, which costs nothing when empty.
 * The marker is written last: a crash midway repeats the whole step.
 */
async function reconcileLayout(db: MirrorDatabase): Promise<void> {
  const marker = await db.meta.findOne(LAYOUT_ID).exec();
  if (marker?.toJSON().value === MIRROR_LAYOUT) return;
  const open = new Set(Object.keys(db.collections));
  const stored = await getAllCollectionDocuments(db.internalStore);
  const retired = [...new Set(stored.map((d) => d.data.name))].filter((name) => !open.has(name));
  for (const name of retired) {
    await removeCollectionStorages(db.storage, db.internalStore, db.token, db.name, name, db.multiInstance, db.password, db.hashFunction);
  }
  await clearMirroredRows(db);
  await db.meta.upsert({ id: LAYOUT_ID, value: MIRROR_LAYOUT });
}
