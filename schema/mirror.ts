import { z } from 'zod';
import type { MirrorSpec } from './entities/define-entity.ts';
import { ENTITIES, MIRRORED_COLLECTIONS, type EntityOf, type MirroredCollection, type RowOf } from './collections.ts';

/**
 * The RxDB JSON schemas of the mirrored collections, derived from the zod entity schemas so the
 * mirror can never drift from the wire. Each definition's mirror spec says what RxDB needs on top
 * (indexes, the indexed negated timestamp); this file turns it into primaryKey, version,
 * maxLength on indexed strings, min/max/multipleOf on indexed numbers, and the mirror-only fields.
 *
 * Indexes are kept minimal on purpose: every index is another IndexedDB index written per row,
 * and the mirror must write 100k rows close to the raw IndexedDB floor. Filters, sorts and text
 * search are answered by the worker's in-memory engine; the only indexed read is the cold-start
 * first page (newest first), which uses `occurred_desc` ascending because a descending sort on
 * the Dexie storage scans the whole index (TOOLCHAIN.md).
 */

/** The zod schema that validates an incoming row of each mirrored collection. */
export const MIRROR_ENTITY_SCHEMAS = Object.fromEntries(
  MIRRORED_COLLECTIONS.map((c) => [c, ENTITIES[c].schema]),
) as { readonly [C in MirroredCollection]: EntityOf<C>['schema'] };

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

/** The mirror-only field a collection's definition declares (its indexed negated timestamp). */
type MirrorFieldsOf<C extends MirroredCollection> = EntityOf<C>['mirror'] extends { negatedTime: { field: infer F extends string } }
  ? Record<F, number>
  : unknown;

/**
 * A row as stored in the mirror: the wire row without `deleted` (see MIRROR_OMITTED_FIELDS),
 * plus its mirror-only fields. A stored row is always the server's version; local edits live in
 * the outbox and are applied over it in memory.
 */
export type MirroredRow<C extends MirroredCollection> = Omit<RowOf<C>, 'deleted'> & MirrorFieldsOf<C>;

/** A transaction as stored: occurred_desc = -Date.parse(occurred_at), indexed (newest first). */
export interface TransactionMirrorFields {
  occurred_desc: number;
}
export type MirroredTransaction = MirroredRow<'transactions'>;

export function occurredDesc(occurredAt: string): number {
  return -Date.parse(occurredAt);
}

interface MirrorExtras {
  properties: Record<string, Record<string, unknown>>;
  required: string[];
}

function mirrorExtras(collection: MirroredCollection): MirrorExtras {
  const mirror: MirrorSpec<Record<string, unknown>> = ENTITIES[collection].mirror;
  const negated = mirror.negatedTime;
  if (!negated) return { properties: {}, required: [] };
  return {
    properties: { [negated.field]: { type: 'number', minimum: -TIME_BOUND, maximum: TIME_BOUND, multipleOf: 1 } },
    required: [negated.field],
  };
}

/**
 * Wire fields the mirror does not store. `deleted` is a reserved top-level name in RxDB (an
 * RxDocument getter, error SC17), and a stored row is never a tombstone anyway: tombstones
 * remove the row. Readers put `deleted: false` back.
 */
const MIRROR_OMITTED_FIELDS = ['deleted'] as const;

/**
 * Bumped when a mirror schema changes shape: the worker then resyncs instead of migrating (every
 * step's strategy drops the stored rows, workers/db.ts; the layout marker changes with it).
 * 1: transactions carry `receipt_ids` (issue 9 §2).
 * 2: reimbursements carry `receipt_ids` (issue 9).
 * 3: approvals' `object_type` enum lists `bill` (issue 11). The enum is in the stored JSON schema,
 *    so a new kind is a schema change (issue 10 added `card_request` without a bump).
 * 4: the stores are lean (issue 13: no `_meta.lwt` indexes, workers/mirror-storage.ts); the new
 *    version opens a new IndexedDB database per collection, declared lean from the start.
 * 5: transactions, reimbursements and bills carry `accounting_synced_at` (issue 12: a synced item
 *    refuses coding edits, offline too).
 * 6: transactions carry `merchant_country`, `fraud_status`, `fraud_reasons` and `dispute_id` (issue 24:
 *    held charges and the cardholder's answer, offline too).
 * 7: bills carry `duplicate_of` (issue 25: a confirmed duplicate invoice, shown to approvers).
 * 8: transactions carry `attendees` (issue 26).
 * 9: the `trips` collection (issue 27): a new RxDB collection in the layout; approvals may review a `travel_booking`.
 * 10: the `spend_requests` collection (issue 28, RxDB slot 11); approvals may review a `spend_request`;
 *    cards carry `spend_request_id` / `spend_allocation_id`; bills `purchase_order_id`, `po_match`
 *    and per line `po_line_id`, `quantity`, `unit_price`.
 * 11: approvals may review a `vendor-payment` or a `payee`; bills carry `payment_approval`, vendors
 *    `payee_approval` (issue 28's vendor-payment and payee policies, migration 049).
 * 12: approvals carry `on_behalf_of` (issue 29: a decision made through a delegation).
 * 13: the `notifications` collection (issue 29, RxDB slot 12): the notifications centre.
 * 14: transactions carry `coding_suggestion_dismissed_at` (issue 29: a dismissed coding suggestion).
 * 15: reference collections `wallet_accounts` and `wallet_transfers` (issue 30, in `refs`: no new slot).
 * 16: reference collection `bank_accounts` (issue 30, linked bank accounts, in `refs`: no new slot; the
 *    layout's new kind re-pulls the mirror, workers/db.ts).
 * 17: vendors carry `network` (issue 31: the vendor network's snapshot: invited or joined, what the
 *    vendor verified, its pending edit proposal).
 * 18: transactions carry `attendee_split` (issue 32: the amount split across the attendees).
 * 19: the stores carry the floor's indexes only (issue 33: `occurred_desc`, not `[_deleted+occurred_desc+id]`,
 *    no `[_deleted+id]`; workers/mirror-storage.ts `floor`); a new IndexedDB database per collection.
 */
export const MIRROR_SCHEMA_VERSION = 19;

export function mirrorJsonSchema(collection: MirroredCollection): MirrorJsonSchema {
  const spec = ENTITIES[collection].mirror;
  const extras = mirrorExtras(collection);
  const derived = z.toJSONSchema(MIRROR_ENTITY_SCHEMAS[collection], { io: 'output' }) as {
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const properties: Record<string, Record<string, unknown>> = {
    ...derived.properties,
    ...extras.properties,
  };
  for (const field of MIRROR_OMITTED_FIELDS) delete properties[field];
  for (const [field, prop] of Object.entries(properties)) properties[field] = withoutNestedDefaults(prop);
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
    required: [...new Set([...(derived.required ?? []), 'id', ...extras.required])].filter(
      (f) => !(MIRROR_OMITTED_FIELDS as readonly string[]).includes(f),
    ),
    indexes: [...spec.indexes],
    additionalProperties: false,
  };
}

/**
 * RxDB refuses a `default` below the top level (SC7); zod fills them (a bill's line items:
 * `gl_account_id` null…) before a row is stored, so the nested ones are dropped from the schema.
 * Top-level defaults stay (unchanged schemas keep their version).
 */
function withoutNestedDefaults(prop: Record<string, unknown>): Record<string, unknown> {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) if (k !== 'default') out[k] = strip(v);
    return out;
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(prop)) out[k] = k === 'default' ? v : strip(v);
  return out;
}

export function mirrorJsonSchemas(): Record<MirroredCollection, MirrorJsonSchema> {
  return Object.fromEntries(
    MIRRORED_COLLECTIONS.map((c) => [c, mirrorJsonSchema(c)]),
  ) as Record<MirroredCollection, MirrorJsonSchema>;
}
