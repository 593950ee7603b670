import { z } from 'zod';

/** Every mirrored row carries the per-business change sequence it was last written at. */
export const uuid = z.uuid();
export const isoDateTime = z.iso.datetime({ offset: true });
export const changeSeq = z.number().int().nonnegative();

export const mirroredFields = {
  business_id: uuid,
  change_seq: changeSeq,
  updated_at: isoDateTime,
  /** Tombstone: a deleted row stays in the feed with deleted=true so mirrors drop it. */
  deleted: z.boolean().default(false),
};

/**
 * What the server stamps on a record it keeps to itself (not mirrored, so no change seq: bill
 * templates, recurring bills, vendor credits): who made it, when, its last write, its tombstone.
 */
export const serverRecordFields = {
  created_by: uuid,
  created_at: isoDateTime,
  updated_at: isoDateTime,
  deleted: z.boolean(),
};

/**
 * A list param of a filter: `a,b` in a URL's query (empty items dropped), an array in a body or
 * a typed filter. Every entity's filter reads its lists through this one.
 */
export const csv = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v), z.array(item));

/** A yes/no param of a filter or page query: `true` / `false` in a URL's query, a boolean elsewhere. */
export const boolParam = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
