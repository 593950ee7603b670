import { z } from 'zod';
import { transactionSchema, type Transaction } from './entities/transaction.ts';
import { userRowSchema } from './entities/spend-user.ts';
import { departmentSchema } from './entities/department.ts';
import { locationSchema } from './entities/location.ts';
import { glAccountSchema } from './entities/gl-account.ts';
import { trackingCategorySchema } from './entities/tracking-category.ts';
import { cardSchema } from './entities/card.ts';
import type { MirroredCollection } from './sync-feed.ts';

/**
 * The RxDB JSON schemas of the mirrored collections, derived from the zod entity schemas so the
 * mirror can never drift from the wire. What RxDB needs on top is added here and only here:
 * primaryKey, version, indexes, maxLength on indexed strings, min/max/multipleOf on indexed
 * numbers, and the mirror-only fields.
 *
 * Indexes are kept minimal on purpose: every index is another IndexedDB index written per row,
 * and the mirror must write 100k rows close to the raw IndexedDB floor. Filters, sorts and text
 * search are answered by the worker's in-memory engine; the only indexed read is the cold-start
 * first page (newest first), which uses `occurred_desc` ascending because a descending sort on
 * the Dexie storage scans the whole index (TOOLCHAIN.md).
 */

/** The zod schema that validates an incoming row of each mirrored collection. */
export const MIRROR_ENTITY_SCHEMAS = {
  transactions: transactionSchema,
  users: userRowSchema,
  departments: departmentSchema,
  locations: locationSchema,
  gl_accounts: glAccountSchema,
  tracking_categories: trackingCategorySchema,
  cards: cardSchema,
} as const satisfies Record<MirroredCollection, z.ZodType>;

/** Date.parse covers ±8.64e15 ms; RxDB needs finite bounds on an indexed number. */
const TIME_BOUND = 8_640_000_000_000_000;
const UUID_LENGTH = 36;

/** The subset of RxDB's RxJsonSchema that schema/ may describe without importing rxdb. */
export interface MirrorJsonSchema {
  title: string;
  version: number;
  primaryKey: string;
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  indexes: (string | string[])[];
  additionalProperties: false;
}

/**
 * The field the mirror stores beside a transaction's server fields: occurred_desc =
 * -Date.parse(occurred_at), indexed, for newest-first reads sorted ascending. A stored row is
 * always the server's version; local edits live in the outbox and are applied over it in memory.
 */
export interface TransactionMirrorFields {
  occurred_desc: number;
}
/** A transaction as stored in the mirror (see MIRROR_OMITTED_FIELDS for the missing `deleted`). */
export type MirroredTransaction = Omit<Transaction, 'deleted'> & TransactionMirrorFields;

export function occurredDesc(occurredAt: string): number {
  return -Date.parse(occurredAt);
}

interface MirrorSpec {
  indexes: (string | string[])[];
  extraProperties: Record<string, Record<string, unknown>>;
  extraRequired: string[];
}

const SPECS: Record<MirroredCollection, MirrorSpec> = {
  transactions: {
    indexes: ['occurred_desc'],
    extraProperties: {
      occurred_desc: { type: 'number', minimum: -TIME_BOUND, maximum: TIME_BOUND, multipleOf: 1 },
    },
    extraRequired: ['occurred_desc'],
  },
  users: { indexes: [], extraProperties: {}, extraRequired: [] },
  departments: { indexes: [], extraProperties: {}, extraRequired: [] },
  locations: { indexes: [], extraProperties: {}, extraRequired: [] },
  gl_accounts: { indexes: [], extraProperties: {}, extraRequired: [] },
  tracking_categories: { indexes: [], extraProperties: {}, extraRequired: [] },
  cards: { indexes: [], extraProperties: {}, extraRequired: [] },
};

/**
 * Wire fields the mirror does not store. `deleted` is a reserved top-level name in RxDB (an
 * RxDocument getter, error SC17), and a stored row is never a tombstone anyway: tombstones
 * remove the row. Readers put `deleted: false` back.
 */
export const MIRROR_OMITTED_FIELDS = ['deleted'] as const;

/** Bumped when a mirror schema changes shape: the worker then resyncs instead of migrating. */
export const MIRROR_SCHEMA_VERSION = 0;

export function mirrorJsonSchema(collection: MirroredCollection): MirrorJsonSchema {
  const spec = SPECS[collection];
  const derived = z.toJSONSchema(MIRROR_ENTITY_SCHEMAS[collection], { io: 'output' }) as {
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const properties: Record<string, Record<string, unknown>> = {
    ...derived.properties,
    ...spec.extraProperties,
  };
  for (const field of MIRROR_OMITTED_FIELDS) delete properties[field];
  // The primary key is indexed by RxDB: it needs a maxLength.
  properties.id = { ...properties.id, maxLength: UUID_LENGTH };
  for (const field of spec.indexes.flat()) {
    const prop = properties[field];
    if (!prop) throw new Error(`index on unknown field ${collection}.${field}`);
    if (prop.type === 'string' && prop.maxLength === undefined) {
      properties[field] = { ...prop, maxLength: UUID_LENGTH };
    }
  }
  return {
    title: collection,
    version: MIRROR_SCHEMA_VERSION,
    primaryKey: 'id',
    type: 'object',
    properties,
    required: [...new Set([...(derived.required ?? []), 'id', ...spec.extraRequired])].filter(
      (f) => !(MIRROR_OMITTED_FIELDS as readonly string[]).includes(f),
    ),
    indexes: spec.indexes,
    additionalProperties: false,
  };
}

export function mirrorJsonSchemas(): Record<MirroredCollection, MirrorJsonSchema> {
  return Object.fromEntries(
    (Object.keys(SPECS) as MirroredCollection[]).map((c) => [c, mirrorJsonSchema(c)]),
  ) as Record<MirroredCollection, MirrorJsonSchema>;
}
